/**
 * Karmada's cluster selection under spread constraints (pkg/scheduler/core/spreadconstraint:
 * select_clusters.go, select_clusters_by_cluster.go, select_clusters_by_region.go), after the filters and
 * before replicas are divided. By cluster: the first min(feasible, maxGroups) clusters in Karmada's order
 * (score, then available replicas, then name), for a Divided binding swapped for roomier ones until they
 * hold its replicas together. By region: the regions selectGroups picks, the best cluster of each, then
 * the clusters with the most room up to the cluster maxGroups.
 */
import { groupClusters, groupScore, moreAvailableFirst, sortClusters, type ClusterDetail } from './cluster-details';
import { selectGroups } from './select-groups';
import type { GroupBounds, SpreadRule } from './spread-rule';

export type SpreadSelection = { readonly ok: true; readonly clusters: readonly ClusterDetail[] } | { readonly ok: false; readonly reason: string };

/** What the binding needs: Duplicated bindings are selected without regard to room, as in Karmada. */
export interface SpreadDemand {
  readonly duplicated: boolean;
  readonly replicas: number;
}

/** A region and its clusters in Karmada's order, with its group score. */
export interface RegionGroup {
  readonly name: string;
  readonly score: number;
  readonly clusters: readonly ClusterDetail[];
}

/** SelectBestClusters, for a rule that selects (spreadRule gave one); `clusters` in Karmada's order (sortClusters with moreAvailableFirst). */
export function selectBestClusters(rule: SpreadRule, clusters: readonly ClusterDetail[], demand: SpreadDemand): SpreadSelection {
  switch (rule.by) {
    case 'cluster':
      return selectByCluster(rule.clusters, clusters, demand.duplicated ? undefined : demand.replicas);
    case 'region':
      return selectByRegion(regionGroups(clusters, rule, demand), rule.regions, rule.clusters);
    case 'unsupported':
      return { ok: false, reason: 'spread constraints select clusters by cluster and region only: spreading by label alone selects none' };
  }
}

/** generateRegionInfo: each region's clusters (in the order given) and score. */
export function regionGroups(clusters: readonly ClusterDetail[], rule: { readonly regions: GroupBounds; readonly clusters: GroupBounds }, demand: SpreadDemand): RegionGroup[] {
  const scoring = { ...demand, minGroups: rule.regions.minGroups, clusterMinGroups: rule.clusters.minGroups };
  return [...groupClusters(clusters, 'region')].map(([name, members]) => ({ name, score: groupScore(members, scoring), clusters: members }));
}

/** selectBestClustersByCluster; `neededReplicas` undefined when room is not considered. */
export function selectByCluster(bounds: GroupBounds, clusters: readonly ClusterDetail[], neededReplicas: number | undefined): SpreadSelection {
  if (clusters.length < bounds.minGroups) {
    return { ok: false, reason: `${clusters.length} feasible clusters, fewer than the cluster spread constraint's minGroups ${bounds.minGroups}` };
  }
  const count = Math.min(clusters.length, bounds.maxGroups);
  if (count === 0) return { ok: false, reason: "the cluster spread constraint's maxGroups is 0: no cluster may be selected" };
  if (neededReplicas === undefined) return { ok: true, clusters: clusters.slice(0, count) };
  const selected = holdingTogether(clusters, count, neededReplicas);
  return selected.length > 0 ? { ok: true, clusters: selected } : { ok: false, reason: `no ${count} clusters hold ${neededReplicas} replicas together` };
}

/**
 * selectClustersByAvailableResource: the first `count` clusters; while they hold too few replicas, from the
 * last to the first, each is swapped for the roomiest of the rest if that has more room. Empty when they
 * still hold too few.
 */
function holdingTogether(clusters: readonly ClusterDetail[], count: number, neededReplicas: number): ClusterDetail[] {
  const selected = clusters.slice(0, count);
  const rest = clusters.slice(count);
  for (let position = count - 1; position >= 0 && !holds(selected, neededReplicas); position--) {
    const roomier = roomiest(rest, selected[position]!.availableReplicas);
    if (roomier < 0) continue;
    [selected[position], rest[roomier]] = [rest[roomier]!, selected[position]!];
  }
  return holds(selected, neededReplicas) ? selected : [];
}

function holds(clusters: readonly ClusterDetail[], replicas: number): boolean {
  return clusters.reduce((sum, cluster) => sum + cluster.availableReplicas, 0) >= replicas;
}

/** GetClusterWithMaxAvailableResource: the first of the clusters with the most room, if more than `than`; else -1. */
function roomiest(clusters: readonly ClusterDetail[], than: number): number {
  let most = than;
  let found = -1;
  clusters.forEach((cluster, index) => {
    if (cluster.availableReplicas > most) {
      most = cluster.availableReplicas;
      found = index;
    }
  });
  return found;
}

/** selectBestClustersByRegion. */
export function selectByRegion(regions: readonly RegionGroup[], regionBounds: GroupBounds, clusterBounds: GroupBounds): SpreadSelection {
  if (regions.length < regionBounds.minGroups) {
    return { ok: false, reason: `${regions.length} regions have feasible clusters, fewer than the region spread constraint's minGroups ${regionBounds.minGroups}` };
  }
  const byName = new Map(regions.map((region) => [region.name, region]));
  const chosen = selectGroups(
    regions.map((region) => ({ name: region.name, value: region.clusters.length, weight: region.score })),
    regionBounds.minGroups,
    regionBounds.maxGroups,
    clusterBounds.minGroups,
  ).map((group) => byName.get(group.name)!);
  if (chosen.length === 0) {
    return {
      ok: false,
      reason: `no ${regionBounds.minGroups} to ${regionBounds.maxGroups} regions have the cluster spread constraint's minGroups ${clusterBounds.minGroups} feasible clusters`,
    };
  }
  const selected = chosen.map((region) => region.clusters[0]!);
  const others = chosen.flatMap((region) => region.clusters.slice(1));
  const more = Math.min(others.length + selected.length, clusterBounds.maxGroups) - selected.length;
  return { ok: true, clusters: more > 0 ? [...selected, ...sortClusters(others, moreAvailableFirst).slice(0, more)] : selected };
}
