import type { ApiRequest } from './api-types';
import { SELF_SUBJECT_ACCESS_REVIEWS_PATH, SELF_SUBJECT_REVIEWS_PATH } from './self-reviews';
import { WHAT_IF_PATH } from './what-if-request';

/** POSTs that only compute an answer from what is stored: a what-if, and the self reviews. */
const COMPUTED_ANSWERS = new Set([WHAT_IF_PATH, SELF_SUBJECT_ACCESS_REVIEWS_PATH, SELF_SUBJECT_REVIEWS_PATH]);

/**
 * Whether serving a request may change what is stored, which decides how it is answered when it runs
 * out of time (answer-within.ts). Not the method: a read (GET, HEAD) has none, nor has a dry run
 * (`dryRun=All`, as kube-apiserver marks it), nor a POST that computes an answer and writes nothing.
 */
export function hasSideEffects(request: Pick<ApiRequest, 'method' | 'path' | 'query'>): boolean {
  const method = request.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD') return false;
  if (request.query.dryRun === 'All') return false;
  return !COMPUTED_ANSWERS.has(request.path);
}
