import { ApiError } from './status';

/**
 * How a selectable field is read from an object. Undefined means the object does not record that
 * field, so a requirement on it cannot be decided and does not exclude the object. A list of values is
 * a field an object holds several of (a binding's clusters): field=value holds when one of them is the
 * value, field= (no value) when there are none, and field!=value when field=value does not.
 */
export type FieldGetters<T> = Readonly<Record<string, (object: T) => string | readonly string[] | undefined>>;

interface FieldRequirement {
  readonly field: string;
  readonly equal: boolean;
  readonly value: string;
}

/** Splits at commas that are not escaped; kubectl escapes "\", "," and "=" in values with a backslash. */
function splitTerms(selector: string): string[] {
  const terms: string[] = [];
  let current = '';
  for (let i = 0; i < selector.length; i += 1) {
    const c = selector[i]!;
    if (c === '\\' && i + 1 < selector.length) {
      current += c + selector[i + 1]!;
      i += 1;
    } else if (c === ',') {
      terms.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  return [...terms, current];
}

const TERM = /^([^=!\s]+)\s*(==|=|!=)(.*)$/s;

function requirementOf<T>(term: string, selector: string, fields: FieldGetters<T>): FieldRequirement {
  const match = TERM.exec(term.trim());
  if (!match) throw new ApiError('BadRequest', `unable to parse fieldSelector "${selector}": "${term}" is not field=value or field!=value`);
  const field = match[1]!;
  if (!Object.hasOwn(fields, field)) {
    throw new ApiError('BadRequest', `field label not supported: ${field} (supported: ${Object.keys(fields).join(', ')})`);
  }
  return { field, equal: match[2] !== '!=', value: match[3]!.replace(/\\(.)/gs, '$1') };
}

function holds(actual: string | readonly string[], value: string): boolean {
  if (typeof actual === 'string') return actual === value;
  return value === '' ? actual.length === 0 : actual.includes(value);
}

export interface FieldSelectorQuery<T> {
  readonly matches: (object: T) => boolean;
  /** The fields required to equal a value: a hint that lets a reader fetch less before matching. */
  readonly equalities: ReadonlyMap<string, string>;
}

/** The fieldSelector query parameter over objects whose fields `fields` can read. */
export function fieldSelectorQuery<T>(selector: string | undefined, fields: FieldGetters<T>): FieldSelectorQuery<T> {
  const terms = selector === undefined || selector.trim() === '' ? [] : splitTerms(selector);
  const requirements = terms.map((term) => requirementOf(term, selector ?? '', fields));
  return {
    matches: (object) =>
      requirements.every((r) => {
        const actual = fields[r.field]!(object);
        return actual === undefined || holds(actual, r.value) === r.equal;
      }),
    equalities: new Map(requirements.filter((r) => r.equal).map((r) => [r.field, r.value])),
  };
}
