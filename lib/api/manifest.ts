import { InvalidObjectError } from './invalid-object-error';
import { composeDocuments, nestedDeeperThan, NestingDepthError } from './nesting-depth';

/** Bounds that keep a hostile manifest from exhausting memory (alias bombs, huge documents) or the stack (nesting-depth.ts). */
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_ALIASES = 64;
const MAX_DOCUMENTS = 1000;

function reject(message: string): never {
  throw new InvalidObjectError('Manifest', '', [{ field: '<root>', message }], 400);
}

/**
 * Reads a JSON or YAML text (YAML 1.1, as kubectl reads it: `yes` and `on` are booleans) holding one or more manifests (YAML documents separated by "---", or a
 * `kind: List` with `items`) and returns the raw objects in order.
 */
export function parseManifests(text: string): unknown[] {
  try {
    return parseDocuments(text).flatMap(flattenList);
  } catch (error) {
    if (error instanceof NestingDepthError) reject(error.message);
    throw error;
  }
}

/**
 * The documents of a JSON or YAML text as they are written, empty ones left out: a list stays a list.
 * What a request body holds, where the one document must itself be the object. A text nested too
 * deep throws NestingDepthError, for the caller to word.
 */
export function parseDocuments(text: string): unknown[] {
  if (Buffer.byteLength(text, 'utf8') > MAX_MANIFEST_BYTES) reject(`must be at most ${MAX_MANIFEST_BYTES} bytes`);
  const documents = composeDocuments(text, { uniqueKeys: true, version: '1.1' });
  if (documents.length > MAX_DOCUMENTS) reject(`must hold at most ${MAX_DOCUMENTS} documents`);
  const values: unknown[] = [];
  for (const document of documents) {
    const error = document.errors[0];
    if (error) reject(`is not valid YAML or JSON: ${error.message.split('\n')[0]}`);
    let value: unknown;
    try {
      value = document.toJS({ maxAliasCount: MAX_ALIASES });
    } catch (cause) {
      reject(`could not be read: ${(cause as Error).message.split('\n')[0]}`);
    }
    if (value === null || value === undefined) continue;
    // Aliases can nest what each document writes within the limit deeper than it.
    if (nestedDeeperThan(value)) throw new NestingDepthError();
    values.push(value);
  }
  return values;
}

function flattenList(value: unknown): unknown[] {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (typeof record.kind === 'string' && record.kind.endsWith('List') && Array.isArray(record.items)) {
      return record.items;
    }
  }
  if (Array.isArray(value)) return value;
  return [value];
}
