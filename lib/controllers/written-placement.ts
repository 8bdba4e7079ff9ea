import { clusterRef, type Cluster } from '../api/cluster';
import { InvalidObjectError } from '../api/invalid-object-error';
import { NoRoomError } from '../api/no-room-error';
import type { ResourceBinding } from '../api/resource-binding';
import type { Write } from '../ports/object-store';
import type { ResourceList } from '../resources';
import { capacityOf } from '../scheduler/snapshot';
import { addPlacedUsage, allocationAdds, allocationsOf } from './allocations';
import type { ControllerContext } from './context';

/** How a placement written over another moves the allocations, and the writes that move them. */
export interface PlacementMove {
  readonly writes: readonly Write[];
  /** The clusters it gives room back on. */
  readonly freed: readonly string[];
}

/**
 * A binding's placement written through the API (by its scheduler, when that is not outrank:
 * binding-update.ts): the allocation records move in the same transaction, as outrank's own commits
 * move them, so that they stay the sum of every placed binding whoever placed it. Each cluster it grows
 * on must exist (else 422 naming the target) and have the room (else NoRoomError, a 403, as a quota
 * refuses), checked on the records as read now and made certain by the adds' capacity conditions: a
 * placement made beside it that takes the room makes the write conflict, so that no placement, outrank's
 * or another scheduler's, over-commits a cluster.
 */
export async function placementMove(context: ControllerContext, previous: ResourceBinding, next: ResourceBinding, now: string): Promise<PlacementMove> {
  const deltas = new Map<string, ResourceList>();
  addPlacedUsage(deltas, previous, -1);
  addPlacedUsage(deltas, next, +1);
  const moved = [...deltas].filter(([, delta]) => Object.values(delta).some((amount) => amount !== 0));
  if (moved.length === 0) return { writes: [], freed: [] };
  const growing = moved.filter(([, delta]) => Object.values(delta).some((amount) => amount > 0)).map(([name]) => name);
  const capacities = await capacitiesFor(context, next, growing);
  const records = await allocationsOf(context.store, growing);
  for (const name of growing) {
    const delta = deltas.get(name)!;
    const placed = records.get(name)?.spec.placed ?? {};
    const capacity = capacities.get(name)!;
    const grown = Object.entries(delta).filter(([, amount]) => amount > 0);
    if (grown.some(([resource, amount]) => (placed[resource] ?? 0) + amount > (capacity[resource] ?? 0))) {
      const requested = Object.fromEntries(grown);
      throw new NoRoomError(next.kind, next.metadata.name, name, requested, placed, capacity);
    }
  }
  return {
    writes: allocationAdds(new Map(moved), { now, capacityOf: (cluster) => capacities.get(cluster) }),
    freed: moved.filter(([, delta]) => Object.values(delta).some((amount) => amount < 0)).map(([name]) => name),
  };
}

/** The capacity of each cluster the placement grows on, read now; one that does not exist is refused. */
async function capacitiesFor(context: ControllerContext, binding: ResourceBinding, names: readonly string[]): Promise<Map<string, ResourceList>> {
  const clusters = names.length === 0 ? [] : await context.store.getMany<Cluster>(names.map(clusterRef));
  const missing = names.filter((_, index) => clusters[index] === undefined);
  if (missing.length > 0) {
    const targets = binding.spec.clusters ?? [];
    throw new InvalidObjectError(
      binding.kind,
      binding.metadata.name,
      missing.map((name) => ({ field: `spec.clusters[${targets.findIndex((target) => target.name === name)}].name`, message: `cluster "${name}" does not exist` })),
    );
  }
  return new Map(names.map((name, index) => [name, capacityOf(clusters[index]!)]));
}
