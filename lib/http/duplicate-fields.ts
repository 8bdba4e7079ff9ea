import { fieldPath } from '../api/invalid-object-error';
import type { WriteOptions } from '../controllers/object-service';
import type { ApiRequest } from './api-types';
import { mediaTypeOf } from './request-body';
import { ApiError } from './status';

/** A collection open at a point of the text: an object's keys so far and its last key, or an array's next index. */
interface OpenCollection {
  readonly keys: Set<string> | undefined;
  key: string | undefined;
  index: number;
}

/**
 * The fields a JSON body names twice, as paths (metadata.name). JSON.parse keeps the last silently,
 * as Kubernetes does under Ignore; Strict refuses them and Warn says which. One pass over the text,
 * which JSON.parse has already accepted: the keys of each open object are remembered, and each
 * string read is a key when an object expects one. A text JSON.parse refuses gives none.
 */
export function duplicateFields(text: string): string[] {
  const found: string[] = [];
  const open: OpenCollection[] = [];
  // The segment each open collection has in the path of what it holds.
  const path = (): PropertyKey[] => open.slice(0, -1).map((collection) => (collection.keys ? collection.key! : collection.index));
  let expectingKey = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      const end = closingQuote(text, at);
      const top = open[open.length - 1];
      if (expectingKey && top?.keys) {
        const raw = text.slice(at + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(at, end + 1)) as string) : raw;
        if (top.keys.has(key)) found.push(fieldPath([...path(), key]));
        top.keys.add(key);
        top.key = key;
        expectingKey = false;
      }
      at = end;
    } else if (char === '{' || char === '[') {
      open.push({ keys: char === '{' ? new Set() : undefined, key: undefined, index: 0 });
      expectingKey = char === '{';
    } else if (char === '}' || char === ']') {
      open.pop();
    } else if (char === ',') {
      const top = open[open.length - 1];
      if (top?.keys) expectingKey = true;
      else if (top) top.index += 1;
    }
  }
  return found;
}

/** The index of the quote that closes the string opened at `start`. */
function closingQuote(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at;
  }
  return text.length;
}

/**
 * What a JSON body's repeated fields mean under the request's field validation: refused under Strict
 * (the default, 400 naming each), warnings under Warn, nothing under Ignore. YAML bodies never get here
 * with one: the manifest reader refuses repeated keys.
 */
export function duplicateFieldWarnings(request: ApiRequest, options: WriteOptions): string[] {
  if (request.body === undefined || mediaTypeOf(request) === 'application/yaml' || mediaTypeOf(request) === 'application/apply-patch+yaml') return [];
  if (options.fieldValidation === 'Ignore') return [];
  const messages = duplicateFields(request.body).map((field) => `duplicate field "${field}"`);
  if (messages.length > 0 && options.fieldValidation !== 'Warn') throw new ApiError('BadRequest', `strict decoding error: ${messages.join(', ')}`);
  return messages;
}
