import type { Placement, StaticClusterWeight } from '../api/propagation-policy';
import type { Cluster } from '../api/cluster';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { matchesClusterAffinity } from './cluster-filter';
import type { ClusterCapacity, Division } from './divide/division';
import { divideDuplicated } from './divide/duplicated';
import { assignDynamically } from './divide/dynamic-assignment';
import { divideByStaticWeight } from './divide/static-weight';
import type { TieOrder } from './divide/tie-order';

/**
 * How a placement spreads replicas (Karmada's replicaScheduling): with no replicaScheduling the
 * binding is Duplicated; a replicaScheduling without replicaSchedulingType is Divided (Karmada's CRD
 * default); Divided defaults to Weighted, and Weighted without a preference weighs every cluster equally.
 */
export type ReplicaStrategy =
  | { readonly type: 'duplicated' }
  | { readonly type: 'static-weight'; readonly weights: readonly StaticClusterWeight[] }
  | { readonly type: 'available-replicas' }
  | { readonly type: 'aggregated' };

export function replicaStrategy(placement: Placement | undefined): ReplicaStrategy {
  const scheduling = placement?.replicaScheduling;
  if (!scheduling || scheduling.replicaSchedulingType === 'Duplicated') return { type: 'duplicated' };
  if (scheduling.replicaDivisionPreference === 'Aggregated') return { type: 'aggregated' };
  if (scheduling.weightPreference?.dynamicWeight === 'AvailableReplicas') return { type: 'available-replicas' };
  return { type: 'static-weight', weights: scheduling.weightPreference?.staticWeightList ?? [] };
}

/**
 * A binding of a template without replicas (a Service, ConfigMap, Role, custom resource …): no
 * spec.replicas and no request, as Karmada's detector makes it for a kind without a replica
 * interpreter. Karmada's scheduler propagates it to every cluster it selects, whatever the replica
 * scheduling ("For non-workloads … propagate to all candidate clusters": pkg/scheduler/core/common.go,
 * AssignReplicas), its targets without replicas; it needs no room, so it never preempts and is never a
 * victim.
 */
export function isPlainBinding(binding: Pick<ResourceBinding, 'spec'>): boolean {
  return binding.spec.replicas === undefined && binding.spec.replicaRequirements === undefined;
}

/** How the binding's replicas are spread: its placement's replicaScheduling, or every selected cluster for a plain binding. */
export function bindingStrategy(binding: Pick<ResourceBinding, 'spec'>): ReplicaStrategy {
  return isPlainBinding(binding) ? { type: 'duplicated' } : replicaStrategy(binding.spec.placement);
}

/**
 * A binding with nothing to place: Divided, of 0 replicas. Every division keeps no cluster given none,
 * as Karmada drops them after assigning a workload that requests resources (pkg/scheduler/core/common.go,
 * assignReplicasToClusters, removeZeroReplicasCluster): it is scheduled onto no cluster. A Duplicated one
 * lists every cluster with 0, as Karmada does for a workload that requests none (common.go, AssignReplicas).
 */
export function hasNothingToPlace(binding: Pick<ResourceBinding, 'spec'>): boolean {
  return (binding.spec.replicas ?? 0) === 0 && bindingStrategy(binding).type !== 'duplicated';
}

/** The weight of a cluster under a static weight list: the largest weight whose target matches it. */
export function staticWeightOf(weights: readonly StaticClusterWeight[], cluster: Cluster): number {
  let weight = 0;
  for (const entry of weights) {
    if (matchesClusterAffinity(entry.targetCluster, cluster)) weight = Math.max(weight, entry.weight);
  }
  return weight;
}

/** The dynamic strategies (available replicas, Aggregated): those that keep replicas in place when dividing again (DivisionBasis). */
export function isDynamic(strategy: ReplicaStrategy): strategy is { readonly type: 'available-replicas' | 'aggregated' } {
  return strategy.type === 'available-replicas' || strategy.type === 'aggregated';
}

/**
 * What a division starts from: the replicas it keeps where they are, and how Webster breaks ties (tie-order.ts).
 * Only the dynamic strategies keep replicas (Karmada's Steady mode, dynamic-assignment.ts); static weights and
 * Duplicated place every replica afresh, as Karmada's assignByStaticWeightStrategy and assignByDuplicatedStrategy do.
 */
export interface DivisionBasis {
  /** Karmada's scheduledClusters; `capacities` are then the room for more replicas beside them. Empty: a fresh division. */
  readonly kept: readonly TargetCluster[];
  readonly ties: TieOrder;
}

/** Clusters by name, as a map answers: static weights match the clusters they divide among. */
export type ClusterLookup = Pick<ReadonlyMap<string, Cluster>, 'get'>;

export function divide(
  strategy: ReplicaStrategy,
  replicas: number,
  capacities: readonly ClusterCapacity[],
  clustersByName: ClusterLookup,
  basis: DivisionBasis,
): Division {
  switch (strategy.type) {
    case 'duplicated':
      return divideDuplicated(replicas, capacities);
    case 'static-weight':
      return divideByStaticWeight(
        replicas,
        capacities,
        (name) => {
          const cluster = clustersByName.get(name);
          return cluster ? staticWeightOf(strategy.weights, cluster) : 0;
        },
        basis.ties,
      );
    case 'available-replicas':
    case 'aggregated':
      return assignDynamically(strategy.type, replicas, capacities, basis.kept, basis.ties);
  }
}

/**
 * What the binding needs for a placement to exist. Duplicated and static weights fix each cluster's
 * share up front (independent of room); the dynamic strategies only need enough room in total for the
 * replicas they add to those kept. Under spread constraints (spread/spread-selection.ts) some selection
 * meeting them must hold the binding: `holds` is asked with the replicas each of the clusters given to
 * preemption can take, in their order, and never fails for more room; it implies the pooled requirement
 * of `replicas`, which bounds the search.
 */
export type Requirement =
  | { readonly type: 'per-cluster'; readonly need: ReadonlyMap<string, number> }
  | { readonly type: 'pooled'; readonly replicas: number }
  | { readonly type: 'spread'; readonly replicas: number; holds(available: ArrayLike<number>): boolean };

export function requirementOf(
  strategy: ReplicaStrategy,
  replicas: number,
  clusterNames: readonly string[],
  clustersByName: ClusterLookup,
  basis: DivisionBasis,
): Requirement {
  if (isDynamic(strategy)) {
    const kept = basis.kept.reduce((sum, target) => sum + target.replicas, 0);
    return { type: 'pooled', replicas: Math.max(0, replicas - kept) };
  }
  const unlimited = clusterNames.map((name) => ({ name, availableReplicas: Number.MAX_SAFE_INTEGER }));
  const division = divide(strategy, replicas, unlimited, clustersByName, basis);
  const need = new Map<string, number>();
  if (division.ok) for (const target of division.targets) need.set(target.name, target.replicas);
  return { type: 'per-cluster', need };
}
