/**
 * Duplicated replica scheduling: every selected cluster runs the full replica count.
 *
 * Karmada's own Duplicated assignment (pkg/scheduler/core/assignment.go, assignByDuplicatedStrategy) ignores
 * available resources altogether (spreadconstraint/select_clusters.go, shouldIgnoreAvailableResource). Outrank is a
 * preempting scheduler and needs to know when a copy does not fit, so each cluster must have room for all of them.
 */
import { assertDivisionInput, byName, sumOf, type ClusterCapacity, type Division } from './division';

export function divideDuplicated(replicas: number, clusters: readonly ClusterCapacity[]): Division {
  assertDivisionInput(replicas, clusters);
  if (clusters.length === 0) {
    // Even a zero-replica binding (a non-workload) has nowhere to go; count it as one unit missing so that
    // shortfall stays >= 1.
    return { ok: false, reason: 'no candidate clusters', shortfall: Math.max(replicas, 1) };
  }

  const cramped = clusters.filter((cluster) => cluster.availableReplicas < replicas).sort(byName);
  if (cramped.length > 0) {
    const listed = cramped.map((cluster) => `${cluster.name} (${cluster.availableReplicas} available)`).join(', ');
    return {
      ok: false,
      reason: `clusters without room for all ${replicas} replicas: ${listed}`,
      shortfall: sumOf(cramped.map((cluster) => replicas - cluster.availableReplicas)),
    };
  }

  return { ok: true, targets: clusters.map((cluster) => ({ name: cluster.name, replicas })).sort(byName) };
}
