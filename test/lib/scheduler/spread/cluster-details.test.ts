/**
 * Clusters and their groups as Karmada's spread selection sees them, ported from
 * pkg/scheduler/core/spreadconstraint/group_clusters_test.go (Test_GroupClustersWithScore,
 * Test_CalcGroupScore, Test_CalcGroupScoreForDuplicate) and util_test.go (Test_sortClusters).
 */
import { describe, expect, it } from 'vitest';
import {
  clusterDetail,
  groupClusters,
  groupScore,
  LOCALITY_SCORE,
  moreAvailableFirst,
  sortClusters,
  type ClusterDetail,
} from '../../../../lib/scheduler/spread/cluster-details';
import { clusterWithTopology, clusterIn } from './support';

const detail = (name: string, score: number, availableReplicas: number, cluster = clusterIn(name, {})): ClusterDetail => ({ name, score, availableReplicas, cluster });

describe('clusters in Karmada’s order, grouped by field (group_clusters_test.go, Test_GroupClustersWithScore)', () => {
  // generateClusterScore, each cluster estimated at 100 replicas.
  const scored = [
    detail('member1', 20, 100, clusterWithTopology('member1', 'P1', 'R1', 'Z1')),
    detail('member2', 40, 100, clusterWithTopology('member2', 'P1', 'R1', 'Z2')),
    detail('member3', 30, 100, clusterWithTopology('member3', 'P2', 'R1', 'Z1')),
    detail('member4', 60, 100, clusterWithTopology('member4', 'P2', 'R2', 'Z2')),
  ];
  const sorted = sortClusters(scored, moreAvailableFirst);

  it("the clusters are sorted by score (every case: 'member4', 'member2', 'member3', 'member1')", () => {
    expect(sorted.map((c) => c.name)).toEqual(['member4', 'member2', 'member3', 'member1']);
  });

  it.each([
    ["'test SpreadConstraints is zone'", 'zone', 2],
    ["'test SpreadConstraints is region'", 'region', 2],
    ["'test SpreadConstraints is provider'", 'provider', 2],
  ] as const)('%s: %s groups', (_, field, count) => {
    expect(groupClusters(sorted, field).size).toBe(count);
  });

  it('each group keeps the clusters in that order; a cluster is in each of its zones, and in no group without the field', () => {
    const regions = groupClusters(sorted, 'region');
    expect(Object.fromEntries([...regions].map(([name, members]) => [name, members.map((c) => c.name)]))).toEqual({
      R2: ['member4'],
      R1: ['member2', 'member3', 'member1'],
    });
    const multiZone = detail('x', 0, 1, clusterIn('x', { zones: ['Z1', 'Z3'] }));
    expect([...groupClusters([multiZone, detail('y', 0, 1)], 'zone').keys()]).toEqual(['Z1', 'Z3']);
    expect(groupClusters([detail('y', 0, 1)], 'region').size).toBe(0);
  });
});

describe('group scores (group_clusters_test.go, Test_CalcGroupScore)', () => {
  // generateClusterScores(n, scores, replicas)
  const clusters = (scores: number[], replicas: number[]) => scores.map((score, i) => detail(`member${i + 1}`, score, replicas[i]!));
  const scoring = (type: 'duplicated' | 'aggregated' | 'dynamicWeight' | 'staticWeight', replicas: number, minGroups: number) => ({
    duplicated: type === 'duplicated',
    replicas,
    minGroups,
    clusterMinGroups: 0,
  });

  it.each<[number, ClusterDetail[], ClusterDetail[], ReturnType<typeof scoring>, boolean]>([
    [1, clusters([100, 100, 0, 0, 0], [30, 30, 30, 30, 30]), clusters([100, 100, 100, 100, 100], [30, 30, 30, 10, 10]), scoring('duplicated', 20, 0), true],
    [2, clusters([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]), clusters([100, 100, 100, 100, 100], [30, 30, 30, 10, 10]), scoring('duplicated', 20, 0), false],
    [3, clusters([100, 100, 0, 0, 0], [30, 30, 30, 10, 10]), clusters([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]), scoring('aggregated', 100, 2), true],
    [4, clusters([100, 100, 0, 0, 0], [10, 10, 10, 10, 5]), clusters([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]), scoring('dynamicWeight', 100, 2), true],
    [5, clusters([100, 100, 0, 0, 0], [10, 10, 10, 5, 5]), clusters([100, 100, 100, 100, 100], [10, 10, 10, 5, 5]), scoring('staticWeight', 100, 2), false],
    [6, clusters([0, 0, 0, 0, 0], [100, 100, 100, 100, 100]), clusters([100, 100, 100, 100, 100], [50, 50, 50, 50, 50]), scoring('aggregated', 100, 2), false],
  ])('test ID %i: the first group wins: %s', (_, first, second, by, firstWins) => {
    expect(groupScore(first, by) >= groupScore(second, by)).toBe(firstWins);
  });

  it("the worked examples of calcGroupScoreForDuplicate and calcGroupScore's comments", () => {
    const duplicated = { duplicated: true, replicas: 50, minGroups: 1, clusterMinGroups: 0 };
    expect(groupScore(clusters([100, 100, 100, 100, 100], [60, 70, 40, 30, 10]), duplicated)).toBe(2100);
    expect(groupScore(clusters([0, 0, 0, 0], [60, 60, 60, 60]), duplicated)).toBe(4000);
    const divided = { duplicated: false, replicas: 100, minGroups: 2, clusterMinGroups: 1 };
    expect(groupScore(clusters([100, 100, 100, 100, 100], [10, 10, 10, 10, 5]), divided)).toBe(45100);
    expect(groupScore(clusters([0, 0, 0, 0], [40, 30, 10, 10]), divided)).toBe(50000);
    expect(groupScore(clusters([100, 100, 100, 100, 100], [40, 40, 10, 10, 5]), divided)).toBe(50100);
    expect(groupScore(clusters([0, 0, 0, 0], [100, 100, 10, 10]), divided)).toBe(50000);
  });
});

describe('Duplicated group scores (group_clusters_test.go, Test_CalcGroupScoreForDuplicate)', () => {
  it.each<[string, ClusterDetail[]]>([
    ['get 0 score when clusters is empty', []],
    ['get 0 score when all clusters can not meet the replica requirements', [detail('member1', 50, 5), detail('member2', 50, 5)]],
  ])('%s', (_, clusters) => {
    expect(groupScore(clusters, { duplicated: true, replicas: 10, minGroups: 1, clusterMinGroups: 0 })).toBe(0);
  });
});

describe('sortClusters (util_test.go, Test_sortClusters)', () => {
  it.each<[string, ClusterDetail[], boolean, string[]]>([
    ['different scores', [detail('b', 2, 0), detail('a', 1, 0)], false, ['b', 'a']],
    ['same score, default to sort by name', [detail('b', 1, 5), detail('a', 1, 10)], false, ['a', 'b']],
    ['same score, sort by availableReplicas', [detail('a', 1, 5), detail('b', 1, 10)], true, ['b', 'a']],
  ])('%s', (_, details, byAvailable, expected) => {
    expect((byAvailable ? sortClusters(details, moreAvailableFirst) : sortClusters(details)).map((c) => c.name)).toEqual(expected);
  });
});

describe('the score and room outrank gives a cluster (Karmada’s ClusterLocality score plugin; int32 estimates)', () => {
  it('scores 100 the clusters the binding is on, 0 the others, and caps the room at what an int32 holds', () => {
    const on = clusterDetail(clusterIn('m1', {}), 3, new Set(['m1']));
    const off = clusterDetail(clusterIn('m2', {}), 2 ** 40, new Set(['m1']));
    expect([on.score, off.score, off.availableReplicas]).toEqual([LOCALITY_SCORE, 0, 2_147_483_647]);
  });
});
