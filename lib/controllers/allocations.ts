import { CLUSTER_ALLOCATION } from '../api/kinds';
import type { ObjectStore, Write } from '../ports/object-store';
import { add, type ResourceList } from '../resources';

/** What outrank has placed on one cluster; every placement changes it in the same transaction. */
export interface ClusterAllocation {
  readonly apiVersion: typeof CLUSTER_ALLOCATION.apiVersion;
  readonly kind: 'ClusterAllocation';
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly spec: { readonly placed: ResourceList };
}

export function allocationRef(cluster: string) {
  return { group: 'scheduling.outrank.io', kind: 'ClusterAllocation', namespace: '', name: cluster };
}

export interface AllocationChange {
  readonly writes: Write[];
  /** What outrank will have placed on each cluster the writes touch, from the records as read now. */
  readonly placedAfter: ReadonlyMap<string, ResourceList>;
}

/**
 * Conditional writes moving each cluster's allocation by the given deltas; an allocation left with
 * nothing placed is removed (the cluster may be gone). Two schedulers placing on the same cluster at
 * once conflict here, so one of them re-reads and decides again.
 */
export async function allocationChange(store: ObjectStore, deltas: ReadonlyMap<string, ResourceList>): Promise<AllocationChange> {
  const writes: Write[] = [];
  const placedAfter = new Map<string, ResourceList>();
  const changed = [...deltas.entries()]
    .filter(([, delta]) => Object.values(delta).some((amount) => amount !== 0))
    .sort(([a], [b]) => a.localeCompare(b));
  // One read for all of them, however many clusters a preemption touches.
  const records = changed.length === 0 ? [] : await store.getMany<ClusterAllocation>(changed.map(([cluster]) => allocationRef(cluster)));
  for (const [index, [cluster, delta]] of changed.entries()) {
    const current = records[index];
    const placed = Object.fromEntries(
      Object.entries(add(current?.spec.placed ?? {}, delta)).filter(([, amount]) => amount !== 0),
    );
    placedAfter.set(cluster, placed);
    if (current && Object.keys(placed).length === 0) {
      writes.push({ op: 'delete', ref: allocationRef(cluster), expectedVersion: current.metadata.resourceVersion ?? '' });
      continue;
    }
    const object: ClusterAllocation = {
      apiVersion: CLUSTER_ALLOCATION.apiVersion,
      kind: 'ClusterAllocation',
      metadata: { name: cluster },
      spec: { placed },
    };
    writes.push({ op: 'put', object, expectedVersion: current?.metadata.resourceVersion ?? null });
  }
  return { writes, placedAfter };
}

export async function allocationWrites(store: ObjectStore, deltas: ReadonlyMap<string, ResourceList>): Promise<Write[]> {
  return (await allocationChange(store, deltas)).writes;
}

export function addDelta(deltas: Map<string, ResourceList>, cluster: string, delta: ResourceList): void {
  deltas.set(cluster, add(deltas.get(cluster) ?? {}, delta));
}
