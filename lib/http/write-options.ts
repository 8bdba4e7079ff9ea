import { FIELD_VALIDATIONS, type FieldValidation } from '../api/decode';
import type { WriteOptions } from '../controllers/object-service';
import type { ApiRequest, ApiResponse } from './api-types';
import { ApiError } from './status';

function fieldValidationOf(value: string | undefined): FieldValidation | undefined {
  if (value === undefined || value === '') return undefined;
  if ((FIELD_VALIDATIONS as readonly string[]).includes(value)) return value as FieldValidation;
  throw new ApiError('BadRequest', `fieldValidation: invalid directive "${value}": must be one of ${FIELD_VALIDATIONS.join(', ')}`);
}

function dryRunOf(value: string | undefined): boolean {
  if (value === undefined) return false;
  if (value === 'All') return true;
  throw new ApiError('BadRequest', `dryRun: unsupported value "${value}": the only supported value is All`);
}

/**
 * The write options a request's query gives, as the Kubernetes API server reads them:
 * `fieldValidation=Strict|Warn|Ignore` and `dryRun=All`. Unlike kube-apiserver, whose default is Warn,
 * outrank refuses unknown fields unless told otherwise: a dropped field of a scheduling object (a
 * misspelt priority or request) would silently change who is placed and who is preempted.
 */
export function writeOptionsOf(request: ApiRequest): WriteOptions {
  const fieldValidation = fieldValidationOf(request.query.fieldValidation);
  return { ...(fieldValidation ? { fieldValidation } : {}), dryRun: dryRunOf(request.query.dryRun), fieldManager: fieldManagerOf(request) };
}

/** Printable, at most 128 characters, as kube-apiserver requires of a field manager. */
const FIELD_MANAGER = /^[\x21-\x7e][\x20-\x7e]{0,127}$/;

/**
 * Who writes, for managedFields: the fieldManager parameter, else (as kube-apiserver infers it) the
 * user agent up to its first "/" (kubectl/v1.32.4 … → kubectl), else "unknown".
 */
function fieldManagerOf(request: ApiRequest): string {
  const given = request.query.fieldManager;
  if (given !== undefined && given !== '') {
    if (!FIELD_MANAGER.test(given)) throw new ApiError('BadRequest', 'fieldManager: must be printable and at most 128 characters');
    return given;
  }
  const agent = request.headers['user-agent']?.split('/')[0]?.trim().slice(0, 128);
  return agent && FIELD_MANAGER.test(agent) ? agent : 'unknown';
}

/** Warnings as Kubernetes sends them (RFC 7234 warn-code 299), which kubectl prints as "Warning: …". */
export function withWarnings(response: ApiResponse, warnings: readonly string[]): ApiResponse {
  if (warnings.length === 0) return response;
  const warning = warnings.map((text) => `299 - ${JSON.stringify(text)}`).join(', ');
  return { ...response, headers: { ...response.headers, warning } };
}
