import type { ApiResponse } from './api-types';
import { jsonResponse } from './response';

/** The Kubernetes Status reasons this API answers with, and their HTTP codes. */
const CODES = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  MethodNotAllowed: 405,
  AlreadyExists: 409,
  Conflict: 409,
  Expired: 410,
  RequestEntityTooLarge: 413,
  UnsupportedMediaType: 415,
  Invalid: 422,
  TooManyRequests: 429,
  InternalError: 500,
  ServiceUnavailable: 503,
  Timeout: 504,
} as const;

export type StatusReason = keyof typeof CODES;

export interface StatusCause {
  readonly field: string;
  readonly message: string;
  readonly reason: 'FieldValueInvalid' | 'FieldManagerConflict';
}

export interface StatusDetails {
  readonly name?: string;
  readonly group?: string;
  readonly kind?: string;
  readonly causes?: readonly StatusCause[];
  /** How long a client should wait before trying again (also sent as the Retry-After header). */
  readonly retryAfterSeconds?: number;
}

/** meta/v1 Status: how Kubernetes reports a failure, and the success of a delete. */
export interface Status {
  readonly kind: 'Status';
  readonly apiVersion: 'v1';
  readonly metadata: Record<string, never>;
  readonly status: 'Success' | 'Failure';
  readonly message?: string;
  readonly reason?: StatusReason;
  readonly details?: StatusDetails;
  readonly code: number;
}

/** A request the API refuses; it is answered with a Failure Status and nothing is written. */
export class ApiError extends Error {
  constructor(
    readonly reason: StatusReason,
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function failureStatus(reason: StatusReason, message: string, details?: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code: CODES[reason] };
}

export function successStatus(details: StatusDetails): Status {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details, code: 200 };
}

export function statusResponse(status: Status): ApiResponse {
  const response = jsonResponse(status.code, status);
  const retryAfter = status.details?.retryAfterSeconds;
  return retryAfter === undefined ? response : { ...response, headers: { ...response.headers, 'retry-after': String(retryAfter) } };
}
