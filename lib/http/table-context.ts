import { CLUSTER_ALLOCATION } from '../api/kinds';
import { apiGroupOf } from '../api/resource-template';
import type { ClusterAllocation } from '../controllers/allocations';
import type { TableContext } from '../format/columns';
import { systemClock } from '../ports/clock';
import type { ApiDependencies, ApiRequest } from './api-types';
import type { ServedResource } from './served-resources';
import { requestedTableVersion } from './table-output';

/**
 * What a Table of the resource shows beside its objects: the server's time, and for clusters what
 * outrank placed on each (one read of the ClusterAllocations, one per cluster, only when a Table of
 * clusters is asked for).
 */
export async function tableContext(request: ApiRequest, resource: ServedResource, deps: ApiDependencies): Promise<TableContext> {
  const now = (deps.clock ?? systemClock).now();
  if (resource.info.kind !== 'Cluster' || !requestedTableVersion(request.headers.accept)) return { now };
  const allocations = await deps.store.list<ClusterAllocation>(apiGroupOf(CLUSTER_ALLOCATION.apiVersion), CLUSTER_ALLOCATION.kind);
  return { now, placed: new Map(allocations.map((allocation) => [allocation.metadata.name, allocation.spec.placed])) };
}
