import { CLUSTER_ALLOCATION } from '../api/kinds';
import { ConflictError, type AddWrite, type ObjectStore } from '../ports/object-store';
import type { ResourceBinding } from '../api/resource-binding';
import { add, scale, toResourceList, type ResourceList } from '../resources';

/** What outrank has placed on one cluster; every placement moves it by an add in the same transaction. */
export interface ClusterAllocation {
  readonly apiVersion: typeof CLUSTER_ALLOCATION.apiVersion;
  readonly kind: 'ClusterAllocation';
  readonly metadata: { readonly name: string; readonly creationTimestamp?: string; readonly resourceVersion?: string };
  readonly spec: { readonly placed: ResourceList };
}

const ALLOCATION_GROUP = 'scheduling.outrank.io';

/** The spec field an allocation's counters are. */
const PLACED_FIELD = 'placed';

export function allocationRef(cluster: string) {
  return { group: ALLOCATION_GROUP, kind: 'ClusterAllocation', namespace: '', name: cluster };
}

export interface AllocationAddOptions {
  /** When a record the adds create is created: its creationTimestamp. */
  readonly now: string;
  /**
   * Limits each resource a delta grows to the cluster's capacity (a placement: never over-commit; a
   * cluster it does not know has none). Without it nothing is limited (room given back, or a placed
   * binding's request changed where it stays).
   */
  readonly capacityOf?: (cluster: string) => ResourceList | undefined;
}

/**
 * The writes moving each cluster's allocation by the given deltas, as adds (no read first): placements
 * on one cluster at once conflict only when its room runs out, not whenever another moved its record.
 * A record left holding nothing stays until removeEmptyAllocations: an add cannot tell, and the next
 * may fill it again.
 */
export function allocationAdds(deltas: ReadonlyMap<string, ResourceList>, { now, capacityOf }: AllocationAddOptions): AddWrite[] {
  return changedClusters(deltas).map((cluster) => {
    const amounts = Object.fromEntries(Object.entries(deltas.get(cluster)!).filter(([, amount]) => amount !== 0));
    const capacity = capacityOf ? (capacityOf(cluster) ?? {}) : undefined;
    const limits = capacity
      ? Object.fromEntries(Object.entries(amounts).flatMap(([resource, amount]) => (amount > 0 ? [[resource, capacity[resource] ?? 0]] : [])))
      : {};
    const object = { apiVersion: CLUSTER_ALLOCATION.apiVersion, kind: 'ClusterAllocation', metadata: { name: cluster, creationTimestamp: now }, spec: {} };
    return { op: 'add', object, field: PLACED_FIELD, amounts, limits };
  });
}

/** The allocation records of these clusters as read now, in one read (undefined: a cluster has none). */
export async function allocationsOf(store: ObjectStore, clusters: readonly string[]): Promise<Map<string, ClusterAllocation | undefined>> {
  const records = clusters.length === 0 ? [] : await store.getMany<ClusterAllocation>(clusters.map(allocationRef));
  return new Map(clusters.map((cluster, index) => [cluster, records[index]]));
}

/**
 * Removes the records that hold nothing (their cluster's last binding moved off), each conditional on
 * the version read: one moved since may hold something again. An empty record is harmless (it counts
 * nothing); removing it keeps the records to the clusters that hold something, as a rule rather than a
 * guarantee: one emptied while a cycle's snapshot still saw bindings there stays until emptied again.
 */
export async function removeEmptyAllocations(store: ObjectStore, records: Iterable<ClusterAllocation | undefined>): Promise<void> {
  for (const record of records) {
    if (!record || Object.keys(record.spec.placed).length > 0) continue;
    try {
      await store.transact([{ op: 'delete', ref: allocationRef(record.metadata.name), expectedVersion: record.metadata.resourceVersion ?? '', last: record }]);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

/** The clusters whose allocation the deltas move, in name order (the order of the writes). */
function changedClusters(deltas: ReadonlyMap<string, ResourceList>): string[] {
  return [...deltas.entries()]
    .filter(([, delta]) => Object.values(delta).some((amount) => amount !== 0))
    .map(([cluster]) => cluster)
    .sort((a, b) => a.localeCompare(b));
}

export function addDelta(deltas: Map<string, ResourceList>, cluster: string, delta: ResourceList): void {
  deltas.set(cluster, add(deltas.get(cluster) ?? {}, delta));
}

/** Moves `deltas` by what the binding occupies on each cluster it is placed on (its request and a pod per replica), times `sign`. */
export function addPlacedUsage(deltas: Map<string, ResourceList>, binding: ResourceBinding, sign: 1 | -1): void {
  const request = { ...toResourceList(binding.spec.replicaRequirements?.resourceRequest), pods: 1 };
  for (const target of binding.spec.clusters ?? []) addDelta(deltas, target.name, scale(request, sign * target.replicas));
}
