import type { ApiResponse } from './api-types';
import { failureStatus, statusResponse, type Status } from './status';

const READS = new Set(['GET', 'HEAD']);

/**
 * The answer to a request the server could not finish in its time, as the Kubernetes API server gives
 * it: a read is answered 503 with Retry-After (nothing happened, try again); a write 504 Timeout, as it
 * may still be committed, so the client reads the object before deciding to write again. Either beats
 * being cut off by the function's own time-out, which the client would see as a bare gateway error.
 */
export function outOfTime(method: string): ApiResponse {
  return statusResponse(outOfTimeStatus(method));
}

/** The Status of outOfTime; also the answer when the object store did not answer (StoreTimeoutError). */
export function outOfTimeStatus(method: string): Status {
  return READS.has(method.toUpperCase())
    ? failureStatus('ServiceUnavailable', 'the server could not answer in time: try again in a second', { retryAfterSeconds: 1 })
    : failureStatus('Timeout', 'the server could not finish the request in time; it may still be completed: read the object to see whether it was');
}

/** The answer of `work`, or outOfTime(method) if it takes longer than `budgetMs`. */
export async function answerWithin(budgetMs: number, method: string, work: Promise<ApiResponse>): Promise<ApiResponse> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ApiResponse>((resolve) => {
    timer = setTimeout(() => resolve(outOfTime(method)), Math.max(0, budgetMs));
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
