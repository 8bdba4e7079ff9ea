/** Builders for the spread tests: clusters with a topology (spec.provider, spec.region, spec.zones). */
import type { Cluster } from '../../../../lib/api/cluster';
import { decodeObject } from '../../../../lib/api/decode';
import type { SpreadRule } from '../../../../lib/scheduler/spread/spread-rule';
import { cluster, type ClusterOptions } from '../support';

export interface Topology {
  readonly provider?: string;
  readonly region?: string;
  readonly zones?: readonly string[];
}

/** A member cluster (support.ts) in a provider, region and zones. */
export function clusterIn(name: string, topology: Topology, options: ClusterOptions = {}): Cluster {
  const built = cluster(name, options);
  return decodeObject({ ...built, spec: { ...built.spec, ...topology } }) as Cluster;
}

/** Karmada's NewClusterWithTopology (spreadconstraint/select_clusters_test.go). */
export function clusterWithTopology(name: string, provider: string, region: string, zone: string): Cluster {
  return clusterIn(name, { provider, region, zones: [zone] });
}

function subsets<T>(items: readonly T[], size: number): T[][] {
  if (size === 0) return [[]];
  if (items.length < size) return [];
  const [first, ...rest] = items;
  return [...subsets(rest, size - 1).map((subset) => [first!, ...subset]), ...subsets(rest, size)];
}

/**
 * Every selection meeting the rule, as indexes of the clusters whose regions are given, enumerated as
 * spread-fit.ts describes them (the shapes of Karmada's selection).
 */
export function spreadSelections(rule: SpreadRule, regions: readonly string[]): number[][] {
  const indexes = regions.map((_, index) => index);
  if (rule.by === 'cluster') {
    const count = regions.length < rule.clusters.minGroups ? 0 : Math.min(regions.length, rule.clusters.maxGroups);
    return count === 0 ? [] : subsets(indexes, count);
  }
  if (rule.by !== 'region') return [];
  const names = [...new Set(regions)];
  if (names.length < rule.regions.minGroups) return [];
  const found: number[][] = [];
  for (let size = rule.regions.minGroups; size <= Math.min(rule.regions.maxGroups, names.length); size++) {
    for (const chosen of subsets(names, size)) {
      const members = indexes.filter((index) => chosen.includes(regions[index]!));
      if (members.length < rule.clusters.minGroups) continue;
      const count = Math.max(size, Math.min(members.length, rule.clusters.maxGroups));
      for (const selection of subsets(members, count)) if (chosen.every((name) => selection.some((index) => regions[index] === name))) found.push(selection);
    }
  }
  return found;
}
