import { allocationRef, type ClusterAllocation } from '../controllers/allocations';
import type { ListedObject, TableContext } from '../format/columns';
import { systemClock } from '../ports/clock';
import type { ApiDependencies, ApiRequest } from './api-types';
import type { ServedResource } from './served-resources';
import { requestedTableVersion } from './table-output';

/**
 * What a Table of these objects shows beside them: the server's time, and for clusters what outrank
 * placed on each — their ClusterAllocations, read in one request (BatchGetItem) only when a Table of
 * clusters is asked for, and only those of the clusters shown.
 */
export async function tableContext(request: ApiRequest, resource: ServedResource, objects: readonly ListedObject[], deps: ApiDependencies): Promise<TableContext> {
  const now = (deps.clock ?? systemClock).now();
  if (resource.info.kind !== 'Cluster' || objects.length === 0 || !requestedTableVersion(request.headers.accept)) return { now };
  const allocations = await deps.store.getMany<ClusterAllocation>(objects.map((cluster) => allocationRef(cluster.metadata.name)));
  return { now, placed: new Map(allocations.flatMap((allocation) => (allocation ? [[allocation.metadata.name, allocation.spec.placed] as const] : []))) };
}
