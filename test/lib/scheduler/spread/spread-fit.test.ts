/**
 * The test preemption asks of a victim set under spread constraints: does some selection meeting them
 * hold the binding? Checked against every selection enumerated (the shapes Karmada's selection makes,
 * select_clusters.go), on thousands of random fleets, and on tables.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../lib/api/cluster';
import { moreAvailableFirst, sortClusters } from '../../../../lib/scheduler/spread/cluster-details';
import { selectBestClusters, type SpreadDemand } from '../../../../lib/scheduler/spread/select-clusters';
import { spreadFit } from '../../../../lib/scheduler/spread/spread-fit';
import type { GroupBounds, SpreadRule } from '../../../../lib/scheduler/spread/spread-rule';
import { clusterIn, spreadSelections as selections } from './support';

function holdsOn(selection: readonly number[], available: readonly number[], { duplicated, replicas }: SpreadDemand): boolean {
  return duplicated ? selection.every((index) => available[index]! >= replicas) : selection.reduce((sum, index) => sum + available[index]!, 0) >= replicas;
}

const clustersIn = (regions: readonly string[]): Cluster[] => regions.map((region, index) => clusterIn(`m${index}`, { region }));
const preferenceOf = (count: number) => Array.from({ length: count }, (_, index) => index);

const bounds = fc.record({ minGroups: fc.integer({ min: 1, max: 4 }), maxGroups: fc.integer({ min: 0, max: 5 }) }).filter(({ minGroups, maxGroups }) => maxGroups === 0 || maxGroups >= minGroups);
const fleet = fc.array(fc.record({ region: fc.constantFrom('r1', 'r2', 'r3', 'r4'), available: fc.integer({ min: 0, max: 6 }) }), { minLength: 1, maxLength: 7 });
const rules: fc.Arbitrary<SpreadRule> = fc.oneof(
  bounds.map((clusters: GroupBounds): SpreadRule => ({ by: 'cluster', clusters })),
  fc.tuple(bounds, bounds).map(([regions, clusters]): SpreadRule => ({ by: 'region', regions, clusters })),
);
const demands = fc.record({ duplicated: fc.boolean(), replicas: fc.integer({ min: 0, max: 12 }) });

describe('spreadFit against every selection (random fleets of up to 7 clusters in 4 regions)', () => {
  it('holds exactly when some selection meeting the rule holds the binding, and its witness is such a selection', () => {
    fc.assert(
      fc.property(fleet, rules, demands, (clusters, rule, demand) => {
        const regions = clusters.map((c) => c.region);
        const available = clusters.map((c) => c.available);
        const fit = spreadFit(rule, clustersIn(regions), demand)!;
        const all = selections(rule, regions);
        const expected = all.some((selection) => holdsOn(selection, available, demand));
        expect(fit.holds(available)).toBe(expected);
        const witness = fit.witness(available, preferenceOf(clusters.length));
        if (!expected) {
          expect(witness).toBeUndefined();
          return;
        }
        const key = (selection: readonly number[]) => [...selection].sort((a, b) => a - b).join(',');
        expect(all.map(key)).toContain(key(witness!));
        expect(holdsOn(witness!, available, demand)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('Karmada’s own selection, when it makes one, is one of the selections meeting the rule', () => {
    fc.assert(
      fc.property(fleet, rules, demands, (clusters, rule, demand) => {
        const regions = clusters.map((c) => c.region);
        const built = clustersIn(regions);
        const details = sortClusters(built.map((cluster, index) => ({ name: cluster.metadata.name, cluster, score: 0, availableReplicas: clusters[index]!.available })), moreAvailableFirst);
        const selection = selectBestClusters(rule, details, demand);
        if (!selection.ok || selection.clusters.length === 0) return;
        const key = (indexes: readonly number[]) => [...indexes].sort((a, b) => a - b).join(',');
        const chosen = selection.clusters.map((detail) => built.findIndex((cluster) => cluster.metadata.name === detail.name));
        expect(selections(rule, regions).map(key)).toContain(key(chosen));
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('spreadFit tables', () => {
  const fit = (rule: SpreadRule, regions: string[], demand: SpreadDemand) => spreadFit(rule, clustersIn(regions), demand)!;

  it.each<[string, SpreadRule, string[], number[], SpreadDemand, number[] | undefined]>([
    ['by cluster, Duplicated: the 2 clusters that hold all 3 replicas', { by: 'cluster', clusters: { minGroups: 1, maxGroups: 2 } }, ['r', 'r', 'r'], [3, 1, 4], { duplicated: true, replicas: 3 }, [0, 2]],
    ['by cluster, Duplicated: only one of the 2 needed holds them', { by: 'cluster', clusters: { minGroups: 1, maxGroups: 2 } }, ['r', 'r', 'r'], [3, 1, 2], { duplicated: true, replicas: 3 }, undefined],
    ['by cluster, Divided: the 2 roomiest hold 7 together', { by: 'cluster', clusters: { minGroups: 1, maxGroups: 2 } }, ['r', 'r', 'r'], [3, 4, 2], { duplicated: false, replicas: 7 }, [1, 0]],
    ['by cluster, Divided: 3 clusters are not allowed to hold 8', { by: 'cluster', clusters: { minGroups: 1, maxGroups: 2 } }, ['r', 'r', 'r'], [3, 4, 2], { duplicated: false, replicas: 8 }, undefined],
    ['by cluster: fewer feasible clusters than minGroups', { by: 'cluster', clusters: { minGroups: 4, maxGroups: 4 } }, ['r', 'r', 'r'], [9, 9, 9], { duplicated: false, replicas: 1 }, undefined],
    [
      'by region, Duplicated: two regions, a cluster of each',
      { by: 'region', regions: { minGroups: 2, maxGroups: 2 }, clusters: { minGroups: 2, maxGroups: 2 } },
      ['a', 'a', 'b', 'c'],
      [0, 2, 2, 0],
      { duplicated: true, replicas: 2 },
      [1, 2],
    ],
    [
      'by region, Divided: three regions needed, each must hold part',
      { by: 'region', regions: { minGroups: 3, maxGroups: 3 }, clusters: { minGroups: 3, maxGroups: 3 } },
      ['a', 'b', 'c', 'c'],
      [1, 1, 0, 3],
      { duplicated: false, replicas: 5 },
      [0, 1, 3],
    ],
    [
      'by region, Divided: the regions with room are too few',
      { by: 'region', regions: { minGroups: 3, maxGroups: 3 }, clusters: { minGroups: 3, maxGroups: 3 } },
      ['a', 'b', 'b'],
      [5, 5, 5],
      { duplicated: false, replicas: 1 },
      undefined,
    ],
  ])('%s', (_, rule, regions, available, demand, witness) => {
    expect(fit(rule, regions, demand).witness(available, preferenceOf(regions.length))).toEqual(witness);
  });

  it('a spread by label alone has no selection to test', () => {
    expect(spreadFit({ by: 'unsupported' }, clustersIn(['a']), { duplicated: false, replicas: 1 })).toBeUndefined();
  });

  it('prefers clusters earlier in the preference among equals', () => {
    const byCluster = fit({ by: 'cluster', clusters: { minGroups: 1, maxGroups: 1 } }, ['r', 'r', 'r'], { duplicated: true, replicas: 1 });
    expect(byCluster.witness([5, 5, 5], [2, 0, 1])).toEqual([2]);
  });
});
