import type { TargetCluster } from '../api/resource-binding';
import { availableReplicas, subtract, type ResourceList } from '../resources';
import type { AssignmentMode } from './assignment-mode';
import type { TieOrder } from './divide/tie-order';
import { isLostTarget } from './lost-target';
import { isDynamic, type DivisionBasis, type ReplicaStrategy } from './replica-strategy';
import { usageOn, type BindingState, type ClusterState, type SchedulingSnapshot } from './snapshot';

/** A division's starting point on a set of candidate clusters: what it keeps, and the room each cluster has beside that. */
export interface Assignment {
  readonly basis: DivisionBasis;
  /** The room for the replicas the division places on the cluster, the kept ones aside. */
  room(cluster: ClusterState): ResourceList;
}

/**
 * What a division of the binding on these candidate clusters starts from. Steady, for the dynamic
 * strategies: the replicas it runs on the candidates are kept (Karmada's buildScheduledClusters; those
 * on clusters no longer candidates are placed again with any added ones), and each cluster's room is
 * what is left beside them. A target is kept only where it still fits the cluster as it is now, at the
 * binding's current request (its own placement counted as free): a cluster that shrank, or a request
 * that grew, never has more declared on it than it holds, and the replicas that do not fit are placed
 * again like those of a cluster that left. Fresh, or for static weights and Duplicated: nothing kept,
 * and the binding's own placement counts as free room everywhere.
 */
export function assignmentOn(
  candidates: readonly ClusterState[],
  state: BindingState,
  strategy: ReplicaStrategy,
  mode: AssignmentMode,
  snapshot: SchedulingSnapshot,
  ties: TieOrder,
): Assignment {
  const freed = (cluster: ClusterState) => snapshot.free(cluster, state);
  if (mode === 'Fresh' || !isDynamic(strategy) || state.clusters.length === 0) return { basis: { kept: [], ties }, room: freed };
  const byName = new Map(candidates.map((cluster) => [cluster.name, cluster]));
  const kept: TargetCluster[] = state.clusters.filter((target) => {
    const cluster = byName.get(target.name);
    return (
      cluster !== undefined &&
      target.replicas > 0 &&
      !isLostTarget(state.binding, cluster.cluster) &&
      availableReplicas(freed(cluster), state.request) >= target.replicas
    );
  });
  const keptOn = new Map(kept.map((target) => [target.name, target.replicas]));
  return {
    basis: { kept, ties },
    room: (cluster) => {
      const replicas = keptOn.get(cluster.name);
      return replicas === undefined ? freed(cluster) : subtract(freed(cluster), usageOn(state, replicas));
    },
  };
}
