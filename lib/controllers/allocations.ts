import { CLUSTER_ALLOCATION } from '../api/kinds';
import type { Informer } from '../cache/informer';
import type { ObjectStore, Write } from '../ports/object-store';
import type { ControllerContext } from './context';
import { add, type ResourceList } from '../resources';

/** What outrank has placed on one cluster; every placement changes it in the same transaction. */
export interface ClusterAllocation {
  readonly apiVersion: typeof CLUSTER_ALLOCATION.apiVersion;
  readonly kind: 'ClusterAllocation';
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly spec: { readonly placed: ResourceList };
}

const ALLOCATION_GROUP = 'scheduling.outrank.io';

export function allocationRef(cluster: string) {
  return { group: ALLOCATION_GROUP, kind: 'ClusterAllocation', namespace: '', name: cluster };
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
  const clusters = changedClusters(deltas);
  // One read for all of them, however many clusters a preemption touches.
  const records = clusters.length === 0 ? [] : await store.getMany<ClusterAllocation>(clusters.map(allocationRef));
  const byCluster = new Map(clusters.map((cluster, index) => [cluster, records[index]]));
  return allocationChangeFrom((cluster) => byCluster.get(cluster), deltas);
}

/**
 * The same from records already in hand (an informer's): each write is conditional on the version
 * given, so a record that was not the latest makes the transaction conflict rather than lose a change.
 */
export function allocationChangeFrom(current: (cluster: string) => ClusterAllocation | undefined, deltas: ReadonlyMap<string, ResourceList>): AllocationChange {
  const writes: Write[] = [];
  const placedAfter = new Map<string, ResourceList>();
  for (const cluster of changedClusters(deltas)) {
    const delta = deltas.get(cluster)!;
    const record = current(cluster);
    const placed = Object.fromEntries(
      Object.entries(add(record?.spec.placed ?? {}, delta)).filter(([, amount]) => amount !== 0),
    );
    placedAfter.set(cluster, placed);
    if (record && Object.keys(placed).length === 0) {
      writes.push({ op: 'delete', ref: allocationRef(cluster), expectedVersion: record.metadata.resourceVersion ?? '', last: record });
      continue;
    }
    const object: ClusterAllocation = {
      apiVersion: CLUSTER_ALLOCATION.apiVersion,
      kind: 'ClusterAllocation',
      metadata: { name: cluster },
      spec: { placed },
    };
    writes.push({ op: 'put', object, expectedVersion: record?.metadata.resourceVersion ?? null });
  }
  return { writes, placedAfter };
}

/** The clusters whose allocation the deltas move, in name order (the order of the writes). */
function changedClusters(deltas: ReadonlyMap<string, ResourceList>): string[] {
  return [...deltas.entries()]
    .filter(([, delta]) => Object.values(delta).some((amount) => amount !== 0))
    .map(([cluster]) => cluster)
    .sort((a, b) => a.localeCompare(b));
}

/** The allocation records, kept by an informer like every other kind. */
export function allocationInformer(context: Pick<ControllerContext, 'informers'>): Informer<ClusterAllocation> {
  return context.informers.of<ClusterAllocation>(ALLOCATION_GROUP, 'ClusterAllocation');
}

export async function allocationWrites(store: ObjectStore, deltas: ReadonlyMap<string, ResourceList>): Promise<Write[]> {
  return (await allocationChange(store, deltas)).writes;
}

export function addDelta(deltas: Map<string, ResourceList>, cluster: string, delta: ResourceList): void {
  deltas.set(cluster, add(deltas.get(cluster) ?? {}, delta));
}
