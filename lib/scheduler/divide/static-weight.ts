/**
 * Divided replica scheduling by static weights (Karmada's WeightPreference.StaticWeightList).
 *
 * As in Karmada (pkg/scheduler/core/division_algorithm.go, getStaticWeightInfoList; assignment.go,
 * assignByStaticWeightStrategy): clusters without a positive weight are left out, and when no cluster has one,
 * every candidate weighs 1. Seats are apportioned with Webster. Karmada then writes the result regardless of
 * capacity; static weights are a fixed intent, so rather than shifting replicas elsewhere we fail when a cluster
 * cannot hold its share.
 */
import { assertDivisionInput, assertWeight, sumOf, type ClusterCapacity, type Division } from './division';
import type { TieOrder } from './tie-order';
import { websterApportion, type ApportionWeight } from './webster';

export function divideByStaticWeight(
  replicas: number,
  clusters: readonly ClusterCapacity[],
  weightOf: (clusterName: string) => number,
  ties: TieOrder = 'name-ascending',
): Division {
  assertDivisionInput(replicas, clusters);
  if (replicas > 0 && clusters.length === 0) {
    return { ok: false, reason: 'no candidate clusters', shortfall: replicas };
  }

  const targets = websterApportion(replicas, staticWeights(clusters, weightOf), ties);
  const available = new Map(clusters.map((cluster) => [cluster.name, cluster.availableReplicas]));
  const overfull = targets
    .map((target) => ({ ...target, available: available.get(target.name) ?? 0 }))
    .filter((target) => target.replicas > target.available);
  if (overfull.length > 0) {
    const listed = overfull.map((t) => `${t.name} (weighted share ${t.replicas}, ${t.available} available)`).join(', ');
    return {
      ok: false,
      reason: `clusters cannot hold their static-weight share: ${listed}`,
      shortfall: sumOf(overfull.map((target) => target.replicas - target.available)),
    };
  }
  return { ok: true, targets };
}

function staticWeights(
  clusters: readonly ClusterCapacity[],
  weightOf: (clusterName: string) => number,
): ApportionWeight[] {
  const weights = clusters.map((cluster) => ({ name: cluster.name, weight: weightOf(cluster.name) }));
  for (const { name, weight } of weights) assertWeight(name, weight);
  // Webster already gives nothing to non-positive weights; only the all-unweighted fallback needs handling here.
  if (weights.some((entry) => entry.weight > 0)) return weights;
  return clusters.map((cluster) => ({ name: cluster.name, weight: 1 }));
}
