import { EVENT, SYSTEM_KINDS, TEMPLATE_KINDS } from '../api/kinds';
import { parseManifests } from '../api/manifest';
import { apiGroupOf } from '../api/resource-template';
import { withConfig } from '../config';
import { systemClock } from '../ports/clock';
import { whatIf } from '../simulate/what-if';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { jsonResponse } from './response';
import { ApiError } from './status';
import { refusalOfApply } from './write-authorization';

/** Not a Kubernetes resource: outside /apis, beside the queue status. */
export const WHAT_IF_PATH = '/outrank/v1/whatif';

function tooManyWhatIfs(size: number): ApiError {
  return new ApiError('TooManyRequests', `too many requests: ${size} what-ifs are running in this server already; try again in a second`, { retryAfterSeconds: 1 });
}

/**
 * POST /outrank/v1/whatif with manifests (YAML or JSON, several documents allowed): what applying them
 * now would do — the decisions, the placements that change and the victims — decided by the
 * simulator's controllers on a copy of the live state, which is read whole (one list per kind, events
 * aside: every binding, cluster, policy and template) and never written. Nothing is written, so it is
 * open to every caller; but it tries only the manifests the caller could write for real (with tenancy,
 * the rules of the write paths' authorizer), reporting the others as rejections with the rule each
 * breaks. At most `deps.whatIfSlots.size` run at once (429 beyond); `signal`, aborted when the request
 * has been answered without this (answer-within.ts), stops the simulation at its next step.
 */
export async function whatIfResponse(request: ApiRequest, deps: ApiDependencies, signal?: AbortSignal): Promise<ApiResponse> {
  if (request.method.toUpperCase() !== 'POST') throw new ApiError('MethodNotAllowed', 'whatif supports only POST, with the manifests to try as its body');
  if (request.body === undefined || request.body.trim() === '') throw new ApiError('BadRequest', 'the request body must hold the manifests to try');
  let manifests: unknown[];
  try {
    manifests = parseManifests(request.body);
  } catch (error) {
    throw new ApiError('BadRequest', `the manifests cannot be read: ${(error as Error).message}`);
  }
  const release = deps.whatIfSlots?.take();
  if (deps.whatIfSlots && !release) throw tooManyWhatIfs(deps.whatIfSlots.size);
  try {
    const kinds = [...SYSTEM_KINDS.filter((kind) => kind !== EVENT), ...TEMPLATE_KINDS];
    const live = (await Promise.all(kinds.map((kind) => deps.store.list(apiGroupOf(kind.apiVersion), kind.kind)))).flat();
    const result = await whatIf(live, manifests, deps.config ?? withConfig(), (deps.clock ?? systemClock).now(), {
      ...(signal ? { signal } : {}),
      refusalOf: (manifest) => refusalOfApply(deps, manifest),
    });
    return jsonResponse(200, { kind: 'WhatIf', apiVersion: 'outrank.io/v1', ...result });
  } finally {
    release?.();
  }
}
