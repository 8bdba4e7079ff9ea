import fc from 'fast-check';

/** Mostly letters, so that long names are mostly one label, with digits, "-" and "." among them. */
const NAME_CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz', ...'0123456789', '-', '-', '.'];

const isSeparator = (character: string | undefined) => character === '-' || character === '.';

/**
 * Characters made into a DNS subdomain name (RFC 1123, as Kubernetes checks object names): every label
 * starts and ends with an alphanumeric. A separator where a label would start or end becomes a letter.
 */
function asSubdomain(characters: readonly string[]): string {
  const repaired: string[] = [];
  characters.forEach((character, index) => {
    const atEnd = index === 0 || index === characters.length - 1;
    const previous = repaired[index - 1];
    const misplaced = character === '.' ? atEnd || isSeparator(previous) : character === '-' && (atEnd || previous === '.');
    repaired.push(misplaced ? 'x' : character);
  });
  return repaired.join('');
}

/** As asSubdomain, for a DNS label (a namespace name): no dots. */
function asLabel(characters: readonly string[]): string {
  return asSubdomain(characters.map((character) => (character === '.' ? '-' : character)));
}

function ofLength(length: fc.Arbitrary<number>, make: (characters: readonly string[]) => string): fc.Arbitrary<string> {
  return length.chain((n) => fc.array(fc.constantFrom(...NAME_CHARACTERS), { minLength: n, maxLength: n })).map(make);
}

/**
 * Valid object names (DNS subdomain names) of 1 to 253 characters, half of them at least 230 long: where
 * `<name>-<kind>` passes 253 characters.
 */
export const objectNames: fc.Arbitrary<string> = ofLength(fc.oneof(fc.integer({ min: 1, max: 253 }), fc.integer({ min: 230, max: 253 })), asSubdomain);

/** Valid namespace names (DNS labels) of 1 to 63 characters, often the longest. */
export const namespaceNames: fc.Arbitrary<string> = ofLength(fc.oneof(fc.integer({ min: 1, max: 63 }), fc.constant(63)), asLabel);

/** Valid cluster names (DNS labels of at most 48 characters, as Karmada's ValidateClusterName allows), often the longest. */
export const clusterNames: fc.Arbitrary<string> = ofLength(fc.oneof(fc.integer({ min: 1, max: 48 }), fc.constant(48)), asLabel);
