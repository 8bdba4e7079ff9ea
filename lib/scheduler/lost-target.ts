import type { Cluster } from '../api/cluster';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';

/**
 * Whether the binding's placement on this cluster outlived the cluster: it was deleted, or deleted and
 * created again after the binding was placed there. A cluster created again under the same name is a
 * new cluster and starts empty: nothing placed on the old one counts as placed on it. A binding is
 * placed (status.lastScheduledTime) only on clusters its scheduler read, so after they were created;
 * one placed in the very millisecond of a creation counts as placed on the new cluster, which the fit
 * of every kept placement (kept-placement.ts) makes safe.
 */
export function isLostTarget(binding: ResourceBinding, cluster: Cluster | undefined): boolean {
  if (!cluster) return true;
  const placedAt = Date.parse(binding.status?.lastScheduledTime ?? '');
  const createdAt = Date.parse(cluster.metadata.creationTimestamp ?? '');
  return placedAt < createdAt;
}

/** The binding's targets on clusters that are gone (isLostTarget), by the clusters as `clusterOf` knows them. */
export function lostTargets(binding: ResourceBinding, clusterOf: (name: string) => Cluster | undefined): TargetCluster[] {
  return (binding.spec.clusters ?? []).filter((target) => isLostTarget(binding, clusterOf(target.name)));
}
