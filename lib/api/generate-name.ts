import { isPlainObject } from './plain-object';

/**
 * metadata.generateName, as kube-apiserver reads it: an object created without a name is named its
 * generateName followed by five random characters from the alphabet Kubernetes draws them from (no
 * vowels, so no words), the prefix cut so that the name has at most 63 characters.
 */

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const RANDOM_LENGTH = 5;
const MAX_PREFIX_LENGTH = 63 - RANDOM_LENGTH;

/** How often a create tries another name when a generated one is taken, as kube-apiserver retries (8 in all). */
export const GENERATE_NAME_ATTEMPTS = 8;

/**
 * The generateName of an object to be created without a name; undefined when it has a name (which
 * wins, as in Kubernetes) or no generateName.
 */
export function generateNameOf(raw: unknown): string | undefined {
  const metadata = isPlainObject(raw) && isPlainObject(raw.metadata) ? raw.metadata : undefined;
  if (!metadata || (metadata.name !== undefined && metadata.name !== '')) return undefined;
  return typeof metadata.generateName === 'string' && metadata.generateName !== '' ? metadata.generateName : undefined;
}

/** Whether the object has neither a name nor a generateName (a create refuses it); a metadata that is not an object is validation's to report. */
export function isUnnamed(raw: unknown): boolean {
  if (!isPlainObject(raw) || (raw.metadata !== undefined && !isPlainObject(raw.metadata))) return false;
  const metadata = (raw.metadata ?? {}) as Record<string, unknown>;
  return (metadata.name === undefined || metadata.name === '') && (metadata.generateName === undefined || metadata.generateName === '');
}

/**
 * The prefix followed by five characters drawn from `randomness` (hexadecimal digits: the uid source's,
 * so that a simulation names its objects the same way each run, and a deployment at random).
 */
export function generatedName(prefix: string, randomness: string): string {
  const digits = randomness.replace(/[^0-9a-f]/gi, '');
  const suffix = Array.from({ length: RANDOM_LENGTH }, (_, index) => ALPHABET[Number.parseInt(digits.slice(index * 2, index * 2 + 2) || '0', 16) % ALPHABET.length]).join('');
  return prefix.slice(0, MAX_PREFIX_LENGTH) + suffix;
}

/** The object with its name set. */
export function withName(raw: Record<string, unknown>, name: string): Record<string, unknown> {
  return { ...raw, metadata: { ...(raw.metadata as Record<string, unknown>), name } };
}
