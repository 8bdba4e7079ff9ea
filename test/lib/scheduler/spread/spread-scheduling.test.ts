/**
 * Scheduling under spread constraints and field selectors (scheduleBinding): Karmada's selection
 * (pkg/scheduler/core/spreadconstraint), the SpreadConstraint filter, another selection that fits
 * before any preemption, and preemption with the fewest victims over every selection meeting the
 * constraints (binding priority and preemption (000), "Preemption order": fewest victims; never
 * over-commit) — checked against brute force on random fleets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../lib/api/cluster';
import { placementSchema } from '../../../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../../../lib/api/resource-binding';
import { scheduleBinding, type ScheduleDecision, type ScheduleOptions } from '../../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../../lib/scheduler/snapshot';
import { spreadRule } from '../../../../lib/scheduler/spread/spread-rule';
import { binding } from '../support';
import { clusterIn, spreadSelections } from './support';

const ON: ScheduleOptions = { preemption: true, victimSearchBudget: 20_000 };

function schedule(clusters: Cluster[], running: ResourceBinding[], pending: ResourceBinding, options = ON): ScheduleDecision {
  return scheduleBinding(pending, new SchedulingSnapshot(clusters, [...running, pending]), options);
}

function outcome(decision: ScheduleDecision) {
  if (decision.result === 'unschedulable') return { result: decision.result, reason: decision.reason };
  return { result: decision.result, targets: decision.targets.map((t) => `${t.name}:${t.replicas}`), victims: decision.victims.map((v) => v.binding.metadata.name).sort() };
}

const scheduled = (targets: string[], victims: string[] = []) => ({ result: 'scheduled', targets, victims });
const unschedulable = { result: 'unschedulable', reason: 'Unschedulable' };

const inRegion = (name: string, region: string, cpu: number, labels?: Record<string, string>) => clusterIn(name, { region }, { allocatable: { cpu }, ...(labels ? { labels } : {}) });
const byRegion = (regions: [number, number], clusters: [number, number]) => ({
  spreadConstraints: [
    { spreadByField: 'region', minGroups: regions[0], maxGroups: regions[1] },
    { spreadByField: 'cluster', minGroups: clusters[0], maxGroups: clusters[1] },
  ],
});
const byCluster = (minGroups: number, maxGroups: number) => ({ spreadConstraints: [{ spreadByField: 'cluster', minGroups, maxGroups }] });
const DUPLICATED = { replicaScheduling: { replicaSchedulingType: 'Duplicated' } };
const AGGREGATED = { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } };

/** Three regions of two clusters each. */
const REGIONS = [inRegion('a1', 'r1', 4), inRegion('a2', 'r1', 2), inRegion('b1', 'r2', 3), inRegion('b2', 'r2', 3), inRegion('c1', 'r3', 1), inRegion('c2', 'r3', 5)];

describe('Karmada’s selection (spreadconstraint: select_clusters_by_region.go, select_clusters_by_cluster.go)', () => {
  it('spread over 3 regions, one cluster each: the roomiest of each region', () => {
    const pending = binding('pending', { placement: { ...byRegion([3, 3], [3, 3]), ...DUPLICATED } });
    expect(outcome(schedule(REGIONS, [], pending))).toEqual(scheduled(['a1:1', 'b1:1', 'c2:1']));
  });

  it('spread over 2 of 3 regions, up to 4 clusters: the regions first in score and name, all their clusters', () => {
    const pending = binding('pending', { replicas: 6, placement: { ...byRegion([2, 2], [2, 4]), ...AGGREGATED } });
    const decision = schedule(REGIONS, [], pending);
    expect(decision.result === 'scheduled' && decision.targets.every((t) => ['a1', 'a2', 'b1', 'b2'].includes(t.name))).toBe(true);
    expect(decision.result === 'scheduled' && decision.targets.reduce((sum, t) => sum + t.replicas, 0)).toBe(6);
  });

  it('spread over at most 2 clusters, Duplicated: the 2 roomiest, whatever their room', () => {
    const pending = binding('pending', { placement: { ...byCluster(1, 2), ...DUPLICATED } });
    expect(outcome(schedule(REGIONS, [], pending))).toEqual(scheduled(['a1:1', 'c2:1']));
  });

  it('a rescheduled binding keeps to the clusters it is on (their ClusterLocality score)', () => {
    const pending = binding('pending', { replicas: 1, clusters: { a2: 1, c1: 1 }, placement: { ...byCluster(1, 2), ...DUPLICATED } });
    expect(outcome(schedule(REGIONS, [], pending))).toEqual(scheduled(['a2:1', 'c1:1']));
  });

  it('static weights ignore the spread (shouldIgnoreSpreadConstraint)', () => {
    const weighted = { replicaScheduling: { weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['a1', 'b1'] }, weight: 1 }] } } };
    const pending = binding('pending', { replicas: 2, placement: { ...byCluster(1, 1), ...weighted } });
    expect(outcome(schedule(REGIONS, [], pending))).toEqual(scheduled(['a1:1', 'b1:1']));
  });
});

describe('filters', () => {
  it('a field selector selects clusters by region (pkg/util/selector.go, ClusterMatches)', () => {
    const pending = binding('pending', { placement: { clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['r2'] }] } }, ...DUPLICATED } });
    expect(outcome(schedule(REGIONS, [], pending))).toEqual(scheduled(['b1:1', 'b2:1']));
  });

  it('in a clusterAffinities term too', () => {
    const placement = {
      clusterAffinities: [
        { affinityName: 'east', fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['r9'] }] } },
        { affinityName: 'any', fieldSelector: { matchExpressions: [{ key: 'region', operator: 'NotIn', values: ['r1', 'r2'] }] } },
      ],
      ...DUPLICATED,
    };
    const decision = schedule(REGIONS, [], binding('pending', { placement }));
    expect(decision.result === 'scheduled' && [decision.targets.map((t) => t.name), decision.affinityName]).toEqual([['c1', 'c2'], 'any']);
  });

  it('a spread by region keeps out clusters without one (the SpreadConstraint filter), naming why', () => {
    const decision = schedule([clusterIn('m1', {}, { allocatable: { cpu: 4 } })], [], binding('pending', { placement: byRegion([1, 1], [1, 1]) }));
    expect(decision).toEqual({ result: 'unschedulable', reason: 'NoClusterFit', message: '0/1 clusters are available: 1 did not have region property' });
  });

  it('a spread by label alone selects nothing (Karmada: only cluster and region are supported)', () => {
    const decision = schedule(REGIONS, [], binding('pending', { placement: { spreadConstraints: [{ spreadByLabel: 'net', maxGroups: 2 }] } }));
    expect(decision).toMatchObject({ result: 'unschedulable', reason: 'Unschedulable', message: expect.stringContaining('by cluster and region only') });
  });

  it('too few regions for minGroups: Unschedulable, naming the constraint', () => {
    const decision = schedule(REGIONS, [], binding('pending', { priority: 10, placement: byRegion([4, 4], [4, 4]) }));
    expect(decision).toMatchObject({ result: 'unschedulable', reason: 'Unschedulable', message: expect.stringContaining("minGroups 4") });
  });
});

describe('another selection that fits before any preemption', () => {
  it('when Karmada’s choice lacks room, the clusters that have it are taken', () => {
    // The binding is on m1 (ClusterLocality puts it first) and scaled to 2, which m1 no longer holds.
    const clusters = [inRegion('m1', 'r', 2), inRegion('m2', 'r', 2), inRegion('m3', 'r', 2)];
    const running = [binding('other', { priority: 50, clusters: { m1: 1 } })];
    const pending = binding('pending', { priority: 10, replicas: 2, clusters: { m1: 1 }, placement: { ...byCluster(1, 2), ...DUPLICATED } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m2:2', 'm3:2']));
  });
});

describe('preemption under spread constraints (binding priority and preemption (000): fewest victims)', () => {
  it('chooses the cluster needing fewer victims, not the first in Karmada’s order', () => {
    const clusters = [inRegion('m1', 'r', 2), inRegion('m2', 'r', 2)];
    const running = [
      binding('small-1', { priority: 0, clusters: { m1: 1 } }),
      binding('small-2', { priority: 0, clusters: { m1: 1 } }),
      binding('big', { priority: 0, request: { cpu: '2' }, clusters: { m2: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, request: { cpu: '2' }, placement: { ...byCluster(1, 1), ...DUPLICATED } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m2:1'], ['big']));
  });

  it('needs room in two regions: the two cheapest, one victim each', () => {
    const clusters = [inRegion('a', 'r1', 1), inRegion('b', 'r2', 1), inRegion('c', 'r3', 1)];
    const running = [
      binding('x', { priority: 0, clusters: { a: 1 } }),
      binding('y', { priority: 1, clusters: { b: 1 } }),
      binding('p', { priority: 0, request: { cpu: '500m' }, clusters: { c: 1 } }),
      binding('q', { priority: 0, request: { cpu: '500m' }, clusters: { c: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, placement: { ...byRegion([2, 2], [2, 2]), ...DUPLICATED } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['a:1', 'b:1'], ['x', 'y']));
  });

  it('a victim spanning two selected clusters counts once', () => {
    const clusters = [inRegion('a', 'r1', 1), inRegion('b', 'r2', 1), inRegion('c', 'r3', 1)];
    const running = [
      binding('both', { priority: 5, replicas: 2, clusters: { a: 1, c: 1 } }),
      binding('x', { priority: 0, clusters: { b: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, placement: { ...byRegion([2, 2], [2, 2]), ...DUPLICATED } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['a:1', 'c:1'], ['both']));
  });

  it('no preemption when no selection could hold the binding even with every candidate gone', () => {
    const clusters = [inRegion('a', 'r1', 1), inRegion('b', 'r2', 1)];
    const running = [binding('x', { priority: 0, clusters: { a: 1 } }), binding('guard', { priority: 50, clusters: { b: 1 } })];
    const pending = binding('pending', { priority: 10, placement: { ...byRegion([2, 2], [2, 2]), ...DUPLICATED } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(unschedulable);
  });
});

// ---------------------------------------------------------------------------------------------
// Random fleets against brute force

interface RandomFleet {
  readonly clusters: ReadonlyArray<{ readonly region: string; readonly cpu: number }>;
  readonly running: ReadonlyArray<{ readonly cluster: number; readonly cpu: number; readonly priority: number; readonly preemptible: boolean }>;
  readonly constraints: Record<string, unknown>[];
  readonly strategy: 'duplicated' | 'aggregated' | 'dynamic';
  readonly replicas: number;
}

// maxGroups 0 (unset) is rare: by cluster it selects nothing.
const boundsArb = fc
  .record({ minGroups: fc.integer({ min: 1, max: 3 }), maxGroups: fc.oneof({ weight: 1, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.integer({ min: 1, max: 4 }) }) })
  .filter((b) => b.maxGroups === 0 || b.maxGroups >= b.minGroups);
const fleetArb: fc.Arbitrary<RandomFleet> = fc.record({
  clusters: fc.array(fc.record({ region: fc.constantFrom('r1', 'r2', 'r3'), cpu: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 5 }),
  running: fc.array(
    fc.record({ cluster: fc.nat(), cpu: fc.integer({ min: 1, max: 2 }), priority: fc.constantFrom(0, 1, 5, 20), preemptible: fc.constantFrom(true, true, true, false) }),
    { maxLength: 9 },
  ),
  constraints: fc.oneof(
    boundsArb.map((cluster) => [{ spreadByField: 'cluster', ...cluster }]),
    fc.tuple(boundsArb, boundsArb).map(([region, cluster]) => [{ spreadByField: 'region', ...region }, { spreadByField: 'cluster', ...cluster }]),
  ),
  strategy: fc.constantFrom('duplicated' as const, 'aggregated' as const, 'dynamic' as const),
  replicas: fc.integer({ min: 1, max: 3 }),
});

const STRATEGIES = {
  duplicated: { replicaSchedulingType: 'Duplicated' },
  aggregated: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
  dynamic: { replicaSchedulingType: 'Divided', weightPreference: { dynamicWeight: 'AvailableReplicas' } },
};

/** The fleet as objects; running bindings that would not fit where they are drawn are left out. */
function build(fleet: RandomFleet) {
  const clusters = fleet.clusters.map((c, index) => inRegion(`m${index}`, c.region, c.cpu));
  const used = fleet.clusters.map(() => 0);
  const running = fleet.running.flatMap((r, index) => {
    const at = r.cluster % fleet.clusters.length;
    if (used[at]! + r.cpu > fleet.clusters[at]!.cpu) return [];
    used[at]! += r.cpu;
    return [{ ...r, at, binding: binding(`run${index}`, { priority: r.priority, preemptible: r.preemptible, request: { cpu: String(r.cpu) }, clusters: { [`m${at}`]: 1 } }) }];
  });
  const placement = placementSchema.parse({ spreadConstraints: fleet.constraints, replicaScheduling: STRATEGIES[fleet.strategy] });
  const pending = binding('pending', { priority: 10, replicas: fleet.replicas, placement });
  return { clusters, running, used, pending, rule: spreadRule(placement)! };
}

function subsetsOf<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((subset) => [...subset, item])], [[]]);
}

describe('random fleets: never over-commits, meets the spread, and preempts the fewest victims over every selection', () => {
  it('agrees with brute force', () => {
    fc.assert(
      fc.property(fleetArb, (fleet) => {
        const { clusters, running, used, pending, rule } = build(fleet);
        const regions = fleet.clusters.map((c) => c.region);
        const selections = spreadSelections(rule, regions);
        const duplicated = fleet.strategy === 'duplicated';
        const holds = (free: readonly number[]) =>
          selections.some((selection) =>
            duplicated ? selection.every((i) => free[i]! >= fleet.replicas) : selection.reduce((sum, i) => sum + free[i]!, 0) >= fleet.replicas,
          );
        const candidates = running.filter((r) => r.priority < 10 && r.preemptible);
        const freeAfter = (evicted: readonly (typeof running)[number][]) =>
          fleet.clusters.map((c, i) => c.cpu - used[i]! + evicted.filter((r) => r.at === i).reduce((sum, r) => sum + r.cpu, 0));
        const fewest = subsetsOf(candidates)
          .filter((evicted) => holds(freeAfter(evicted)))
          .reduce((least, evicted) => Math.min(least, evicted.length), Number.POSITIVE_INFINITY);

        const decision = schedule(clusters, running.map((r) => r.binding), pending);
        if (decision.result === 'unschedulable') {
          expect(fewest).toBe(Number.POSITIVE_INFINITY);
          return;
        }
        const victims = decision.victims.map((v) => running.find((r) => r.binding.metadata.name === v.binding.metadata.name)!);
        expect(victims.every((v) => candidates.includes(v))).toBe(true);
        if (decision.exactVictims) expect(victims.length).toBe(fewest);
        const free = freeAfter(victims);
        for (const target of decision.targets) expect(target.replicas).toBeLessThanOrEqual(free[Number(target.name.slice(1))]!);
        const placed = decision.targets.map((t) => Number(t.name.slice(1)));
        const key = (indexes: readonly number[]) => [...indexes].sort((a, b) => a - b).join(',');
        if (duplicated) expect(selections.map(key)).toContain(key(placed));
        else expect(selections.some((selection) => placed.every((i) => selection.includes(i)))).toBe(true);
      }),
      { numRuns: 1_500 },
    );
  });
});
