/**
 * The select step of scheduling (filter → select → divide replicas) for a placement with spread
 * constraints: which of the feasible clusters the replicas are divided among, and what preemption must
 * achieve for the binding to be placed under its constraints.
 */
import type { Cluster } from '../../api/cluster';
import type { ClusterCapacity } from '../divide/division';
import type { ReplicaStrategy, Requirement } from '../replica-strategy';
import { clusterDetail, moreAvailableFirst, sortClusters } from './cluster-details';
import { selectBestClusters, type SpreadDemand } from './select-clusters';
import { spreadFit } from './spread-fit';
import type { SpreadRule } from './spread-rule';

export type ChosenClusters = { readonly ok: true; readonly clusters: readonly ClusterCapacity[] } | { readonly ok: false; readonly reason: string };

export interface SpreadSelector {
  /**
   * The clusters to divide the replicas among, given each feasible cluster's room (in the order the
   * selector was made for): Karmada's selection when it holds the binding, else another selection
   * meeting the constraints that does (rather than preempt), else Karmada's selection, whose division
   * then says what is missing.
   */
  choose(capacities: readonly ClusterCapacity[]): ChosenClusters;
  /** For preemption: that some selection meeting the constraints holds the binding; undefined when none can. */
  readonly requirement: Requirement | undefined;
}

/**
 * `clusters`: the feasible clusters, in the order capacities and preemption use; `placedOn`: the clusters
 * the binding is on now (Karmada's ClusterLocality score). Static weights never come here (spreadRule).
 */
export function spreadSelector(
  rule: SpreadRule,
  clusters: readonly Cluster[],
  placedOn: ReadonlySet<string>,
  strategy: ReplicaStrategy,
  replicas: number,
): SpreadSelector {
  const demand: SpreadDemand = { duplicated: strategy.type === 'duplicated', replicas };
  const fit = spreadFit(rule, clusters, demand);
  const indexOf = new Map(clusters.map((cluster, index) => [cluster.metadata.name, index]));
  return {
    requirement: fit && { type: 'spread', replicas, holds: (available) => fit.holds(available) },
    choose(capacities) {
      const available = capacities.map((capacity) => capacity.availableReplicas);
      const details = sortClusters(
        capacities.map((capacity, index) => clusterDetail(clusters[index]!, capacity.availableReplicas, placedOn)),
        moreAvailableFirst,
      );
      const preference = details.map((detail) => indexOf.get(detail.name)!);
      const taking = (indexes: readonly number[]): ChosenClusters => ({ ok: true, clusters: indexes.map((index) => capacities[index]!) });
      const selected = selectBestClusters(rule, details, demand);
      if (!selected.ok) {
        const other = fit?.witness(available, preference);
        return other ? taking(other) : { ok: false, reason: selected.reason };
      }
      const karmada = selected.clusters.map((detail) => indexOf.get(detail.name)!);
      return taking(holdsOn(karmada, available, demand) ? karmada : (fit?.witness(available, preference) ?? karmada));
    },
  };
}

/** Whether the division succeeds on these clusters: each holds every replica (Duplicated), or they hold them together. */
function holdsOn(selection: readonly number[], available: readonly number[], { duplicated, replicas }: SpreadDemand): boolean {
  if (duplicated) return selection.every((index) => available[index]! >= replicas);
  return selection.reduce((sum, index) => sum + available[index]!, 0) >= replicas;
}

