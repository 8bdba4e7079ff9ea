import type { ApiResponse } from '../lib/http/api-types';
import { failureStatus, statusResponse } from '../lib/http/status';

/** What a Lambda function's response may carry (6 MB), less room for API Gateway's envelope and headers. */
export const MAX_ANSWER_BYTES = 6 * 1024 * 1024 - 64 * 1024;

/**
 * The answer, or, when it is larger than a Lambda function can send (an unpaged list of a large fleet),
 * a 413 Status saying so and how to ask instead: a list in pages, as kubectl, outrank and the console
 * read one. Without this the caller would get API Gateway's bare 502.
 */
export function deliverableAnswer(response: ApiResponse): ApiResponse {
  const bytes = Buffer.byteLength(response.body, 'utf8');
  if (bytes <= MAX_ANSWER_BYTES) return response;
  const megabytes = (size: number) => (size / (1024 * 1024)).toFixed(1);
  return statusResponse(
    failureStatus(
      'RequestEntityTooLarge',
      `limit: the answer is ${megabytes(bytes)} MB, more than the ${megabytes(MAX_ANSWER_BYTES)} MB a response of this API can carry; list in pages with limit and continue, as kubectl does`,
    ),
  );
}
