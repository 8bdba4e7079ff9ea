import type { ApiResponse } from './api-types';

/** Every response body is JSON, as Kubernetes clients expect unless they ask for protobuf. */
export function jsonResponse(statusCode: number, body: unknown): ApiResponse {
  return { statusCode, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
}
