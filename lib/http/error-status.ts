import { InvalidObjectError } from '../api/invalid-object-error';
import { JsonPatchError } from '../api/json-patch';
import { ApplyConflictError } from '../controllers/server-side-apply';
import { StrategicMergePatchError } from '../api/strategic-merge-patch';
import { NoRoomError } from '../api/no-room-error';
import { NotFoundError } from '../api/not-found-error';
import { ConflictError, UnavailableError } from '../ports/object-store';
import { qualifiedResource, type ServedResource } from './served-resources';
import { ApiError, failureStatus, type Status } from './status';

/** The resource (and object, when the URL names one) a request was about, for the wording of errors. */
export interface ErrorTarget {
  readonly resource: ServedResource;
  readonly name?: string;
}

/**
 * As the Kubernetes API server words them: NotFound, AlreadyExists and Conflict name the resource
 * (details.kind is the plural, "deployments"), Invalid names the kind.
 */
function resourceDetails(resource: ServedResource, name: string) {
  return { name, group: resource.group, kind: resource.info.plural };
}

export function notFound(resource: ServedResource, name: string): ApiError {
  return new ApiError('NotFound', `${qualifiedResource(resource)} "${name}" not found`, resourceDetails(resource, name));
}

export function alreadyExists(resource: ServedResource, name: string): ApiError {
  return new ApiError('AlreadyExists', `${qualifiedResource(resource)} "${name}" already exists`, resourceDetails(resource, name));
}

/** As Kubernetes answers a request its authorizer denies; the message says who, what and which rule. */
export function forbidden(resource: ServedResource, name: string, message: string): ApiError {
  return new ApiError('Forbidden', message, resourceDetails(resource, name));
}

function conflict(resource: ServedResource, name: string): ApiError {
  return new ApiError(
    'Conflict',
    `Operation cannot be fulfilled on ${qualifiedResource(resource)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    resourceDetails(resource, name),
  );
}

function invalidStatus(error: InvalidObjectError, target: ErrorTarget | undefined): Status {
  const reason = error.code === 400 ? 'BadRequest' : error.code === 413 ? 'RequestEntityTooLarge' : 'Invalid';
  return failureStatus(reason, error.message, {
    name: error.objectName,
    group: target?.resource.group ?? '',
    kind: error.kind,
    causes: error.causes.map((cause) => ({ field: cause.field, message: cause.message, reason: 'FieldValueInvalid' })),
  });
}

/** A domain error in Kubernetes words; the URL's name when it has one, else the name the error carries. */
function domainError(error: NotFoundError | ConflictError, target: ErrorTarget | undefined): ApiError {
  if (!target) return new ApiError(error instanceof NotFoundError ? 'NotFound' : 'Conflict', error.message);
  if (error instanceof NotFoundError) return notFound(target.resource, target.name ?? error.objectName);
  return conflict(target.resource, target.name ?? error.refs[0]?.name ?? '');
}

/**
 * The Status answering a failed request. Errors outrank does not expect become a generic 500: their
 * messages may carry internals (stack traces, table names) that are not the client's business.
 */
export function errorStatus(error: unknown, target: ErrorTarget | undefined): Status {
  if (error instanceof NotFoundError || error instanceof ConflictError) return errorStatus(domainError(error, target), target);
  if (error instanceof ApiError) return failureStatus(error.reason, error.message, error.details);
  if (error instanceof InvalidObjectError) return invalidStatus(error, target);
  if (error instanceof NoRoomError) {
    const name = target?.name ?? error.objectName;
    const what = target ? `${qualifiedResource(target.resource)} "${name}"` : `${error.kind} "${name}"`;
    return errorStatus(new ApiError('Forbidden', `${what} is forbidden: ${error.message}`, target ? resourceDetails(target.resource, name) : undefined), target);
  }
  if (error instanceof StrategicMergePatchError) return failureStatus('BadRequest', error.message);
  // As kube-apiserver answers a JSON patch it cannot apply (a failed test among them).
  if (error instanceof JsonPatchError) return failureStatus('Invalid', error.message);
  // As kube-apiserver words an apply conflict; kubectl lists the causes and suggests --force-conflicts.
  if (error instanceof ApplyConflictError) {
    return failureStatus('Conflict', error.message, {
      ...(target ? resourceDetails(target.resource, target.name ?? '') : {}),
      causes: error.conflicts.map((conflict) => ({ reason: 'FieldManagerConflict', message: `conflict with "${conflict.manager}" using ${conflict.apiVersion}`, field: conflict.field })),
    });
  }
  // Throttled, nothing written: the client waits and tries again, as client-go does on 503 with Retry-After.
  if (error instanceof UnavailableError) return failureStatus('ServiceUnavailable', 'the server is busy: try again in a second', { retryAfterSeconds: 1 });
  return failureStatus('InternalError', 'an internal error occurred');
}
