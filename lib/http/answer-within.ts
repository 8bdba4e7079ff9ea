import type { ApiRequest, ApiResponse } from './api-types';
import { hasSideEffects } from './side-effects';
import { failureStatus, statusResponse, type Status } from './status';

type Request = Pick<ApiRequest, 'method' | 'path' | 'query'>;

/**
 * The answer to a request the server could not finish in its time, as the Kubernetes API server gives
 * it, by whether the request has side effects (side-effects.ts), not by its method: one without (a
 * read, a dry run, a what-if) is answered 503 with Retry-After (nothing happened, try again); a write
 * 504 Timeout, as it may still be committed, so the client reads the object before deciding to write
 * again. Either beats being cut off by the function's own time-out, which the client would see as a
 * bare gateway error.
 */
export function outOfTime(request: Request): ApiResponse {
  return statusResponse(outOfTimeStatus(request));
}

/** The Status of outOfTime; also the answer when the object store did not answer (StoreTimeoutError). */
export function outOfTimeStatus(request: Request): Status {
  return hasSideEffects(request)
    ? failureStatus('Timeout', 'the server could not finish the request in time; it may still be completed: read the object to see whether it was')
    : failureStatus('ServiceUnavailable', 'the server could not answer in time: try again in a second', { retryAfterSeconds: 1 });
}

/**
 * The answer of `work`, or outOfTime(request) if it takes longer than `budgetMs`. `work` is handed a
 * signal that is aborted when that answer is given: work that can stop between its steps (a what-if)
 * stops there rather than take the process's time, for an answer nobody will read, from the requests
 * that follow (on Lambda, from the next invocation, which thaws it). A write is not stopped half-way.
 */
export async function answerWithin(budgetMs: number, request: Request, work: (signal: AbortSignal) => Promise<ApiResponse>): Promise<ApiResponse> {
  const answered = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ApiResponse>((resolve) => {
    timer = setTimeout(() => {
      resolve(outOfTime(request));
      answered.abort();
    }, Math.max(0, budgetMs));
  });
  try {
    return await Promise.race([work(answered.signal), late]);
  } finally {
    clearTimeout(timer);
  }
}
