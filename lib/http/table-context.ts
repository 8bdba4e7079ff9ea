import { allocationRef, type ClusterAllocation } from '../controllers/allocations';
import { bindingName } from '../api/binding-name';
import type { ResourceBinding } from '../api/resource-binding';
import { templateKey, type ListedObject, type TableContext } from '../format/columns';
import { systemClock } from '../ports/clock';
import type { ApiDependencies, ApiRequest } from './api-types';
import type { ServedResource } from './served-resources';
import { requestedTableVersion } from './table-output';

/** The bindings of the templates shown, by name (Karmada's `<name>-<kind>`), in one read: none is listed. */
async function bindingsOf(templates: readonly ListedObject[], kind: string, deps: ApiDependencies): Promise<ReadonlyMap<string, ResourceBinding>> {
  const refs = templates.map((t) => ({ group: 'work.karmada.io', kind: 'ResourceBinding', namespace: t.metadata.namespace ?? '', name: bindingName(t.metadata.name, kind) }));
  const bindings = await deps.store.getMany<ResourceBinding>(refs);
  return new Map(templates.flatMap((template, index) => (bindings[index] ? [[templateKey(template), bindings[index]] as const] : [])));
}

/**
 * What a Table of these objects shows beside them: the server's time; for clusters what outrank placed
 * on each — their ClusterAllocations — and for Deployments their bindings, each read in one request
 * (BatchGetItem) only when a Table is asked for, and only those of the objects shown.
 */
export async function tableContext(request: ApiRequest, resource: ServedResource, objects: readonly ListedObject[], deps: ApiDependencies): Promise<TableContext> {
  const now = (deps.clock ?? systemClock).now();
  if (objects.length === 0 || !requestedTableVersion(request.headers.accept)) return { now };
  if (resource.info.kind === 'Deployment' && resource.group === 'apps') return { now, bindings: await bindingsOf(objects, resource.info.kind, deps) };
  if (resource.info.kind !== 'Cluster') return { now };
  const allocations = await deps.store.getMany<ClusterAllocation>(objects.map((cluster) => allocationRef(cluster.metadata.name)));
  return { now, placed: new Map(allocations.flatMap((allocation) => (allocation ? [[allocation.metadata.name, allocation.spec.placed] as const] : []))) };
}
