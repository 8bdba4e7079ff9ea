import type { ObjectRef } from '../api/kinds';
import { BINDING_GROUP } from '../api/resource-binding';
import { isPlainObject } from '../api/plain-object';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { notFound } from './error-status';
import { patchOf, type PatchFunction } from './patch-body';
import { readObjectBody } from './request-body';
import { jsonResponse } from './response';
import type { ResourceRoute } from './routes';
import { ApiError } from './status';
import { authorizePatch } from './write-authorization';
import { withWarnings, writeOptionsOf } from './write-options';

/**
 * The status subresource (…/<name>/status), as Kubernetes serves it: GET answers the object; PUT and
 * PATCH change its status alone, whatever else the body says — what a member cluster's status agent
 * writes. A binding's status is its scheduler's: outrank's own are read-only there, and another
 * scheduler patches the status of its bindings as Karmada's does (binding-update.ts). Writes to the object itself
 * keep the status they carry: outrank has no status agents of its own, and clusters report their
 * capacity by the Cluster objects applied.
 */

/** A patch of the status alone: the result's status on the object as it is. */
function statusOnly(patch: PatchFunction): PatchFunction {
  return (target, body) => {
    const patched = patch(target, body);
    const status = isPlainObject(patched) ? patched.status : undefined;
    const { status: _current, ...rest } = target as Record<string, unknown>;
    return status === undefined ? rest : { ...rest, status };
  };
}

/** PUT replaces the status with the body's, on the version the body names (else the version read). */
function replacement(body: Record<string, unknown>): PatchFunction {
  return (target) => {
    const { status: _current, ...rest } = target as Record<string, unknown>;
    const version = isPlainObject(body.metadata) ? body.metadata.resourceVersion : undefined;
    const withStatus = body.status === undefined ? rest : { ...rest, status: body.status };
    return version === undefined ? withStatus : { ...withStatus, metadata: { ...(rest.metadata as object), resourceVersion: version } };
  };
}

/** The write a PUT or PATCH of the status makes: the status alone, whatever else its body says. */
function statusPatchOf(request: ApiRequest, route: ResourceRoute): { patch: PatchFunction; body: unknown } {
  if (request.method.toUpperCase() === 'PUT') {
    const body = readObjectBody(request, 'json');
    return { patch: replacement(body), body };
  }
  const { apply, body } = patchOf(request, route.resource.mergesListsByKey);
  return { patch: statusOnly(apply), body };
}

/** GET, PUT or PATCH …/<plural>/<name>/status. */
export async function statusSubresourceResponse(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const ref: ObjectRef = { group: route.resource.group, kind: route.resource.info.kind, namespace: route.namespace ?? '', name: route.name! };
  const method = request.method.toUpperCase();
  if (method === 'GET') {
    const object = await deps.store.get(ref);
    if (!object) throw notFound(route.resource, ref.name);
    return jsonResponse(200, object);
  }
  const writable = route.resource.verbs.includes('update');
  const binding = route.resource.group === BINDING_GROUP;
  if ((method !== 'PUT' && method !== 'PATCH') || (!writable && !(binding && method === 'PATCH'))) {
    const supported = writable ? 'get, update and patch' : binding ? "get, and patch by the binding's scheduler" : 'get: the scheduler writes it';
    throw new ApiError('MethodNotAllowed', `${route.resource.info.plural}/status supports ${supported}`);
  }
  const options = writeOptionsOf(request);
  const { patch, body } = statusPatchOf(request, route);
  await authorizePatch(deps, route, ref, body, patch);
  const { object, warnings } = await deps.objects.patch(ref, body, patch, options);
  return withWarnings(jsonResponse(200, object), warnings);
}
