/**
 * The clusters a spread selects from, and their groups, as Karmada describes them
 * (pkg/scheduler/core/spreadconstraint/group_clusters.go and util.go).
 */
import type { Cluster } from '../../api/cluster';
import { byName } from '../divide/division';

/** Karmada's framework.MaxClusterScore: ClusterLocality gives it to the clusters a binding is already on. */
export const LOCALITY_SCORE = 100;
/** Karmada's estimators answer in int32. */
const MOST_REPLICAS = 2_147_483_647;
/** group_clusters.go weightUnit: replicas weigh more than any average score (0 to 100) in a group's score. */
const WEIGHT_UNIT = 1000;

export interface ClusterDetail {
  readonly name: string;
  readonly cluster: Cluster;
  /**
   * Karmada's score: of its default score plugins only ClusterLocality scores, 100 for a cluster the
   * binding is on (ClusterAffinity scores 0), so a rescheduled binding keeps to its clusters.
   */
  readonly score: number;
  /** How many of the binding's replicas the cluster can hold, its own placement there counted as free. */
  readonly availableReplicas: number;
}

export function clusterDetail(cluster: Cluster, availableReplicas: number, placedOn: ReadonlySet<string>): ClusterDetail {
  const name = cluster.metadata.name;
  return { name, cluster, score: placedOn.has(name) ? LOCALITY_SCORE : 0, availableReplicas: Math.min(availableReplicas, MOST_REPLICAS) };
}

/** A tie break: negative when `a` comes first. */
export type ClusterOrder = (a: ClusterDetail, b: ClusterDetail) => number;

export const moreAvailableFirst: ClusterOrder = (a, b) => b.availableReplicas - a.availableReplicas;

/** Karmada's sortClusters: higher score first, then the tie breaks given, then by name. A sorted copy. */
export function sortClusters(details: readonly ClusterDetail[], ...tieBreaks: ClusterOrder[]): ClusterDetail[] {
  return [...details].sort((a, b) => {
    if (a.score !== b.score) return b.score - a.score;
    for (const tieBreak of tieBreaks) {
      const order = tieBreak(a, b);
      if (order !== 0) return order;
    }
    return byName(a, b);
  });
}

export type GroupField = 'region' | 'zone' | 'provider';

/** The groups a cluster belongs to: its region, its provider, or each of its zones (spec.zones). */
export function groupsOf(cluster: Cluster, field: GroupField): readonly string[] {
  if (field === 'zone') return cluster.spec?.zones ?? [];
  const value = cluster.spec?.[field];
  return value ? [value] : [];
}

/** generateRegionInfo, generateZoneInfo, generateProviderInfo: each group's clusters, in the order given. */
export function groupClusters(details: readonly ClusterDetail[], field: GroupField): Map<string, ClusterDetail[]> {
  const groups = new Map<string, ClusterDetail[]>();
  for (const detail of details) {
    for (const group of groupsOf(detail.cluster, field)) {
      let members = groups.get(group);
      if (!members) groups.set(group, (members = []));
      members.push(detail);
    }
  }
  return groups;
}

export interface GroupScoring {
  readonly duplicated: boolean;
  readonly replicas: number;
  /** The minGroups of the group's own constraint (at least 1). */
  readonly minGroups: number;
  /** The minGroups of the cluster constraint, 0 without one. */
  readonly clusterMinGroups: number;
}

/**
 * Karmada's calcGroupScore. Duplicated: the clusters that can hold every replica count first, then their
 * average score. Divided: of replicas ÷ minGroups (the group's share), how many the group's first clusters
 * hold (taking at least the cluster minGroups), then their average score.
 */
export function groupScore(clusters: readonly ClusterDetail[], scoring: GroupScoring): number {
  if (scoring.duplicated) return duplicatedGroupScore(clusters, scoring.replicas);
  const share = Math.ceil(scoring.replicas / scoring.minGroups);
  const least = Math.max(scoring.clusterMinGroups, scoring.minGroups);
  let available = 0;
  let score = 0;
  let counted = 0;
  for (const cluster of clusters) {
    available += cluster.availableReplicas;
    score += cluster.score;
    counted++;
    if (counted >= least && available >= share) break;
  }
  if (available < share) return available * WEIGHT_UNIT + Math.trunc(score / clusters.length);
  return share * WEIGHT_UNIT + Math.trunc(score / counted);
}

/** Karmada's calcGroupScoreForDuplicate. */
function duplicatedGroupScore(clusters: readonly ClusterDetail[], replicas: number): number {
  const holding = clusters.filter((cluster) => cluster.availableReplicas >= replicas);
  if (holding.length === 0) return 0;
  return holding.length * WEIGHT_UNIT + Math.trunc(holding.reduce((sum, cluster) => sum + cluster.score, 0) / holding.length);
}
