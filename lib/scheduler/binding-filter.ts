import type { Cluster } from '../api/cluster';
import type { ClusterAffinity } from '../api/propagation-policy';
import type { ResourceBinding } from '../api/resource-binding';
import { filterCluster, type FilteredClusters, type FilterFailure } from './cluster-filter';
import { isLostTarget } from './lost-target';
import { noExecuteVerdict } from './no-execute';
import type { ClusterState } from './snapshot';

/** Whether the binding is placed on this cluster as it is now (not on one deleted since, whatever its name). */
export function isPlacedOn(binding: ResourceBinding, cluster: Cluster): boolean {
  const name = cluster.metadata.name;
  return (binding.spec.clusters ?? []).some((target) => target.name === name) && !isLostTarget(binding, cluster);
}

/** The clusters the binding is being evicted from: its gracefulEvictionTasks (graceful-eviction.ts). */
export function evictingFrom(binding: ResourceBinding): ReadonlySet<string> {
  const tasks = binding.spec.gracefulEvictionTasks ?? [];
  return tasks.length === 0 ? NONE : new Set(tasks.map((task) => task.fromCluster));
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Why this binding cannot be placed on the cluster under this affinity, or undefined when it can: the
 * shared filters (cluster-filter.ts), the taints passed where it is placed already (Karmada's
 * TaintToleration filter), a cluster it is being evicted from refused (Karmada's ClusterEviction
 * filter, pkg/scheduler/framework/plugins/clustereviction: "in the process of eviction"), and, given the
 * time of the decision, a cluster whose NoExecute taints would evict it at once (its tolerationSeconds
 * ran out: no-execute.ts). Karmada's filter ignores tolerationSeconds and places it there for its taint
 * manager to evict straight away; outrank does not place what it would evict.
 */
export function bindingFilterFailure(binding: ResourceBinding, cluster: Cluster, affinity: ClusterAffinity | undefined, now?: number): FilterFailure | undefined {
  const tolerations = binding.spec.placement?.clusterTolerations ?? [];
  const failure = filterCluster(cluster, affinity, tolerations, isPlacedOn(binding, cluster));
  if (failure) return failure;
  if (evictingFrom(binding).has(cluster.metadata.name)) return 'eviction';
  return now !== undefined && noExecuteVerdict(cluster, tolerations, now).evict === 'now' ? 'taint' : undefined;
}

/**
 * The filters as this binding meets them at `now`, from the result every binding of the same affinity
 * and tolerations shares (SchedulingSnapshot.filtered, worked out once per cluster change), as
 * bindingFilterFailure decides cluster by cluster. A binding placed on no tainted cluster and evicted
 * from none, where no NoExecute toleration ran out, as nearly all are, gets the shared result itself.
 */
export function filteredFor(binding: ResourceBinding, shared: FilteredClusters<ClusterState>, now?: number): FilteredClusters<ClusterState> {
  const evicting = evictingFrom(binding);
  const tolerations = binding.spec.placement?.clusterTolerations ?? [];
  const evictsNow = new Set(
    now === undefined ? [] : shared.noExecute.filter((candidate) => !evicting.has(candidate.name) && noExecuteVerdict(candidate.cluster, tolerations, now).evict === 'now'),
  );
  const exempt = shared.taintedOnly.filter((candidate) => !evicting.has(candidate.name) && !evictsNow.has(candidate) && isPlacedOn(binding, candidate.cluster));
  const evicted = evicting.size === 0 ? [] : shared.feasible.filter((candidate) => evicting.has(candidate.name));
  const expired = shared.feasible.filter((candidate) => evictsNow.has(candidate));
  if (exempt.length === 0 && evicted.length === 0 && expired.length === 0) return shared;
  const failures = new Map(shared.failures);
  const tainted = (failures.get('taint') ?? 0) - exempt.length + expired.length;
  if (tainted > 0) failures.set('taint', tainted);
  else failures.delete('taint');
  if (evicted.length > 0) failures.set('eviction', evicted.length);
  const passed = new Set(exempt);
  return {
    feasible: [...shared.feasible.filter((candidate) => !evicting.has(candidate.name) && !evictsNow.has(candidate)), ...exempt],
    failures,
    taintedOnly: shared.taintedOnly.filter((candidate) => !passed.has(candidate)),
    noExecute: shared.noExecute,
  };
}
