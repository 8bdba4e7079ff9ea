/**
 * Divided replica scheduling by dynamic weight "AvailableReplicas" (Karmada's WeightPreference.DynamicWeight).
 *
 * As in Karmada (pkg/scheduler/core/division_algorithm.go, dynamicDivideReplicas → helper.SpreadReplicasByTargetClusters
 * → Dispenser.AllocateByWeight): fail when the clusters together cannot hold the replicas, otherwise apportion with
 * Webster, each cluster weighted by its available replicas. Webster never gives a cluster more seats than its weight
 * when the total does not exceed the sum of weights: a seat beyond v has priority v/(2v+1) < 1/2, while every
 * cluster's first v seats have priority above 1/2, so it would come after more than that sum of seats.
 */
import { assertDivisionInput, sumOf, type ClusterCapacity, type Division } from './division';
import type { TieOrder } from './tie-order';
import { websterApportion } from './webster';

export function divideByAvailableReplicas(replicas: number, clusters: readonly ClusterCapacity[], ties: TieOrder = 'name-ascending'): Division {
  assertDivisionInput(replicas, clusters);
  return availableReplicasDivision(replicas, clusters, ties);
}

/** divideByAvailableReplicas of input a caller has checked already (assertDivisionInput). */
export function availableReplicasDivision(replicas: number, clusters: readonly ClusterCapacity[], ties: TieOrder): Division {
  const available = sumOf(clusters.map((cluster) => cluster.availableReplicas));
  if (available < replicas) {
    return {
      ok: false,
      reason: `clusters have room for ${available} of ${replicas} replicas`,
      shortfall: replicas - available,
    };
  }
  const weights = clusters.map((cluster) => ({ name: cluster.name, weight: cluster.availableReplicas }));
  return { ok: true, targets: websterApportion(replicas, weights, ties) };
}
