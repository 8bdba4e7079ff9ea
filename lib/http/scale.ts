import type { KubeObject } from '../api/decode';
import type { ObjectRef } from '../api/kinds';
import { applyMergePatch } from '../api/merge-patch';
import { isPlainObject } from '../api/plain-object';
import { placedClusters, type ResourceBinding } from '../api/resource-binding';
import type { WorkloadTemplate } from '../api/resource-template';
import { bindingRefFor } from '../controllers/binding-references';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { notFound } from './error-status';
import { patchOf } from './patch-body';
import { readObjectBody } from './request-body';
import { jsonResponse } from './response';
import type { ResourceRoute } from './routes';
import { ApiError } from './status';
import { authorizePatch } from './write-authorization';
import { withWarnings, writeOptionsOf } from './write-options';

/**
 * The scale subresource of workload templates (autoscaling/v1 Scale), as `kubectl scale` and
 * autoscalers use it. Scaling patches the template's spec.replicas through the same write path as any
 * patch; the binding follows, as after any template change.
 */

function templateRef(route: ResourceRoute): ObjectRef {
  return { group: route.resource.group, kind: route.resource.info.kind, namespace: route.namespace ?? '', name: route.name! };
}

function selectorText(template: WorkloadTemplate): string {
  const matchLabels = (template.spec as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
  return Object.entries(matchLabels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
}

/** spec: the replicas wanted; status: the replicas outrank placed on member clusters. */
async function scaleOf(template: WorkloadTemplate, ref: ObjectRef, deps: ApiDependencies): Promise<object> {
  const binding = await deps.store.get<ResourceBinding>(bindingRefFor(ref));
  const placed = binding ? placedClusters(binding).reduce((sum, cluster) => sum + cluster.replicas, 0) : 0;
  const { name, namespace, resourceVersion, uid, creationTimestamp } = template.metadata as WorkloadTemplate['metadata'] & { uid?: string; creationTimestamp?: string };
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: { name, namespace, resourceVersion, ...(uid ? { uid } : {}), ...(creationTimestamp ? { creationTimestamp } : {}) },
    spec: { replicas: template.spec.replicas ?? 1 },
    status: { replicas: placed, selector: selectorText(template) },
  };
}

async function stored(route: ResourceRoute, deps: ApiDependencies): Promise<WorkloadTemplate> {
  const template = await deps.store.get<KubeObject>(templateRef(route));
  if (!template) throw notFound(route.resource, route.name!);
  return template as WorkloadTemplate;
}

/** The Scale a PUT or PATCH asks for, from the current one (a Scale has no lists to merge by key). */
function requestedScale(request: ApiRequest, current: object): Record<string, unknown> {
  if (request.method.toUpperCase() === 'PUT') return readObjectBody(request, 'json');
  const patch = patchOf(request, false);
  return patch.apply(current, patch.body) as Record<string, unknown>;
}

function replicasOf(scale: Record<string, unknown>): number {
  const replicas = isPlainObject(scale.spec) ? scale.spec.replicas : undefined;
  if (typeof replicas !== 'number' || !Number.isSafeInteger(replicas) || replicas < 0 || replicas > 2_147_483_647) {
    throw new ApiError('Invalid', `spec.replicas: must be a non-negative 32-bit integer, not ${JSON.stringify(replicas)}`);
  }
  return replicas;
}

/** GET, PUT or PATCH …/<plural>/<name>/scale. */
export async function scaleResponse(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const method = request.method.toUpperCase();
  const ref = templateRef(route);
  const template = await stored(route, deps);
  if (method === 'GET') return jsonResponse(200, await scaleOf(template, ref, deps));
  if (method !== 'PUT' && method !== 'PATCH') throw new ApiError('MethodNotAllowed', `${route.resource.info.plural}/scale supports get, update and patch`);
  const options = writeOptionsOf(request);
  const requested = requestedScale(request, await scaleOf(template, ref, deps));
  const version = isPlainObject(requested.metadata) ? requested.metadata.resourceVersion : undefined;
  // A resourceVersion in the Scale is the template's: a precondition, as in Kubernetes.
  const patch = { spec: { replicas: replicasOf(requested) }, ...(typeof version === 'string' ? { metadata: { resourceVersion: version } } : {}) };
  await authorizePatch(deps, route, ref, patch);
  const { object, warnings } = await deps.objects.patch(ref, patch, applyMergePatch, options);
  return withWarnings(jsonResponse(200, await scaleOf(object as WorkloadTemplate, ref, deps)), warnings);
}
