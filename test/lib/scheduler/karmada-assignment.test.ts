/**
 * Karmada's replica assignment tables, as facts scheduleBinding must reproduce: each case names its Karmada file
 * (pkg/scheduler/core unless said otherwise), test and case. Karmada's candidates carry AllocatableReplicas, the
 * replicas more that fit beside what the binding runs there; here each cluster's pod capacity is that plus what the
 * binding runs there, and the binding requests nothing but its pods, so the room is the same. A previous result
 * (spec.clusters) is the binding's placement in the snapshot; a cluster of it that is no longer a candidate is left
 * out of the fleet. Karmada lists clusters given 0 replicas in some results; outrank leaves them out, as Karmada's
 * assignReplicasToClusters does before writing (common.go, removeZeroReplicasCluster).
 */
import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { scheduleBinding, type ScheduleDecision, type ScheduleOptions } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, type BindingOptions } from './support';

const OFF: ScheduleOptions = { preemption: false, victimSearchBudget: 20_000 };

const DYNAMIC = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } };
const AGGREGATED = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' };
const staticWeights = (weights: Record<string, number>) => ({
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { staticWeightList: Object.entries(weights).map(([name, weight]) => ({ targetCluster: { clusterNames: [name] }, weight })) },
});
const DEFAULT_WEIGHTS = { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' };
const DUPLICATED = { replicaSchedulingType: 'Duplicated' };

interface Case {
  /** The Karmada file, test and case the facts come from. */
  readonly source: string;
  /** Candidate clusters and their AllocatableReplicas. */
  readonly allocatable: Record<string, number>;
  readonly replicaScheduling: Record<string, unknown>;
  readonly replicas: number;
  /** The previous result (spec.clusters). */
  readonly clusters?: Record<string, number>;
  readonly binding?: BindingOptions;
  /** The result; undefined: not schedulable. */
  readonly want: Record<string, number> | undefined;
}

function decide({ allocatable, replicaScheduling, replicas, clusters, binding: options }: Case): ScheduleDecision {
  const fleet = Object.entries(allocatable).map(([name, room]) => cluster(name, { allocatable: { pods: room + (clusters?.[name] ?? 0) } }));
  const pending: ResourceBinding = binding('web', { request: {}, replicas, placement: { replicaScheduling }, ...(clusters ? { clusters } : {}), ...options });
  return scheduleBinding(pending, new SchedulingSnapshot(fleet, [pending]), OFF);
}

function resultOf(decision: ScheduleDecision): Record<string, number> | undefined {
  return decision.result === 'scheduled' ? Object.fromEntries(decision.targets.map((t) => [t.name, t.replicas])) : undefined;
}

const plenty = (...names: string[]) => Object.fromEntries(names.map((name) => [name, 100]));

const CASES: readonly Case[] = [
  // division_algorithm_test.go, Test_dynamicDivideReplicas: a first division of the replicas by available replicas.
  { source: 'division_algorithm_test.go, Test_dynamicDivideReplicas, "replica 12, dynamic weight 18:12:6"', allocatable: { member1: 18, member2: 12, member3: 6 }, replicaScheduling: DYNAMIC, replicas: 12, want: { member1: 6, member2: 4, member3: 2 } },
  { source: 'division_algorithm_test.go, Test_dynamicDivideReplicas, "replica 12, dynamic weight 20:12:6"', allocatable: { member1: 20, member2: 12, member3: 6 }, replicaScheduling: DYNAMIC, replicas: 12, want: { member1: 6, member2: 4, member3: 2 } },
  { source: 'division_algorithm_test.go, Test_dynamicDivideReplicas, "replica 12, dynamic weight 6:12:6"', allocatable: { member1: 6, member2: 12, member3: 6 }, replicaScheduling: DYNAMIC, replicas: 12, want: { member1: 3, member2: 6, member3: 3 } },
  { source: 'division_algorithm_test.go, Test_dynamicDivideReplicas, "replica 12, aggregated 12:6:6"', allocatable: { member2: 12, member1: 6, member3: 6 }, replicaScheduling: AGGREGATED, replicas: 12, want: { member2: 12 } },
  { source: 'division_algorithm_test.go, Test_dynamicDivideReplicas, "replica 12, aggregated 6:6:6"', allocatable: { member1: 6, member2: 6, member3: 6 }, replicaScheduling: AGGREGATED, replicas: 12, want: { member1: 6, member2: 6 } },

  // assignment_test.go, Test_dynamicScale: Steady scaling of a placed binding.
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 6, dynamic weighted 1:1:1"', allocatable: { member1: 1, member2: 1, member3: 1 }, replicaScheduling: DYNAMIC, replicas: 6, clusters: { member1: 2, member2: 4, member3: 6 }, want: { member1: 1, member2: 2, member3: 3 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, dynamic weighted 10:10:10"', allocatable: { member1: 10, member2: 10, member3: 10 }, replicaScheduling: DYNAMIC, replicas: 24, clusters: { member1: 2, member2: 4, member3: 6 }, want: { member1: 6, member2: 8, member3: 10 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, dynamic weighted 1:1:1"', allocatable: { member1: 1, member2: 1, member3: 1 }, replicaScheduling: DYNAMIC, replicas: 24, clusters: { member1: 2, member2: 4, member3: 6 }, want: undefined },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 6, aggregated 1:1:1"', allocatable: { member1: 1, member2: 1, member3: 1 }, replicaScheduling: AGGREGATED, replicas: 6, clusters: { member1: 4, member2: 8 }, want: { member2: 6 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 8, aggregated 100:100"', allocatable: { member1: 100, member2: 100 }, replicaScheduling: AGGREGATED, replicas: 8, clusters: { member1: 4, member2: 8 }, want: { member2: 8 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, aggregated 4:6:8"', allocatable: { member1: 4, member2: 6, member3: 8 }, replicaScheduling: AGGREGATED, replicas: 24, clusters: { member1: 4, member2: 8 }, want: { member1: 7, member2: 12, member3: 5 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, aggregated 6:6:20"', allocatable: { member1: 6, member2: 6, member3: 20 }, replicaScheduling: AGGREGATED, replicas: 24, clusters: { member1: 4, member2: 8 }, want: { member1: 10, member2: 14 } },
  { source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, aggregated 1:1:1"', allocatable: { member1: 1, member2: 1, member3: 1 }, replicaScheduling: AGGREGATED, replicas: 24, clusters: { member1: 4, member2: 8 }, want: undefined },
  {
    source: 'assignment_test.go, Test_dynamicScale, "replica 12 -> 24, aggregated 4:8:12, with cluster2 disappeared and cluster4 appeared"',
    allocatable: { member1: 4, member3: 8, member4: 12 },
    replicaScheduling: AGGREGATED,
    replicas: 24,
    clusters: { member1: 4, member2: 8 },
    want: { member1: 7, member3: 7, member4: 10 },
  },

  // assignment_test.go, Test_dynamicScaleUp: a first placement is a scale-up from nothing.
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, dynamic weight 6:8:10"', allocatable: { member1: 6, member2: 8, member3: 10 }, replicaScheduling: DYNAMIC, replicas: 12, want: { member1: 3, member2: 4, member3: 5 } },
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, dynamic weight 8:8:10"', allocatable: { member1: 8, member2: 8, member3: 10 }, replicaScheduling: DYNAMIC, replicas: 12, want: { member1: 4, member2: 4, member3: 4 } },
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, dynamic weight 3:3:3"', allocatable: { member1: 3, member2: 3, member3: 3 }, replicaScheduling: DYNAMIC, replicas: 12, want: undefined },
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, aggregated 6:8:10"', allocatable: { member1: 6, member2: 8, member3: 10 }, replicaScheduling: AGGREGATED, replicas: 12, want: { member2: 5, member3: 7 } },
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, aggregated 12:8:10"', allocatable: { member1: 12, member2: 8, member3: 10 }, replicaScheduling: AGGREGATED, replicas: 12, want: { member1: 12 } },
  { source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, aggregated 3:3:3"', allocatable: { member1: 3, member2: 3, member3: 3 }, replicaScheduling: AGGREGATED, replicas: 12, want: undefined },
  {
    source: 'assignment_test.go, Test_dynamicScaleUp, "replica 12, dynamic weight 3:3, with cluster3 disappeared and cluster2 appeared"',
    allocatable: { member1: 3, member2: 3 },
    replicaScheduling: DYNAMIC,
    replicas: 12,
    clusters: { member1: 6, member3: 6 },
    want: { member1: 9, member2: 3 },
  },

  // assignment_test.go, Test_assignByDynamicStrategy_UnschedulableErrorPreserved: too little room is "unschedulable".
  { source: 'assignment_test.go, Test_assignByDynamicStrategy_UnschedulableErrorPreserved', allocatable: { member1: 3 }, replicaScheduling: DYNAMIC, replicas: 10, want: undefined },

  // assignment_test.go, Test_assignByStaticWeightStrategy (Karmada's clusters report no resources; static weights
  // ignore room there, outrank needs room for each share: plenty is given).
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "replica 12, weight 3:2:1"', allocatable: plenty('member1', 'member2', 'member3'), replicaScheduling: staticWeights({ member1: 3, member2: 2, member3: 1 }), replicas: 12, want: { member1: 6, member2: 4, member3: 2 } },
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "replica 12, default weight"', allocatable: plenty('member1', 'member2', 'member3'), replicaScheduling: DEFAULT_WEIGHTS, replicas: 12, want: { member1: 4, member2: 4, member3: 4 } },
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "replica 13, weight 3:2:1"', allocatable: plenty('member1', 'member2', 'member3'), replicaScheduling: staticWeights({ member1: 3, member2: 2, member3: 1 }), replicas: 13, want: { member1: 7, member2: 4, member3: 2 } },
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "replica 14, weight 3:2:1"', allocatable: plenty('member1', 'member2', 'member3'), replicaScheduling: staticWeights({ member1: 3, member2: 2, member3: 1 }), replicas: 14, want: { member1: 7, member2: 5, member3: 2 } },
  // Karmada's {member1: 0, member2: 0}, without the zero entries.
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "insufficient replica assignment should get 0 replica"', allocatable: plenty('member1', 'member2'), replicaScheduling: staticWeights({ member1: 1, member2: 1 }), replicas: 0, want: {} },
  { source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "selected cluster without weight should be ignored"', allocatable: plenty('member1', 'member2'), replicaScheduling: staticWeights({ member1: 1 }), replicas: 2, want: { member1: 2 } },
  {
    source: 'assignment_test.go, Test_assignByStaticWeightStrategy, "cluster with multiple weights"',
    allocatable: plenty('member1', 'member2'),
    replicaScheduling: {
      ...DEFAULT_WEIGHTS,
      weightPreference: {
        staticWeightList: [
          { targetCluster: { clusterNames: ['member1'] }, weight: 1 },
          { targetCluster: { clusterNames: ['member2'] }, weight: 1 },
          { targetCluster: { clusterNames: ['member1'] }, weight: 2 },
        ],
      },
    },
    replicas: 3,
    want: { member1: 2, member2: 1 },
  },

  // assignment_test.go, Test_assignByDuplicatedStrategy.
  { source: 'assignment_test.go, Test_assignByDuplicatedStrategy, "test with multiple cluster"', allocatable: plenty('member1', 'member2'), replicaScheduling: DUPLICATED, replicas: 2, want: { member1: 2, member2: 2 } },
  // Karmada's assignByDuplicatedStrategy gives nothing for no candidates; its caller refuses them (common.go, AssignReplicas: "no clusters available to schedule").
  { source: 'assignment_test.go, Test_assignByDuplicatedStrategy, "the target cluster is null"', allocatable: {}, replicaScheduling: DUPLICATED, replicas: 2, want: undefined },
  { source: 'assignment_test.go, Test_assignByDuplicatedStrategy, "replicas is null"', allocatable: plenty('member1', 'member2'), replicaScheduling: DUPLICATED, replicas: 0, want: { member1: 0, member2: 0 } },
];

describe("Karmada's assignment tables, through scheduleBinding", () => {
  it.each(CASES)('$source', (testCase) => {
    expect(resultOf(decide(testCase))).toEqual(testCase.want);
  });
});

/**
 * generic_scheduler_test.go, Test_DistributionOfReplicas: static weights divide every replica afresh, so the
 * "after change" result follows from the new spec alone, whatever was placed before. Here each "before change" case
 * is placed first and its "after change" case is scheduled on top of that placement, as a second step.
 */
interface Step {
  readonly candidates: readonly string[];
  readonly weights: Record<string, number>;
  readonly replicas: number;
  readonly want: Record<string, number>;
}

const DISTRIBUTION: ReadonlyArray<{ readonly name: string; readonly before: Step; readonly after?: Step }> = [
  {
    name: '"replica 3, static weighted 1:1"',
    before: { candidates: ['member1', 'member2'], weights: { member1: 1, member2: 1 }, replicas: 3, want: { member1: 2, member2: 1 } },
  },
  {
    name: '"replica 3, static weighted 1:1:1, change replicas from 3 to 5"',
    before: { candidates: ['member1', 'member2', 'member3'], weights: { member1: 1, member2: 1, member3: 1 }, replicas: 3, want: { member1: 1, member2: 1, member3: 1 } },
    after: { candidates: ['member1', 'member2', 'member3'], weights: { member1: 1, member2: 1, member3: 1 }, replicas: 5, want: { member1: 2, member2: 2, member3: 1 } },
  },
  {
    name: '"replica 7, static weighted 2:1:1:1, change replicas from 7 to 8"',
    before: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 2, member2: 1, member3: 1, member4: 1 }, replicas: 7, want: { member1: 3, member2: 2, member3: 1, member4: 1 } },
    after: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 2, member2: 1, member3: 1, member4: 1 }, replicas: 8, want: { member1: 3, member2: 2, member3: 2, member4: 1 } },
  },
  {
    name: '"replica 9, static weighted 2:1:1:1, change replicas from 9 to 8"',
    before: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 2, member2: 1, member3: 1, member4: 1 }, replicas: 9, want: { member1: 3, member2: 2, member3: 2, member4: 2 } },
    after: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 2, member2: 1, member3: 1, member4: 1 }, replicas: 8, want: { member1: 3, member2: 2, member3: 2, member4: 1 } },
  },
  {
    name: '"replica 6, static weighted 1:1:1:1, change static weighted from 1:1:1:1 to 2:1:1:1"',
    before: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 1, member2: 1, member3: 1, member4: 1 }, replicas: 6, want: { member1: 2, member2: 2, member3: 1, member4: 1 } },
    after: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 2, member2: 1, member3: 1, member4: 1 }, replicas: 6, want: { member1: 3, member2: 1, member3: 1, member4: 1 } },
  },
  {
    name: '"replica 5, static weighted 1:1:1, add a new cluster and change static weight to 1:1:1:1"',
    before: { candidates: ['member1', 'member2', 'member3'], weights: { member1: 1, member2: 1, member3: 1 }, replicas: 5, want: { member1: 2, member2: 2, member3: 1 } },
    after: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 1, member2: 1, member3: 1, member4: 1 }, replicas: 5, want: { member1: 2, member2: 1, member3: 1, member4: 1 } },
  },
  {
    name: '"replica 6, static weighted 1:1:1:1, remove a cluster and change static weight to 1:1:1"',
    before: { candidates: ['member1', 'member2', 'member3', 'member4'], weights: { member1: 1, member2: 1, member3: 1, member4: 1 }, replicas: 6, want: { member1: 2, member2: 2, member3: 1, member4: 1 } },
    after: { candidates: ['member1', 'member2', 'member3'], weights: { member1: 1, member2: 1, member3: 1 }, replicas: 6, want: { member1: 2, member2: 2, member3: 2 } },
  },
];

describe('generic_scheduler_test.go, Test_DistributionOfReplicas, through scheduleBinding', () => {
  const stepCase = (step: Step, clusters?: Record<string, number>): Case => ({
    source: '',
    allocatable: plenty(...step.candidates),
    replicaScheduling: staticWeights(step.weights),
    replicas: step.replicas,
    want: step.want,
    ...(clusters ? { clusters } : {}),
  });

  it.each(DISTRIBUTION)('$name', ({ before, after }) => {
    const placed = resultOf(decide(stepCase(before)));
    expect(placed, 'before change').toEqual(before.want);
    if (after) expect(resultOf(decide(stepCase(after, placed))), 'after change').toEqual(after.want);
  });
});

describe("Fresh mode (assignment.go, dynamicFreshScale): spec.rescheduleTriggeredAt later than status.lastScheduledTime", () => {
  const placedAt = '2026-01-01T00:00:00.000Z';
  const later = '2026-01-01T00:01:00.000Z';
  // Test_dynamicScale's "replica 12 -> 24, aggregated 6:6:20", asked afresh: each cluster's room counts what the
  // binding runs there (10, 14, 20), and the fewest roomiest clusters take every replica.
  const scaled: Case = {
    source: '',
    allocatable: { member1: 6, member2: 6, member3: 20 },
    replicaScheduling: AGGREGATED,
    replicas: 24,
    clusters: { member1: 4, member2: 8 },
    want: undefined,
  };

  it('divides every replica anew, as if none were placed', () => {
    expect(resultOf(decide({ ...scaled, binding: { lastScheduledTime: placedAt, rescheduleTriggeredAt: later } }))).toEqual({ member2: 10, member3: 14 });
  });

  it.each([
    ['no lastScheduledTime (the first schedule is awaited)', { rescheduleTriggeredAt: later }],
    ['a trigger before the last schedule', { lastScheduledTime: later, rescheduleTriggeredAt: placedAt }],
    ['a trigger at the last schedule', { lastScheduledTime: placedAt, rescheduleTriggeredAt: placedAt }],
  ])('not with %s: Steady', (_, options) => {
    expect(resultOf(decide({ ...scaled, binding: options }))).toEqual({ member1: 10, member2: 14 });
  });

  it('a binding that has not changed is divided again the same way in Steady mode, anew in Fresh mode', () => {
    const placed: Case = { source: '', allocatable: { member1: 0, member2: 0, member3: 12 }, replicaScheduling: AGGREGATED, replicas: 12, clusters: { member1: 6, member2: 6 }, want: undefined };
    expect(resultOf(decide({ ...placed, binding: { lastScheduledTime: placedAt } }))).toEqual({ member1: 6, member2: 6 });
    expect(resultOf(decide({ ...placed, binding: { lastScheduledTime: placedAt, rescheduleTriggeredAt: later } }))).toEqual({ member3: 12 });
  });

  it('tries the clusterAffinities terms again from the first (scheduler.go, scheduleResourceBindingWithClusterAffinities)', () => {
    const fleet = [cluster('member1', { allocatable: { pods: 10 } }), cluster('member2', { allocatable: { pods: 10 } })];
    const placement = {
      clusterAffinities: [
        { affinityName: 'primary', clusterNames: ['member1'] },
        { affinityName: 'backup', clusterNames: ['member2'] },
      ],
      replicaScheduling: DYNAMIC,
    };
    const options = { request: {}, replicas: 2, placement, clusters: { member2: 2 }, observedAffinity: 'backup', lastScheduledTime: placedAt };
    const steady = binding('web', options);
    const fresh = binding('web', { ...options, rescheduleTriggeredAt: later });
    expect(scheduleBinding(steady, new SchedulingSnapshot(fleet, [steady]), OFF)).toMatchObject({ targets: [{ name: 'member2', replicas: 2 }], affinityName: 'backup' });
    expect(scheduleBinding(fresh, new SchedulingSnapshot(fleet, [fresh]), OFF)).toMatchObject({ targets: [{ name: 'member1', replicas: 2 }], affinityName: 'primary' });
  });
});

describe('Webster ties follow the workload uid (pkg/util/helper/binding.go, tieBreakerByUID)', () => {
  // binding_test.go's evenUID and oddUID: 5 replicas over two equal clusters leave one seat tied.
  const even = '4858ca61-3ff8-4095-8267-f3d059d8074c';
  const odd = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';
  const tied = (strategy: Record<string, unknown>, resourceUid?: string): Case => ({
    source: '',
    allocatable: { a: 10, b: 10 },
    replicaScheduling: strategy,
    replicas: 5,
    want: undefined,
    ...(resourceUid ? { binding: { resourceUid } } : {}),
  });

  it.each([
    ['by available replicas', DYNAMIC],
    ['by static weights', staticWeights({ a: 1, b: 1 })],
  ])('%s: an odd hash favours the later name, an even one or none the earlier', (_, strategy) => {
    expect(resultOf(decide(tied(strategy, odd)))).toEqual({ a: 2, b: 3 });
    expect(resultOf(decide(tied(strategy, even)))).toEqual({ a: 3, b: 2 });
    expect(resultOf(decide(tied(strategy)))).toEqual({ a: 3, b: 2 });
  });
});
