import type { Cluster, Taint } from './cluster';

/** Kubernetes' MatchTaint: the same taint is the same key and effect. */
function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

/**
 * Karmada's Cluster mutation (pkg/apis/cluster/mutation, mutateClusterTaints): a NoExecute taint written
 * without timeAdded gets one, the time tolerationSeconds count from. A taint the stored cluster already
 * has keeps the time it was added there, so writing the cluster again (an apply of its manifest)
 * does not restart its tolerations; a new one gets `now`.
 */
export function withTaintTimes(cluster: Cluster, stored: Cluster | undefined, now: string): Cluster {
  const taints = cluster.spec?.taints;
  if (!taints?.some((taint) => taint.effect === 'NoExecute' && taint.timeAdded === undefined)) return cluster;
  const timed = taints.map((taint) => {
    if (taint.effect !== 'NoExecute' || taint.timeAdded !== undefined) return taint;
    const added = stored?.spec?.taints?.find((candidate) => sameTaint(candidate, taint))?.timeAdded;
    return { ...taint, timeAdded: added ?? now };
  });
  return { ...cluster, spec: { ...cluster.spec, taints: timed } };
}

/**
 * Karmada's migrateZoneToZones (pkg/apis/cluster/mutation): a cluster written with the deprecated `zone`
 * alone is stored with `zones: [zone]`, which placement reads. Validation refuses both together first.
 */
export function withZonesMigrated(cluster: Cluster): Cluster {
  const spec = cluster.spec;
  if (!spec?.zone || spec.zones?.length) return cluster;
  const { zone, ...rest } = spec;
  return { ...cluster, spec: { ...rest, zones: [zone] } };
}

/** Karmada's MutateCluster: NoExecute taints timed, and `zone` moved to `zones`. */
export function mutatedCluster(cluster: Cluster, stored: Cluster | undefined, now: string): Cluster {
  return withZonesMigrated(withTaintTimes(cluster, stored, now));
}
