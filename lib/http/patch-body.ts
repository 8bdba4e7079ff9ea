import { applyJsonPatch } from '../api/json-patch';
import { applyMergePatch } from '../api/merge-patch';
import { applyStrategicMergePatch } from '../api/strategic-merge-patch';
import type { ApiRequest } from './api-types';
import { mediaTypeOf, readObjectBody, readPatchOperations, unsupportedMediaType } from './request-body';

export type PatchFunction = (target: unknown, patch: unknown) => unknown;

/** A patch a request carries: the function that applies it, and its body. */
export interface Patch {
  readonly apply: PatchFunction;
  readonly body: unknown;
}

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';

/**
 * The patch of a PATCH by its media type, for an object or one of its subresources: RFC 6902 JSON
 * patch, RFC 7386 merge patch, or a strategic merge patch — whose lists merge by key where the kind
 * has such lists (workload templates' containers by name), else the same as a merge patch.
 */
export function patchOf(request: ApiRequest, mergesListsByKey: boolean, otherMediaTypes: readonly string[] = []): Patch {
  const mediaType = mediaTypeOf(request);
  if (mediaType === JSON_PATCH) return { apply: applyJsonPatch, body: readPatchOperations(request) };
  if (mediaType === MERGE_PATCH) return { apply: applyMergePatch, body: readObjectBody(request, 'json') };
  if (mediaType === STRATEGIC_MERGE_PATCH) return { apply: mergesListsByKey ? applyStrategicMergePatch : applyMergePatch, body: readObjectBody(request, 'json') };
  throw unsupportedMediaType(mediaType, [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, ...otherMediaTypes]);
}
