import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { fieldPath } from '../api/invalid-object-error';
import type { WriteOptions } from '../controllers/object-service';
import type { ApiRequest } from './api-types';
import { mediaTypeOf } from './request-body';
import { ApiError } from './status';

/**
 * The fields a JSON body names twice, as paths (metadata.name). JSON.parse keeps the last silently,
 * as Kubernetes does under Ignore; Strict refuses them and Warn says which. Read with the YAML parser,
 * whose syntax tree keeps every key (JSON is YAML).
 */
export function duplicateFields(text: string): string[] {
  const document = parseDocument(text, { uniqueKeys: false });
  if (document.errors.length > 0) return [];
  const found: string[] = [];
  const visit = (node: unknown, path: readonly PropertyKey[]): void => {
    if (isSeq(node)) node.items.forEach((item, index) => visit(item, [...path, index]));
    if (!isMap(node)) return;
    const seen = new Set<unknown>();
    for (const pair of node.items) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      const name = String(key);
      if (seen.has(name)) found.push(fieldPath([...path, name]));
      seen.add(name);
      visit(pair.value as Node | null, [...path, name]);
    }
  };
  visit(document.contents, []);
  return found;
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
