import { isPlainObject } from '../api/plain-object';
import { parseDocuments } from '../api/manifest';
import { nestedDeeperThan, NestingDepthError, NESTING_RULE } from '../api/nesting-depth';
import type { ApiRequest } from './api-types';
import { ApiError } from './status';

/** The same bound as manifests read from files; the server refuses larger bodies before reading them. */
const MAX_BODY_BYTES = 1024 * 1024;

/** The manifests' limit, named as a body's (nesting-depth.ts). */
const TOO_DEEP = `the request body ${NESTING_RULE}`;

export type BodySyntax = 'json' | 'yaml';

export type JsonObject = Record<string, unknown>;

/** The Content-Type without its parameters (charset), lower case; JSON when absent, as Kubernetes assumes. */
export function mediaTypeOf(request: ApiRequest): string {
  const header = request.headers['content-type'];
  return header ? header.split(';')[0]!.trim().toLowerCase() : 'application/json';
}

export function unsupportedMediaType(mediaType: string, accepted: readonly string[]): ApiError {
  return new ApiError(
    'UnsupportedMediaType',
    `the body of the request was in an unknown format (${mediaType}) - accepted media types include: ${accepted.join(', ')}`,
  );
}


function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError('BadRequest', `the request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * A request body's one YAML document, as written (a list of objects is not an object), read by the
 * manifest reader, so it has the same alias and size limits as files.
 */
function parseYaml(text: string): unknown {
  let documents: unknown[];
  try {
    documents = parseDocuments(text);
  } catch (error) {
    if (error instanceof NestingDepthError) throw new ApiError('BadRequest', TOO_DEEP);
    throw error;
  }
  if (documents.length !== 1) throw new ApiError('BadRequest', `the request body must hold exactly one object, not ${documents.length} documents`);
  return documents[0];
}

/** Checked first for every request, before anything of it is read. */
export function checkBodySize(request: ApiRequest): void {
  if (request.body !== undefined && Buffer.byteLength(request.body, 'utf8') > MAX_BODY_BYTES) {
    throw new ApiError('RequestEntityTooLarge', `the request body is too large: at most ${MAX_BODY_BYTES} bytes are accepted`);
  }
}

/** The array of operations a JSON patch carries (each is checked as it is applied). */
export function readPatchOperations(request: ApiRequest): unknown[] {
  if (request.body === undefined || request.body.trim() === '') throw new ApiError('BadRequest', 'the request body must hold a JSON patch');
  const value = parseJson(request.body);
  if (!Array.isArray(value)) throw new ApiError('BadRequest', 'the body of a JSON patch must be an array of operations');
  if (nestedDeeperThan(value)) throw new ApiError('BadRequest', TOO_DEEP);
  return value;
}

/** The one JSON object a create, replace or patch carries (its size was checked on arrival). */
export function readObjectBody(request: ApiRequest, syntax: BodySyntax): JsonObject {
  if (request.body === undefined || request.body.trim() === '') throw new ApiError('BadRequest', 'the request body must hold an object');
  const value = syntax === 'json' ? parseJson(request.body) : parseYaml(request.body);
  if (!isPlainObject(value)) throw new ApiError('BadRequest', 'the request body must hold an object');
  if (nestedDeeperThan(value)) throw new ApiError('BadRequest', TOO_DEEP);
  return value;
}
