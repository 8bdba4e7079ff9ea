import type { ObjectRef } from '../api/kinds';
import { applyMergePatch } from '../api/merge-patch';
import { isPlainObject } from '../api/plain-object';
import { applyStrategicMergePatch } from '../api/strategic-merge-patch';
import { ConflictError, type StoredObject } from '../ports/object-store';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { alreadyExists, notFound } from './error-status';
import { notOurToken } from './continue-token';
import { listResponse, listVersion, pageResponse, selectionOf } from './lists';
import { withUrlIdentity } from './object-identity';
import { patchOf } from './patch-body';
import { selectableFields } from './selectable-fields';
import { mediaTypeOf, readObjectBody, unsupportedMediaType, type BodySyntax, type JsonObject } from './request-body';
import { jsonResponse } from './response';
import type { ResourceRoute } from './routes';
import { ApiError, successStatus } from './status';
import { authorizeBody, authorizeDelete, authorizePatch } from './write-authorization';
import { withWarnings, writeOptionsOf } from './write-options';
import { duplicateFieldWarnings } from './duplicate-fields';
import { isBeingDeleted } from '../api/deletion';
import { protobufObjectBody, PROTOBUF } from './protobuf-body';

/**
 * Handlers for the kinds kept in the object store. Every write goes through ObjectService, after the
 * caller's access has been authorized (see write-authorization.ts).
 */

const OBJECT_SYNTAXES: ReadonlyMap<string, BodySyntax> = new Map([
  ['application/json', 'json'],
  ['application/yaml', 'yaml'],
]);

const APPLY_PATCH = 'application/apply-patch+yaml';

function refAt(route: ResourceRoute, name: string): ObjectRef {
  return { group: route.resource.group, kind: route.resource.info.kind, namespace: route.namespace ?? '', name };
}

/**
 * A whole object (create, replace) in JSON or YAML, or in protobuf as kubectl's typed clients send
 * built-in kinds (protobuf-objects.ts), with the identity its URL gives it.
 */
function readObject(request: ApiRequest, route: ResourceRoute): JsonObject {
  const mediaType = mediaTypeOf(request);
  if (mediaType === PROTOBUF && !route.resource.custom) return withUrlIdentity(protobufObjectBody(request), route);
  const syntax = OBJECT_SYNTAXES.get(mediaType);
  if (!syntax) throw unsupportedMediaType(mediaType, route.resource.custom ? [...OBJECT_SYNTAXES.keys()] : [...OBJECT_SYNTAXES.keys(), PROTOBUF]);
  return withUrlIdentity(readObjectBody(request, syntax), route);
}

export async function getObject(route: ResourceRoute, name: string, deps: ApiDependencies): Promise<ApiResponse> {
  const object = await deps.store.get(refAt(route, name));
  if (!object) throw notFound(route.resource, name);
  return jsonResponse(200, object);
}

export async function listObjects(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const selection = selectionOf<StoredObject>(request, selectableFields(route.resource), route.namespace);
  if (selection.page.position !== undefined) throw notOurToken();
  const [group, kind] = [route.resource.group, route.resource.info.kind];
  // Before the read: no change the list does not hold is older.
  const before = deps.store.currentVersion();
  if (selection.page.limit === undefined) {
    const items = await deps.store.list(group, kind, route.namespace);
    return listResponse(route.resource, items, selection, listVersion(items, deps.store, before));
  }
  // A list in more pages than one answers its start: its first page's newest item may be older than
  // objects on later pages, which a watch from it would all send again.
  return pageResponse(route.resource, (page) => deps.store.listPage(group, kind, page, route.namespace), selection, (read, complete) =>
    complete ? listVersion(read, deps.store, before) : before,
  );
}

/**
 * POST: validated first, as the API server does, then written only if the name is free (one
 * conditional write), else refused with AlreadyExists.
 */
export async function createObject(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const body = readObject(request, route);
  const options = writeOptionsOf(request);
  const duplicates = duplicateFieldWarnings(request, options);
  await authorizeBody(deps, route, 'create', body);
  const metadata = isPlainObject(body.metadata) ? body.metadata : {};
  if (metadata.resourceVersion !== undefined) {
    throw new ApiError('BadRequest', 'metadata.resourceVersion must not be set on objects to be created');
  }
  try {
    const { object: written, warnings } = await deps.objects.create(body, options);
    return withWarnings(jsonResponse(201, written), [...duplicates, ...warnings]);
  } catch (error) {
    // The name taken: the one given, or the last one generated from metadata.generateName.
    if (error instanceof ConflictError) throw alreadyExists(route.resource, error.refs[0]?.name ?? String(metadata.name ?? ''));
    throw error;
  }
}

/**
 * An update that names no resourceVersion replaces the version read here: should the object change
 * or vanish before the write, the write fails with a conflict instead of losing that change or
 * re-creating the object.
 */
function expectingVersion(body: JsonObject, existing: StoredObject): JsonObject {
  const { metadata } = body;
  if (!isPlainObject(metadata) || metadata.resourceVersion !== undefined) return body;
  return { ...body, metadata: { ...metadata, resourceVersion: existing.metadata.resourceVersion } };
}

/** PUT: replaces an existing object; metadata.resourceVersion, when given, must be the current one (else 409). */
export async function replaceObject(route: ResourceRoute, name: string, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const body = readObject(request, route);
  const options = writeOptionsOf(request);
  const duplicates = duplicateFieldWarnings(request, options);
  await authorizeBody(deps, route, 'update', body);
  const existing = await deps.store.get(refAt(route, name));
  if (!existing) throw notFound(route.resource, name);
  const { object, warnings } = await deps.objects.apply(expectingVersion(body, existing), options);
  return withWarnings(jsonResponse(200, object), [...duplicates, ...warnings]);
}

/** A JSON patch, merge patch or strategic merge patch, authorized on the object it makes, then written. */
async function patchWith(route: ResourceRoute, name: string, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const ref = refAt(route, name);
  const patch = patchOf(request, route.resource.mergesListsByKey, [APPLY_PATCH]);
  const options = writeOptionsOf(request);
  const duplicates = duplicateFieldWarnings(request, options);
  await authorizePatch(deps, route, ref, patch.body, patch.apply);
  const { object, warnings } = await deps.objects.patch(ref, patch.body, patch.apply, options);
  return withWarnings(jsonResponse(200, object), [...duplicates, ...warnings]);
}

/**
 * Server-side apply: the body is the configuration one field manager wants, merged into the object by
 * the structured-merge rules with field ownership kept in managedFields (lib/controllers/server-side-apply.ts);
 * a conflict with another manager's fields is a 409 unless force=true.
 */
async function serverSideApply(route: ResourceRoute, name: string, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const config = withUrlIdentity(readObjectBody(request, 'yaml'), route);
  if (!request.query.fieldManager) throw new ApiError('BadRequest', 'fieldManager: is required for apply requests');
  const options = { ...writeOptionsOf(request), fieldManager: request.query.fieldManager, force: request.query.force === 'true' };
  const merge = route.resource.mergesListsByKey ? applyStrategicMergePatch : applyMergePatch;
  const ref = refAt(route, name);
  const current = await deps.store.get(ref);
  await (current ? authorizePatch(deps, route, ref, config, merge) : authorizeBody(deps, route, 'patch', config));
  const { object, created, warnings } = await deps.objects.serverSideApply(ref, config, merge, options);
  return withWarnings(jsonResponse(created ? 201 : 200, object), warnings);
}

/** PATCH: JSON patch, JSON merge patch, strategic merge patch and server-side apply. */
export async function patchObject(route: ResourceRoute, name: string, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  return mediaTypeOf(request) === APPLY_PATCH ? serverSideApply(route, name, request, deps) : patchWith(route, name, request, deps);
}

/**
 * DELETE: answered with a Success Status once the object is gone, or with the object itself while its
 * finalizers hold it (marked with its deletionTimestamp), as kube-apiserver answers. The DeleteOptions
 * kubectl sends (propagationPolicy) do not apply: what the object owns goes with it.
 */
export async function deleteObject(route: ResourceRoute, name: string, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const ref = refAt(route, name);
  const { dryRun } = writeOptionsOf(request);
  await authorizeDelete(deps, route, ref);
  const deleted = await deps.objects.delete(ref, { dryRun });
  if (isBeingDeleted(deleted)) return jsonResponse(200, deleted);
  return jsonResponse(200, successStatus({ name, group: route.resource.group, kind: route.resource.info.plural }));
}
