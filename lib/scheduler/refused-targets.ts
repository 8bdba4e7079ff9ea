import type { Cluster } from '../api/cluster';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { matchesClusterAffinity } from './cluster-filter';
import { isLostTarget } from './lost-target';
import { affinityTerms } from './schedule-binding';

/**
 * The binding's targets on clusters its placement no longer admits: the affinity term it was placed by
 * (status.schedulerObservingAffinityName, or its one clusterAffinity) no longer matches the cluster, whose
 * labels (or the term's names, exclusions or selectors) changed since. Judged as Karmada's ClusterAffinity
 * filter judges a cluster (pkg/scheduler/framework/plugins/clusteraffinity: the observed term alone), by
 * the clusters as `clusterOf` knows them; a cluster that is gone is lost-target.ts's.
 */
export function refusedTargets(binding: ResourceBinding, clusterOf: (name: string) => Cluster | undefined): TargetCluster[] {
  const targets = binding.spec.clusters ?? [];
  if (targets.length === 0) return [];
  const [observed] = affinityTerms(binding.spec.placement, binding.status?.schedulerObservingAffinityName);
  return targets.filter((target) => {
    const cluster = clusterOf(target.name);
    return cluster !== undefined && !isLostTarget(binding, cluster) && !matchesClusterAffinity(observed?.affinity, cluster);
  });
}
