/**
 * The dynamic divisions (available replicas, Aggregated) of a binding that may already be placed, as Karmada's
 * Steady assignment mode makes them (pkg/scheduler/core/assignment.go, assignByDynamicStrategy; division_algorithm.go,
 * dynamicScaleUp and dynamicScaleDown): the replicas it keeps (Karmada's scheduledClusters) stay where they are.
 *
 * - More replicas than kept (scale-up, and a first placement, which keeps none): only the added replicas are divided,
 *   by the room each cluster has for more (`capacities`), Aggregated filling the clusters already in use first; the
 *   result is added to what is kept.
 * - Fewer (scale-down): the kept replicas are the weights: each cluster keeps its proportional share (Aggregated: of
 *   the fewest clusters, largest first, that hold them), so no cluster gains a replica and no room is needed.
 * - As many: the kept replicas, unchanged.
 *
 * A fresh division (Karmada's Fresh mode) is the first placement of this: nothing kept, and room counted with the
 * binding's own placement freed; the caller decides which it makes.
 */
import { assertDivisionInput, assertUniqueNames, assertCount, byName, sumOf, type ClusterCapacity, type Division, type TargetCluster } from './division';
import { aggregatedDivision } from './aggregated';
import { availableReplicasDivision } from './dynamic-weight';
import type { TieOrder } from './tie-order';

const NONE_IN_USE: ReadonlySet<string> = new Set();

export type DynamicPreference = 'available-replicas' | 'aggregated';

export function assignDynamically(
  preference: DynamicPreference,
  replicas: number,
  capacities: readonly ClusterCapacity[],
  kept: readonly TargetCluster[],
  ties: TieOrder,
): Division {
  assertDivisionInput(replicas, capacities);
  assertUniqueNames(kept);
  for (const target of kept) assertCount(`kept replicas on cluster ${target.name}`, target.replicas);
  const assigned = sumOf(kept.map((target) => target.replicas));
  if (assigned > replicas) return scaleDown(preference, replicas, kept, ties);
  if (assigned < replicas) return scaleUp(preference, replicas - assigned, capacities, kept, ties);
  return { ok: true, targets: kept.filter((target) => target.replicas > 0).map(({ name, replicas: count }) => ({ name, replicas: count })).sort(byName) };
}

/** dynamicScaleDown: the kept replicas weigh each cluster; the division never exceeds a weight, so nothing grows. */
function scaleDown(preference: DynamicPreference, replicas: number, kept: readonly TargetCluster[], ties: TieOrder): Division {
  const weights = kept.map((target) => ({ name: target.name, availableReplicas: target.replicas }));
  return preference === 'aggregated' ? aggregatedDivision(replicas, weights, ties, NONE_IN_USE) : availableReplicasDivision(replicas, weights, ties);
}

/** dynamicScaleUp: the added replicas divided by the room for more, then merged with what is kept. */
function scaleUp(preference: DynamicPreference, added: number, capacities: readonly ClusterCapacity[], kept: readonly TargetCluster[], ties: TieOrder): Division {
  const inUse = new Set(kept.filter((target) => target.replicas > 0).map((target) => target.name));
  const division = preference === 'aggregated' ? aggregatedDivision(added, capacities, ties, inUse) : availableReplicasDivision(added, capacities, ties);
  if (!division.ok) return division;
  const merged = new Map(kept.filter((target) => target.replicas > 0).map((target) => [target.name, target.replicas]));
  for (const target of division.targets) merged.set(target.name, (merged.get(target.name) ?? 0) + target.replicas);
  return { ok: true, targets: [...merged].map(([name, count]) => ({ name, replicas: count })).sort(byName) };
}
