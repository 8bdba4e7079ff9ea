/**
 * Karmada's cluster selection under spread constraints, ported from pkg/scheduler/core/spreadconstraint:
 * select_clusters_test.go (TestSelectBestClusters) and select_clusters_by_region_test.go
 * (Test_selectBestClustersByRegion).
 */
import { describe, expect, it } from 'vitest';
import { placementSchema } from '../../../../lib/api/propagation-policy';
import { replicaStrategy } from '../../../../lib/scheduler/replica-strategy';
import type { ClusterDetail } from '../../../../lib/scheduler/spread/cluster-details';
import { regionGroups, selectBestClusters, selectByRegion, type RegionGroup } from '../../../../lib/scheduler/spread/select-clusters';
import { spreadRule } from '../../../../lib/scheduler/spread/spread-rule';
import { clusterWithTopology } from './support';

const detail = (name: string, score: number, availableReplicas: number, region = 'R1'): ClusterDetail => ({
  name,
  score,
  availableReplicas,
  cluster: clusterWithTopology(name, 'P1', region, 'Z1'),
});

describe('selection by cluster (select_clusters_test.go, TestSelectBestClusters)', () => {
  // generateClusterInfo: in Karmada's order already (by score).
  const clusterInfos = [detail('member4', 60, 50), detail('member2', 40, 60), detail('member3', 30, 80), detail('member1', 20, 40)];
  const byCluster = (maxGroups: number, minGroups: number) => ({ spreadConstraints: [{ spreadByField: 'cluster', maxGroups, minGroups }] });

  function select(placement: Record<string, unknown>, needReplicas: number) {
    const parsed = placementSchema.parse(placement);
    const rule = spreadRule(parsed);
    if (!rule) return { every: true };
    const selection = selectBestClusters(rule, clusterInfos, { duplicated: replicaStrategy(parsed).type === 'duplicated', replicas: needReplicas });
    return selection.ok ? { clusters: selection.clusters.map((c) => c.name) } : { failed: true };
  }

  it.each<[string, Record<string, unknown>, number, object]>([
    ['select clusters by cluster score', byCluster(2, 1), 100, { clusters: ['member4', 'member2'] }],
    [
      'select clusters by cluster score and ignore available resources when scheduling strategy is duplicated',
      { ...byCluster(2, 1), replicaScheduling: { replicaSchedulingType: 'Duplicated' } },
      120,
      { clusters: ['member4', 'member2'] },
    ],
    [
      'select clusters by cluster score and ignore available resources when scheduling strategy is static weight',
      {
        ...byCluster(2, 1),
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['member1'] }, weight: 2 }] },
        },
      },
      120,
      { every: true },
    ],
    // Karmada's case divides without a preference, which its webhook would have made Weighted (and so
    // exempt, as static weights are); the facts are those of a division by available replicas.
    [
      'select clusters by cluster score and satisfy available resources',
      { ...byCluster(2, 1), replicaScheduling: { replicaSchedulingType: 'Divided', weightPreference: { dynamicWeight: 'AvailableReplicas' } } },
      120,
      { clusters: ['member4', 'member3'] },
    ],
    [
      'select clusters by cluster score and insufficient resources',
      { ...byCluster(2, 1), replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      200,
      { failed: true },
    ],
    ['select clusters by cluster score and exceeded the number of available clusters.', byCluster(7, 7), 30, { failed: true }],
  ])('%s', (_, placement, needReplicas, expected) => {
    expect(select(placement, needReplicas)).toEqual(expected);
  });

  it("maxGroups 0 (unset) selects no cluster, and a spread by label alone none either (Karmada: 'just support cluster and region spread constraint')", () => {
    expect(select({ spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1 }] }, 1)).toEqual({ failed: true });
    expect(select({ spreadConstraints: [{ spreadByLabel: 'net', maxGroups: 2 }] }, 1)).toEqual({ failed: true });
  });

  it('zone and provider constraints group nothing: selection is by the cluster constraint', () => {
    expect(select({ spreadConstraints: [{ spreadByField: 'zone', maxGroups: 1 }, { spreadByField: 'cluster', maxGroups: 3 }] }, 1)).toEqual({
      clusters: ['member4', 'member2', 'member3'],
    });
  });
});

describe('selection by region (select_clusters_by_region_test.go, Test_selectBestClustersByRegion)', () => {
  const region = (name: string, score: number, ...clusters: Array<[string, number, number]>): RegionGroup => ({
    name,
    score,
    clusters: clusters.map(([clusterName, clusterScore, available]) => detail(clusterName, clusterScore, available, name)),
  });
  const bounds = (minGroups: number, maxGroups: number) => ({ minGroups, maxGroups });
  const twoRegions = [
    region('R1', 100, ['member1', 100, 40], ['member2', 80, 40]),
    region('R2', 80, ['member3', 80, 40], ['member4', 80, 40], ['member5', 60, 40]),
  ];

  it.each<[string, RegionGroup[], [number, number], [number, number], string[] | undefined]>([
    ['select cluster from the region with the higher score', twoRegions, [1, 1], [2, 2], ['member1', 'member2']],
    ['select cluster from the region with enough clusters', twoRegions, [1, 1], [3, 3], ['member3', 'member4', 'member5']],
    [
      'select cluster from the region with enough clusters and higher score',
      [
        region('R1', 90, ['member1', 90, 40]),
        region('R2', 70, ['member2', 70, 40], ['member3', 60, 40], ['member4', 30, 40]),
        region('R3', 80, ['member5', 80, 40], ['member6', 50, 60]),
        region('R4', 50, ['member7', 50, 50], ['member8', 40, 50], ['member9', 10, 50], ['member10', 0, 50]),
      ],
      [2, 2],
      [4, 5],
      ['member1', 'member2', 'member3', 'member4'],
    ],
    [
      'select cluster from more than `minGroups` regions with enough clusters and higher score',
      [
        region('R1', 70, ['member1', 70, 40]),
        region('R2', 40, ['member2', 40, 40], ['member3', 40, 40], ['member4', 40, 40]),
        region('R3', 60, ['member5', 60, 40], ['member6', 50, 60]),
        region('R4', 70, ['member7', 70, 100]),
        region('R5', 50, ['member8', 50, 50]),
      ],
      [1, 3],
      [6, 8],
      ['member1', 'member5', 'member2', 'member6', 'member3', 'member4'],
    ],
    ['no enough region', twoRegions, [3, 3], [3, 3], undefined],
    [
      'no enough clusters',
      [region('R1', 100, ['member1', 100, 40], ['member2', 80, 60]), region('R2', 80, ['member3', 80, 40], ['member4', 80, 40], ['member5', 60, 40])],
      [1, 1],
      [4, 4],
      undefined,
    ],
    ['no more regions to replace', [region('R1', 100, ['member1', 100, 40], ['member2', 80, 20])], [1, 1], [3, 4], undefined],
  ])('%s', (_, regions, [regionMin, regionMax], [clusterMin, clusterMax], expected) => {
    const selection = selectByRegion(regions, bounds(regionMin, regionMax), bounds(clusterMin, clusterMax));
    expect(selection.ok ? selection.clusters.map((c) => c.name) : undefined).toEqual(expected);
  });

  it('with cluster maxGroups 0 one cluster of each selected region is taken', () => {
    const selection = selectByRegion(twoRegions, bounds(2, 2), bounds(1, 0));
    expect(selection.ok && selection.clusters.map((c) => c.name)).toEqual(['member1', 'member3']);
  });

  it('regions are made of the clusters in the order given, scored by their room (generateRegionInfo)', () => {
    const clusters = [detail('a', 0, 10, 'R1'), detail('b', 0, 1, 'R2'), detail('c', 0, 5, 'R1')];
    const rule = { regions: bounds(1, 1), clusters: bounds(1, 2) };
    expect(regionGroups(clusters, rule, { duplicated: false, replicas: 8 }).map((r) => [r.name, r.score, r.clusters.map((c) => c.name)])).toEqual([
      ['R1', 8000, ['a', 'c']],
      ['R2', 1000, ['b']],
    ]);
  });
});
