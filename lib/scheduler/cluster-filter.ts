import { isClusterReady, type Cluster, type Taint } from '../api/cluster';
import { matchesClusterFieldSelector } from '../api/cluster-field-selector';
import { matchesLabelSelector } from '../api/label-selector';
import type { ClusterAffinity, Toleration } from '../api/propagation-policy';

/** The spread-property failures are Karmada's SpreadConstraint filter (spread/spread-property-filter.ts). */
export type FilterFailure = 'affinity' | 'taint' | 'not-ready' | 'eviction' | 'no-provider' | 'no-region' | 'no-zones';

/** Kubernetes toleration semantics: an empty effect matches every effect, Exists ignores the value. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  return (toleration.value ?? '') === (taint.value ?? '');
}

export function untoleratedTaint(cluster: Cluster, tolerations: readonly Toleration[]): Taint | undefined {
  return cluster.spec?.taints?.find(
    (taint) => taint.effect !== 'PreferNoSchedule' && !tolerations.some((toleration) => tolerates(toleration, taint)),
  );
}

export function matchesClusterAffinity(affinity: ClusterAffinity | undefined, cluster: Cluster): boolean {
  if (!affinity) return true;
  const name = cluster.metadata.name;
  if (affinity.clusterNames && affinity.clusterNames.length > 0 && !affinity.clusterNames.includes(name)) return false;
  if (affinity.exclude?.includes(name)) return false;
  return matchesLabelSelector(affinity.labelSelector, cluster.metadata.labels) && matchesClusterFieldSelector(affinity.fieldSelector, cluster);
}

/**
 * Why a cluster cannot take the binding under this affinity, or undefined when it can. Taints are
 * Karmada's TaintToleration filter (pkg/scheduler/framework/plugins/tainttoleration): a cluster the
 * binding is already placed on (`placedThere`) passes them, so a new taint applies to later placements
 * only (a NoExecute one evicts by the taint manager's rules, no-execute.ts).
 */
export function filterCluster(cluster: Cluster, affinity: ClusterAffinity | undefined, tolerations: readonly Toleration[], placedThere = false): FilterFailure | undefined {
  if (!matchesClusterAffinity(affinity, cluster)) return 'affinity';
  if (!placedThere && untoleratedTaint(cluster, tolerations)) return 'taint';
  if (!isClusterReady(cluster)) return 'not-ready';
  return undefined;
}

/** The clusters that pass the filters, and how many failed each. */
export interface FilteredClusters<C> {
  readonly feasible: readonly C[];
  readonly failures: ReadonlyMap<FilterFailure, number>;
  /** Clusters that failed their taints alone (matching and ready): they pass for a binding already placed there. */
  readonly taintedOnly: readonly C[];
  /** Clusters of `feasible` or `taintedOnly` with NoExecute taints, whose tolerations may run out (no-execute.ts). */
  readonly noExecute: readonly C[];
}

export function filterClusters<C extends { readonly cluster: Cluster }>(
  clusters: Iterable<C>,
  affinity: ClusterAffinity | undefined,
  tolerations: readonly Toleration[],
): FilteredClusters<C> {
  const feasible: C[] = [];
  const failures = new Map<FilterFailure, number>();
  const taintedOnly: C[] = [];
  const noExecute: C[] = [];
  for (const candidate of clusters) {
    const failure = filterCluster(candidate.cluster, affinity, tolerations);
    if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
    else feasible.push(candidate);
    const passesButTaints = failure === 'taint' && isClusterReady(candidate.cluster);
    if (passesButTaints) taintedOnly.push(candidate);
    if ((failure === undefined || passesButTaints) && candidate.cluster.spec?.taints?.some((taint) => taint.effect === 'NoExecute')) noExecute.push(candidate);
  }
  return { feasible, failures, taintedOnly, noExecute };
}

const FAILURE_TEXT: Record<FilterFailure, string> = {
  affinity: 'did not match the placement cluster affinity',
  taint: 'had untolerated taints',
  'not-ready': 'were not ready',
  eviction: 'were in the process of eviction',
  'no-provider': 'did not have provider property',
  'no-region': 'did not have region property',
  'no-zones': 'did not have zones property',
};

/** "0/3 clusters are available: 2 did not match the placement cluster affinity, 1 had untolerated taints." */
export function describeFilterFailures(total: number, failures: ReadonlyMap<FilterFailure, number>): string {
  const parts = [...failures.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([failure, count]) => `${count} ${FAILURE_TEXT[failure]}`);
  return `0/${total} clusters are available${parts.length > 0 ? `: ${parts.join(', ')}` : ''}`;
}
