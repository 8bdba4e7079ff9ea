import { StoreTimeoutError } from '../ports/object-store';
import { outOfTimeStatus } from './answer-within';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { errorStatus, type ErrorTarget } from './error-status';
import { getEvent, listEvents } from './event-handlers';
import { healthResponse } from './health';
import { SELF_SUBJECT_RULES_REVIEWS_PATH, selfSubjectRulesReview } from './self-rules-review';
import { createObject, deleteObject, getObject, listObjects, patchObject, replaceObject } from './object-handlers';
import { emptyOpenApiV2 } from './openapi';
import { checkBodySize } from './request-body';
import { jsonResponse } from './response';
import { QUEUE_STATUS_PATH, queueStatus } from './queue-status';
import { operationOf, routeOf, type Operation, type ResourceRoute, type Route } from './routes';
import { qualifiedResource, type ServedResource } from './served-resources';
import { ApiError, statusResponse } from './status';
import { consoleResponse } from './console-assets';
import { WHAT_IF_PATH, whatIfResponse } from './what-if-request';
import { scaleResponse } from './scale';
import { statusSubresourceResponse } from './status-subresource';
import { tableContext } from './table-context';
import { withTableOutput } from './table-output';
import { checkAuthenticated } from './write-authorization';
import { SELF_SUBJECT_ACCESS_REVIEWS_PATH, SELF_SUBJECT_REVIEWS_PATH, selfSubjectAccessReview, selfSubjectReview } from './self-reviews';

function pathNotFound(): ApiError {
  return new ApiError('NotFound', 'the server could not find the requested resource');
}

function methodNotAllowed(resource?: ServedResource): ApiError {
  const supported = resource ? ` (${qualifiedResource(resource)} supports ${resource.verbs.join(', ')})` : '';
  return new ApiError('MethodNotAllowed', `the server does not allow this method on the requested resource${supported}`);
}

function documentResponse(request: ApiRequest, route: Exclude<Route, ResourceRoute>): ApiResponse {
  if (request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
  if (route.type === 'openapi') return { statusCode: 200, headers: { 'content-type': 'application/json' }, body: route.body };
  if (route.type === 'openapi-v2') {
    const { contentType, body } = emptyOpenApiV2(request.headers.accept);
    return { statusCode: 200, headers: { 'content-type': contentType }, body };
  }
  return jsonResponse(200, route.body);
}

/** Refusals that depend on the query, not the body; like every routing check, before anything is written. */
function checkQuery(request: ApiRequest, operation: Operation): void {
  if (operation.verb === 'list' && (request.query.watch === 'true' || request.query.watch === '1')) {
    throw new ApiError('MethodNotAllowed', 'watch is served by the streaming endpoint (the local runtime, or the stack\'s watch function URL), not here: list instead');
  }
}

function objectResponse(route: ResourceRoute, operation: Operation, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  switch (operation.verb) {
    case 'list':
      return listObjects(route, request, deps);
    case 'create':
      return createObject(route, request, deps);
    case 'get':
      return getObject(route, operation.name, deps);
    case 'update':
      return replaceObject(route, operation.name, request, deps);
    case 'patch':
      return patchObject(route, operation.name, request, deps);
    case 'delete':
      return deleteObject(route, operation.name, request, deps);
  }
}

function eventResponse(route: ResourceRoute, operation: Operation, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  if (operation.verb === 'list') return listEvents(route, request, deps);
  if (operation.verb === 'get') return getEvent(route, operation.name, deps);
  throw methodNotAllowed(route.resource);
}

async function resourceResponse(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  if (route.subresource === 'scale') return scaleResponse(route, request, deps);
  if (route.subresource === 'status') return statusSubresourceResponse(route, request, deps);
  const operation = operationOf(request.method, route);
  if (!operation || !route.resource.verbs.includes(operation.verb)) throw methodNotAllowed(route.resource);
  checkQuery(request, operation);
  const response = await (route.resource.source === 'events' ? eventResponse(route, operation, request, deps) : objectResponse(route, operation, request, deps));
  if (operation.verb !== 'get' && operation.verb !== 'list') return response;
  return withTableOutput(request, route.resource, response, (objects) => tableContext(request, route.resource, objects, deps));
}

/**
 * Serves one request of the Kubernetes-style API: discovery, then get, list, create, replace, patch
 * and delete of outrank's kinds. Every failure is answered with a Status and writes nothing: all
 * checks of the request (authentication and, for writes, authorization first) come before
 * ObjectService, which validates before it writes. `signal`, aborted once the request has been answered
 * without this (answer-within.ts) or its client has gone, stops the work that can stop (a what-if).
 */
export async function handleApiRequest(request: ApiRequest, deps: ApiDependencies, signal?: AbortSignal): Promise<ApiResponse> {
  let target: ErrorTarget | undefined;
  try {
    // Health is public, as kube-apiserver's system:public-info-viewer makes it: it tells nothing.
    const health = healthResponse(request);
    if (health) return health;
    checkAuthenticated(deps);
    checkBodySize(request);
    if (request.path === QUEUE_STATUS_PATH && deps.queues) {
      if (request.method.toUpperCase() !== 'GET') throw methodNotAllowed();
      return await queueStatus(deps.queues, deps.config?.bands);
    }
    const page = consoleResponse(request, deps.console);
    if (page) return page;
    if (request.path === WHAT_IF_PATH) return await whatIfResponse(request, deps, signal);
    if (request.path === SELF_SUBJECT_ACCESS_REVIEWS_PATH) return await selfSubjectAccessReview(request, deps);
    if (request.path === SELF_SUBJECT_REVIEWS_PATH) return selfSubjectReview(request, deps);
    if (request.path === SELF_SUBJECT_RULES_REVIEWS_PATH) return selfSubjectRulesReview(request, deps);
    const route = await routeOf(request.path, () => deps.objects.customKinds());
    if (!route) throw pathNotFound();
    if (route.type !== 'resource') return documentResponse(request, route);
    target = { resource: route.resource, ...(route.name !== undefined ? { name: route.name } : {}) };
    return await resourceResponse(route, request, deps);
  } catch (error) {
    // Stopped because it was answered already (or its client went): nothing failed, and this answer goes nowhere.
    if (signal?.aborted && error === signal.reason) return statusResponse(outOfTimeStatus(request));
    if (error instanceof StoreTimeoutError) {
      deps.onStoreTimeout?.(error);
      return statusResponse(outOfTimeStatus(request));
    }
    const status = errorStatus(error, target);
    if (status.reason === 'InternalError') deps.onInternalError?.(error);
    return statusResponse(status);
  }
}
