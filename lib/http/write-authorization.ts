import { decodeObjectWith, type KubeObject } from '../api/decode';
import { kindInfo, refOf, type ObjectRef } from '../api/kinds';
import { applyMergePatch } from '../api/merge-patch';
import type { WriteVerb } from '../auth/write-request';
import type { ApiDependencies } from './api-types';
import { forbidden, notFound } from './error-status';
import type { JsonObject } from './request-body';
import type { ResourceRoute } from './routes';
import { ApiError } from './status';

/**
 * The checks of the tenancy model, made before ObjectService writes anything. Without
 * `deps.access` (no tenancy configured) each does nothing and reads nothing, so the API behaves and
 * costs as it did before tenancy existed.
 */

function unauthorized(): ApiError {
  return new ApiError('Unauthorized', 'Unauthorized: the request carries no caller identity (the API authenticates callers with IAM: sign requests with SigV4)');
}

/** With tenancy configured, a request that carries no identity is refused before anything else. */
export function checkAuthenticated(deps: ApiDependencies): void {
  if (deps.access && deps.access.identity === undefined) throw unauthorized();
}

/**
 * The object a write is authorized on. Its unknown fields do not change who may write it; whether
 * they are refused is for ObjectService to decide, by the request's field validation.
 */
async function decodeForAuthorization(deps: ApiDependencies, raw: unknown): Promise<KubeObject> {
  return decodeObjectWith(raw, 'Ignore', await deps.objects.customKindsFor(raw)).object;
}

/** Refuses with 403 Forbidden a write of `object` the caller may not make. */
export async function authorizeWrite(deps: ApiDependencies, route: ResourceRoute, verb: WriteVerb, object: KubeObject): Promise<void> {
  const { access } = deps;
  if (!access) return;
  if (access.identity === undefined) throw unauthorized();
  const decision = await access.authorizer.decide(access.identity, { verb, resource: route.resource.info.plural, object });
  if (!decision.allowed) throw forbidden(route.resource, object.metadata.name, decision.message);
}

/** A create, replace or server-side apply: the body decoded (as ObjectService will decode it) and authorized. */
export async function authorizeBody(deps: ApiDependencies, route: ResourceRoute, verb: WriteVerb, body: JsonObject): Promise<void> {
  if (deps.access) await authorizeWrite(deps, route, verb, await decodeForAuthorization(deps, body));
}

async function existing(deps: ApiDependencies, route: ResourceRoute, ref: ObjectRef): Promise<KubeObject> {
  const object = await deps.store.get<KubeObject>(ref);
  if (!object) throw notFound(route.resource, ref.name);
  return object;
}

/**
 * A merge or strategic merge patch, authorized against the object it would produce, computed as
 * ObjectService computes it. ObjectService may apply the patch to a newer version; only admins, the
 * tenants of the object's namespace (whose writes passed these same checks) and the controllers
 * (which name no PriorityClass) write one, so the namespace and classes authorized here still hold.
 */
export async function authorizePatch(
  deps: ApiDependencies,
  route: ResourceRoute,
  ref: ObjectRef,
  patch: unknown,
  applyPatch: (target: unknown, patch: unknown) => unknown = applyMergePatch,
): Promise<void> {
  const { access } = deps;
  if (!access) return;
  const current = await existing(deps, route, ref);
  // Where the object is now, then everything about what the patch makes of it.
  if (access.identity === undefined) throw unauthorized();
  const scoped = access.authorizer.decideScope(access.identity, { verb: 'patch', resource: route.resource.info.plural, object: current });
  if (!scoped.allowed) throw forbidden(route.resource, current.metadata.name, scoped.message);
  const patched = applyPatch(current, patch) as JsonObject;
  await authorizeWrite(deps, route, 'patch', await decodeForAuthorization(deps, { ...patched, apiVersion: current.apiVersion, kind: current.kind }));
}

/** A delete, authorized against the object as it is stored. */
export async function authorizeDelete(deps: ApiDependencies, route: ResourceRoute, ref: ObjectRef): Promise<void> {
  if (deps.access) await authorizeWrite(deps, route, 'delete', await existing(deps, route, ref));
}

/**
 * Why the caller could not write `raw` for real, in the words of the 403 its write would get, or
 * undefined when it could: judged as `kubectl apply` would write it, a create, or a patch of the object
 * stored under its name. A what-if asks this of each manifest it tries.
 */
export async function refusalOfApply(deps: ApiDependencies, raw: unknown): Promise<string | undefined> {
  const { access } = deps;
  if (!access) return undefined;
  if (access.identity === undefined) throw unauthorized();
  const object = await decodeForAuthorization(deps, raw);
  const stored = await deps.store.get(refOf(object));
  const resource = kindInfo(object.apiVersion, object.kind)?.plural ?? object.kind.toLowerCase();
  const decision = await access.authorizer.decide(access.identity, { verb: stored ? 'patch' : 'create', resource, object });
  return decision.allowed ? undefined : decision.message;
}
