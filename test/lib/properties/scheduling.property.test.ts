/**
 * Property tests of scheduling as a whole: random small fleets and workloads run through the real
 * controllers (MemorySystem), and random snapshots given to scheduleBinding directly. The model here
 * (quantities in whole steps, the preemptibility order, the victim rules) is written from the design
 * documents, not from the implementation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { KubeEvent } from '../../../lib/api/event';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { scheduleBinding, type ScheduleDecision } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { nextEventLoopTurn } from '../../support/event-loop-turn';
import {
  applyAll,
  cluster,
  conditionOf,
  deployment,
  eventsWithReason,
  expectAllocationsMatchBindings,
  newSystem,
  priorityClass,
  propagationPolicy,
  queueDepths,
  refs,
  SPEC,
  type Manifest,
} from '../controllers/support';

const RESOURCES = ['cpu', 'memory', 'nvidia.com/gpu'] as const;
type Resource = (typeof RESOURCES)[number];
/** Amounts in whole steps of each resource (500m CPU, 512Mi memory, 1 GPU), so that the model compares exactly. */
type Units = Partial<Record<Resource, number>>;

const QUANTITY: Record<Resource, (units: number) => string> = {
  cpu: (units) => `${units * 500}m`,
  memory: (units) => `${units * 512}Mi`,
  'nvidia.com/gpu': (units) => String(units),
};

function quantities(units: Units, keepZeros = false): Record<string, string> {
  return Object.fromEntries(
    Object.entries(units)
      .filter(([, amount]) => keepZeros || amount > 0)
      .map(([resource, amount]) => [resource, QUANTITY[resource as Resource](amount)]),
  );
}

function requestsResources(request: Units): boolean {
  return Object.values(request).some((amount) => amount > 0);
}

// ---------------------------------------------------------------------------------------------
// The model

interface ClusterModel {
  readonly name: string;
  readonly allocatable: Units;
  readonly allocated: Units;
  /** Pod limit; undefined: the test fixture's TEST_CLUSTER_PODS, more than any scenario places. */
  readonly pods: number | undefined;
  readonly ready: boolean;
}

type Strategy = 'duplicated' | 'weighted' | 'aggregated' | 'dynamic';
type PreemptibilitySource = 'none' | 'policy' | 'label' | 'pod-label';
type PreemptibilityValue = 'preemptible' | 'non-preemptible' | 'invalid';

interface WorkloadModel {
  readonly name: string;
  readonly priority: number;
  readonly preemptionPolicy: 'PreemptLowerPriority' | 'Never';
  readonly preemptibilitySource: PreemptibilitySource;
  readonly preemptibilityValue: PreemptibilityValue;
  readonly strategy: Strategy;
  readonly replicas: number;
  readonly request: Units;
  /** Cluster names of a clusterAffinity; undefined: any cluster. */
  readonly affinity: readonly string[] | undefined;
  readonly applyStep: number;
  /** The step in which the template is deleted, if any (always after applyStep). */
  readonly deleteStep: number | undefined;
  /** Position within its step, so that workloads are applied in random order. */
  readonly order: number;
}

/** Preemptibility separate from priority (001): spec field, then owner label, then pod label (invalid values skipped), then priority < 100. */
function modelPreemptible(workload: WorkloadModel): boolean {
  const { preemptibilitySource: source, preemptibilityValue: value } = workload;
  if (source !== 'none' && value !== 'invalid') return value === 'preemptible';
  return workload.priority < 100;
}

function free(clusterModel: ClusterModel, resource: Resource): number {
  return (clusterModel.allocatable[resource] ?? 0) - (clusterModel.allocated[resource] ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Arbitraries

const PRIORITIES = [-1, 0, 1, 2, 5, 10, 50, 99, 100, 150];

const resourcesArb = fc.shuffledSubarray([...RESOURCES], { minLength: 1, maxLength: 3 });

function unitsArb(resources: readonly Resource[], min: number, max: number): fc.Arbitrary<Units> {
  return fc
    .tuple(...resources.map(() => fc.integer({ min, max })))
    .map((amounts) => Object.fromEntries(resources.map((r, i) => [r, amounts[i]!])));
}

/** A per-replica request: mostly one or two steps of each resource, sometimes none of one. */
function requestArb(resources: readonly Resource[]): fc.Arbitrary<Units> {
  return fc
    .tuple(...resources.map(() => fc.constantFrom(0, 1, 1, 1, 2, 2, 3)))
    .map((amounts) => Object.fromEntries(resources.map((r, i) => [r, amounts[i]!])));
}

/** Mostly roomy, ready clusters, some with a pod limit or with part of their room already allocated. */
function clusterArb(resources: readonly Resource[]): fc.Arbitrary<Omit<ClusterModel, 'name'>> {
  return fc
    .record({
      allocatable: unitsArb(resources, 2, 10),
      allocated: unitsArb(resources, 0, 2),
      pods: fc.option(fc.integer({ min: 1, max: 8 }), { nil: undefined, freq: 3 }),
      ready: fc.integer({ min: 0, max: 9 }).map((n) => n > 0),
    })
    .map((c) => ({
      ...c,
      allocated: Object.fromEntries(resources.map((r) => [r, Math.min(c.allocated[r] ?? 0, c.allocatable[r] ?? 0)])) as Units,
    }));
}

/** Later steps lean to higher priorities, so that workloads arriving later often have to preempt. */
function workloadArb(resources: readonly Resource[], clusterNames: readonly string[], steps: number): fc.Arbitrary<Omit<WorkloadModel, 'name'>> {
  return fc
    .nat({ max: steps - 1 })
    .chain((applyStep) =>
      fc.record({
        applyStep: fc.constant(applyStep),
        priority: fc.constantFrom(...PRIORITIES.slice(applyStep * 3)),
        preemptionPolicy: fc.constantFrom('PreemptLowerPriority' as const, 'PreemptLowerPriority' as const, 'Never' as const),
        preemptibilitySource: fc.constantFrom<PreemptibilitySource>('none', 'none', 'policy', 'label', 'pod-label'),
        preemptibilityValue: fc.constantFrom<PreemptibilityValue>('preemptible', 'non-preemptible', 'invalid'),
        strategy: fc.constantFrom<Strategy>('duplicated', 'weighted', 'aggregated', 'dynamic'),
        replicas: fc.integer({ min: 1, max: 3 }),
        request: requestArb(resources),
        affinity: fc.option(fc.subarray([...clusterNames], { minLength: 1 }), { nil: undefined, freq: 3 }),
        deleteAfter: fc.option(fc.integer({ min: 1, max: 2 }), { nil: undefined, freq: 2 }),
        order: fc.nat(),
      }),
    )
    .map(({ deleteAfter, ...workload }) => {
      const deleteStep = deleteAfter === undefined ? undefined : workload.applyStep + deleteAfter;
      // The policy field cannot be invalid: such a policy is rejected.
      const invalidField = workload.preemptibilitySource === 'policy' && workload.preemptibilityValue === 'invalid';
      return {
        ...workload,
        preemptibilityValue: invalidField ? 'preemptible' : workload.preemptibilityValue,
        deleteStep: deleteStep !== undefined && deleteStep < steps ? deleteStep : undefined,
      };
    });
}

type ClusterOp = 'delete' | 'not-ready' | 'ready';

interface FleetScenario {
  readonly resources: readonly Resource[];
  readonly clusters: readonly ClusterModel[];
  readonly steps: number;
  readonly workloads: readonly WorkloadModel[];
  /** Changes to the fleet at the start of a step: at most one per cluster and step. */
  readonly clusterOps: ReadonlyArray<{ readonly step: number; readonly cluster: string; readonly op: ClusterOp }>;
}

function fleetScenarioArb(churn: boolean): fc.Arbitrary<FleetScenario> {
  return fc
    .record({
      resources: resourcesArb,
      clusterCount: fc.integer({ min: 1, max: 4 }),
      steps: churn ? fc.constantFrom(2, 3, 4, 4) : fc.constantFrom(1, 2, 3, 3),
    })
    .chain(({ resources, clusterCount, steps }) => {
      const names = Array.from({ length: clusterCount }, (_, i) => `c${i}`);
      const clusterOp = fc.record({
        step: fc.nat({ max: steps - 1 }),
        cluster: fc.constantFrom(...names),
        op: fc.constantFrom<ClusterOp>('delete', 'not-ready', 'ready'),
      });
      return fc.record({
        resources: fc.constant(resources),
        clusters: fc.tuple(...names.map(() => clusterArb(resources))).map((clusters) => clusters.map((c, i) => ({ ...c, name: names[i]! }))),
        steps: fc.constant(steps),
        workloads: fc
          .array(workloadArb(resources, names, steps), { minLength: 1, maxLength: 7 })
          .map((workloads) => workloads.map((w, i) => ({ ...w, name: `w${i}` }))),
        clusterOps: churn
          ? fc.uniqueArray(clusterOp, { selector: (o) => `${o.step}/${o.cluster}`, maxLength: 2 * steps })
          : fc.constant([]),
      });
    });
}

// ---------------------------------------------------------------------------------------------
// Manifests from the model

function className(priority: number, policy: WorkloadModel['preemptionPolicy']): string {
  return `prio${priority < 0 ? `m${-priority}` : priority}-${policy === 'Never' ? 'never' : 'preempt'}`;
}

const PREEMPTIBILITY_LABEL = 'kai.scheduler/preemptibility';

function labelValue(workload: WorkloadModel): string {
  return workload.preemptibilityValue === 'invalid' ? 'semi-preemptible' : workload.preemptibilityValue;
}

function placementOf(workload: WorkloadModel): Manifest {
  const replicaScheduling = {
    duplicated: { replicaSchedulingType: 'Duplicated' },
    weighted: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' },
    aggregated: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    dynamic: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } },
  }[workload.strategy];
  return { ...(workload.affinity ? { clusterAffinity: { clusterNames: workload.affinity } } : {}), replicaScheduling };
}

function workloadManifests(workload: WorkloadModel): Manifest[] {
  const labels = workload.preemptibilitySource === 'label' ? { [PREEMPTIBILITY_LABEL]: labelValue(workload) } : undefined;
  const podLabels = workload.preemptibilitySource === 'pod-label' ? { [PREEMPTIBILITY_LABEL]: labelValue(workload) } : undefined;
  return [
    propagationPolicy(`for-${workload.name}`, {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: workload.name }],
      schedulePriority: { priorityClassName: className(workload.priority, workload.preemptionPolicy) },
      ...(workload.preemptibilitySource === 'policy' ? { preemptibility: workload.preemptibilityValue } : {}),
      placement: placementOf(workload),
    }),
    deployment(workload.name, {
      replicas: workload.replicas,
      requests: quantities(workload.request),
      ...(labels ? { labels } : {}),
      ...(podLabels ? { podLabels } : {}),
    }),
  ];
}

function clusterManifest(model: ClusterModel): Manifest {
  return cluster(model.name, { ...quantities(model.allocatable, true), ...(model.pods === undefined ? {} : { pods: String(model.pods) }) }, {
    allocated: quantities(model.allocated, true),
    ready: model.ready,
  });
}

function priorityClassManifests(): Manifest[] {
  return PRIORITIES.flatMap((value) =>
    (['PreemptLowerPriority', 'Never'] as const).map((preemptionPolicy) => priorityClass(className(value, preemptionPolicy), value, { preemptionPolicy })),
  );
}

// ---------------------------------------------------------------------------------------------
// Invariants

function workloadName(bindingName: string): string {
  return bindingName.replace(/-deployment$/, '');
}

const PREEMPTED_BY = /preempted by ResourceBinding default\/(\S+)-deployment/;

/** The workload whose binding preempted the one this Preempted event is about. */
function preemptorOf(event: KubeEvent): string {
  if (event.related) return workloadName(event.related.name);
  const match = PREEMPTED_BY.exec(event.message);
  expect(match, event.message).not.toBeNull();
  return match![1]!;
}

/** What the fleet looks like now: clusters that exist, and whether each is ready. */
type FleetState = ReadonlyMap<string, { readonly model: ClusterModel; readonly ready: boolean }>;

async function checkInvariants(system: MemorySystem, scenario: FleetScenario, live: ReadonlySet<string>, fleet: FleetState, churned: boolean): Promise<void> {
  const models = new Map(scenario.workloads.map((w) => [w.name, w]));
  expect(system.handlerErrors).toEqual([]);
  expect(Object.values(queueDepths(system)).reduce((a, b) => a + b, 0)).toBe(0);

  const bindings = await listBindings(system.context);
  expect(bindings.map((b) => workloadName(b.metadata.name)).sort()).toEqual([...live].sort());

  // No cluster over capacity in any resource (000: preemption only when a cluster lacks room).
  for (const { model: clusterModel } of fleet.values()) {
    const used: Record<string, number> = {};
    for (const binding of bindings) {
      const model = models.get(workloadName(binding.metadata.name))!;
      const target = binding.spec.clusters?.find((t) => t.name === clusterModel.name);
      if (!target) continue;
      for (const [resource, amount] of Object.entries(model.request)) used[resource] = (used[resource] ?? 0) + amount * target.replicas;
      used.pods = (used.pods ?? 0) + target.replicas;
    }
    for (const resource of RESOURCES) {
      if ((used[resource] ?? 0) > 0) expect(used[resource], `${resource} on ${clusterModel.name}`).toBeLessThanOrEqual(free(clusterModel, resource));
    }
    if (clusterModel.pods !== undefined) expect(used.pods ?? 0, `pods on ${clusterModel.name}`).toBeLessThanOrEqual(clusterModel.pods);
  }

  await expectAllocationsMatchBindings(system);

  const ready = new Set([...fleet.values()].filter((c) => c.ready).map((c) => c.model.name));
  for (const binding of bindings) {
    const model = models.get(workloadName(binding.metadata.name))!;
    expect(binding.spec.schedulePriority).toEqual({ priority: model.priority, preemptionPolicy: model.preemptionPolicy });
    expect(binding.spec.preemptibility).toBe(modelPreemptible(model) ? 'preemptible' : 'non-preemptible');
    const targets = binding.spec.clusters ?? [];
    const scheduled = conditionOf(binding, 'Scheduled')?.status;
    if (targets.length === 0) {
      expect(scheduled).toBe('False');
      continue;
    }
    // A binding whose failover found no room keeps its old placement and says Scheduled=False.
    if (churned && scheduled === 'False') continue;
    expect(scheduled).toBe('True');
    const eligible = [...ready].filter((name) => !model.affinity || model.affinity.includes(name));
    for (const target of targets) expect(eligible).toContain(target.name);
    if (model.strategy !== 'duplicated') {
      expect(targets.reduce((sum, t) => sum + t.replicas, 0)).toBe(model.replicas);
      for (const target of targets) expect(target.replicas).toBeGreaterThan(0);
    } else if (!churned) {
      // Clusters that become ready later do not widen a Duplicated placement, so this holds only on a steady fleet.
      expect(targets).toEqual(eligible.sort().map((name) => ({ name, replicas: model.replicas })));
    } else {
      for (const target of targets) expect(target.replicas).toBe(model.replicas);
    }
  }

  // Every victim had strictly lower priority than its preemptor, was preemptible and requested resources.
  for (const event of await eventsWithReason(system, 'Preempted')) {
    const preemptor = models.get(preemptorOf(event))!;
    const victim = models.get(workloadName(event.involvedObject.name))!;
    expect(preemptor.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(victim.priority).toBeLessThan(preemptor.priority);
    expect(modelPreemptible(victim)).toBe(true);
    expect(requestsResources(victim.request)).toBe(true);
    // The event records what the decision was made on.
    expect(event.metadata.annotations).toEqual({
      'outrank.io/preemptor-priority': String(preemptor.priority),
      'outrank.io/victim-priority': String(victim.priority),
      'outrank.io/victim-preemptibility': 'preemptible',
    });
  }

  // Room freed is offered again: nothing waiting (unplaced, or on a cluster gone or not ready) could be
  // placed now without preemption.
  const clusters = await system.store.list<Cluster>('cluster.karmada.io', 'Cluster');
  const waiting = bindings.filter((b) => (b.spec.clusters ?? []).length === 0 || b.spec.clusters!.some((t) => !ready.has(t.name)));
  for (const binding of waiting) {
    const decision = scheduleBinding(binding, new SchedulingSnapshot(clusters, bindings), { preemption: false, victimSearchBudget: 20_000 });
    expect(decision.result, `${binding.metadata.name} fits but was left waiting`).toBe('unschedulable');
  }
}

type MutableFleet = Map<string, { model: ClusterModel; ready: boolean }>;

async function changeCluster(system: MemorySystem, fleet: MutableFleet, model: ClusterModel, op: ClusterOp): Promise<void> {
  if (op === 'delete') {
    if (!fleet.has(model.name)) return;
    await system.objects.delete(refs.cluster(model.name));
    fleet.delete(model.name);
    return;
  }
  const ready = op === 'ready';
  if (fleet.has(model.name)) {
    await system.objects.patch(refs.cluster(model.name), { status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } });
  } else {
    await system.objects.apply(clusterManifest({ ...model, ready }));
  }
  fleet.set(model.name, { model, ready });
}

async function runFleetScenario(scenario: FleetScenario): Promise<void> {
  await nextEventLoopTurn();
  const system = newSystem();
  await applyAll(system, [...scenario.clusters.map(clusterManifest), ...priorityClassManifests()]);
  const fleet: MutableFleet = new Map(scenario.clusters.map((model) => [model.name, { model, ready: model.ready }]));
  const live = new Set<string>();
  let churned = false;
  for (let step = 0; step < scenario.steps; step += 1) {
    for (const { cluster: name, op } of scenario.clusterOps.filter((o) => o.step === step)) {
      await changeCluster(system, fleet, scenario.clusters.find((c) => c.name === name)!, op);
      churned = true;
    }
    for (const workload of scenario.workloads.filter((w) => w.deleteStep === step)) {
      await system.objects.delete(refs.deployment(workload.name));
      live.delete(workload.name);
    }
    const applied = scenario.workloads.filter((w) => w.applyStep === step).sort((a, b) => a.order - b.order);
    for (const workload of applied) {
      for (const manifest of workloadManifests(workload)) await system.objects.apply(manifest);
      live.add(workload.name);
    }
    await system.runUntilIdle();
    await checkInvariants(system, scenario, live, fleet, churned);
  }
}

describe('scheduling through the controllers, on random fleets and workloads', () => {
  it(`${SPEC.priority}, ${SPEC.preemptibility}: after every step no cluster is over capacity, allocations match the bindings, victims were lower-priority and preemptible, and nothing that fits is left waiting`, async () => {
    await fc.assert(fc.asyncProperty(fleetScenarioArb(false), runFleetScenario), { numRuns: 1_200 });
  });

  it(`${SPEC.priority}, ${SPEC.affinity}: the same holds while clusters are deleted, added back, and go not ready and ready again (failover)`, async () => {
    await fc.assert(fc.asyncProperty(fleetScenarioArb(true), runFleetScenario), { numRuns: 800 });
  });

  it('binding priority and preemption (000): a binding woken after another is placed around the room that one will take (a case the property found)', async () => {
    await fc.assert(fc.asyncProperty(fleetScenarioArb(false), runFleetScenario), {
      seed: -1427369301,
      path: '276:7:5:8:7:7:7:8:12:10:10:11:6:12:12:16:20:25:24:27:29:15:28:28:29:11:9:22:8:5:22:23:23:22:14:20:24:24',
      endOnFailure: true,
    });
  });

  it('binding priority and preemption (000): a binding that moves off a cluster frees room for one waiting there (a case the property found)', async () => {
    await fc.assert(fc.asyncProperty(fleetScenarioArb(true), runFleetScenario), {
      seed: 1430352313,
      path: '672:5:3:2:2:3:2:3:3:3:3:3:8:9:8:8:9:13:11:15:5:5:3:5:4:4:3:10:10:11:13:11:11:12:11:11:11:11:11:10:10:10:11:11:16:16:16:18:20:22',
      endOnFailure: true,
    });
  });

  it.each([
    {
      name: 'a cluster deleted lets a static-weight binding fit on the others',
      seed: 727069722,
      path: '110:6:0:0:0:0:1:0:1:2:2:0:1:0:0:1:0:0:1:2:1:1:3:2:2:3:3:7:6:6:6:7:1:7:7:8:9:9:10:10:10:10:9:9:9:9:9:9:9:9:9:13:12',
    },
    {
      name: 'a cluster deleted while others come and go',
      seed: 1615558478,
      path: '124:7:0:1:1:0:0:0:0:0:0:1:1:2:1:1:2:3:2:3:3:2:2:2:2:2:2:2:2:2:2:2:3:2:4:5:10:12:15',
    },
    {
      name: 'a waiting binding still placed on a cluster that comes back may use what it holds there',
      seed: -1346960249,
      path: '624:6:0:0:1:2:2:1:1:2:2:3:2:2:3:4:3:3:4:3:3:3:3:5:4:4:0:1:2:3:3:3:3:5:3:3:3:3:3:3:3:8:9:14:11:18',
    },
    { name: 'a binding woken for room that another took first passes the room on to one that fits', arbWithFailover: false, seed: 618140995, path: '403:6:3:4:6:7:6:6:7:7:7:7:10:10:10:13:13:17:15:15:16:16:22:22:22:23:1:21:21:20:20:21:22:22:22:22' },
    { name: 'a binding woken by a cluster change that finds no room passes it on to one that fits', seed: 1644775146, path: '591:10:11:12:12:12:1:1:0:0:8:8:10:7:4:3:3:3:3:3:3:3:3:7:5:6:6:6:8:8:11:11:11:11:7:10:10:10:10:12:17:19:19' },
  ])('binding priority and preemption (000), ordered cluster-affinity groups (004): waiting bindings are woken when a cluster change lets them fit: $name (a case the property found)', async ({ seed, path, arbWithFailover }: { seed: number; path: string; arbWithFailover?: boolean }) => {
    await fc.assert(fc.asyncProperty(fleetScenarioArb(arbWithFailover ?? true), runFleetScenario), { seed, path, endOnFailure: true });
  });
});

// ---------------------------------------------------------------------------------------------
// Victim counts against a brute-force minimum (one cluster, at most 8 candidates)

interface Background {
  readonly priority: number;
  readonly preemptible: boolean;
  readonly request: Units;
  readonly replicas: number;
}

interface VictimScenario {
  readonly resources: readonly Resource[];
  readonly capacity: Units;
  /** Pod limit; undefined: the test fixture's TEST_CLUSTER_PODS, more than any scenario places. */
  readonly pods: number | undefined;
  readonly background: readonly Background[];
  readonly preemptor: { readonly request: Units; readonly replicas: number };
}

/** A cluster just about filled by the background workloads, so that the preemptor usually has to preempt. */
const victimScenarioArb: fc.Arbitrary<VictimScenario> = resourcesArb.chain((resources) =>
  fc
    .record({
      background: fc.array(
        fc.record({
          priority: fc.integer({ min: 0, max: 5 }),
          preemptible: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
          request: unitsArb(resources, 0, 3),
          replicas: fc.integer({ min: 1, max: 2 }),
        }),
        { minLength: 1, maxLength: 8 },
      ),
      slack: unitsArb(resources, 0, 3),
      podSlack: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined, freq: 3 }),
      preemptor: fc.record({ request: unitsArb(resources, 0, 4), replicas: fc.integer({ min: 1, max: 2 }) }),
    })
    .map(({ background, slack, podSlack, preemptor }) => ({
      resources,
      capacity: Object.fromEntries(
        resources.map((r) => [r, background.reduce((sum, b) => sum + (b.request[r] ?? 0) * b.replicas, 0) + (slack[r] ?? 0)]),
      ) as Units,
      pods: podSlack === undefined ? undefined : background.reduce((sum, b) => sum + b.replicas, 0) + podSlack,
      background,
      preemptor,
    })),
);

interface VictimKey {
  readonly count: number;
  readonly max: number;
  readonly sum: number;
}

function keyOf(priorities: readonly number[]): VictimKey {
  return {
    count: priorities.length,
    max: priorities.length === 0 ? -Infinity : Math.max(...priorities),
    sum: priorities.reduce((a, b) => a + b, 0),
  };
}

function compareKeys(a: VictimKey, b: VictimKey): number {
  return a.count - b.count || a.max - b.max || a.sum - b.sum;
}

/** The best victim set by brute force over every subset: fewest, then lowest highest priority, then lowest sum. */
function bruteForceMinimum(scenario: VictimScenario, placed: ReadonlyArray<{ model: Background; replicas: number }>): VictimKey | null {
  const candidates = placed.filter(({ model }) => model.preemptible && requestsResources(model.request));
  const fits = (evicted: ReadonlySet<number>): boolean => {
    const running = placed.filter((_, index) => !evicted.has(index));
    const need = scenario.preemptor.replicas;
    for (const resource of scenario.resources) {
      const amount = scenario.preemptor.request[resource] ?? 0;
      if (amount === 0) continue;
      const used = running.reduce((sum, { model, replicas }) => sum + (model.request[resource] ?? 0) * replicas, 0);
      if ((scenario.capacity[resource] ?? 0) - used < need * amount) return false;
    }
    if (scenario.pods !== undefined) {
      const pods = running.reduce((sum, { replicas }) => sum + replicas, 0);
      if (scenario.pods - pods < need) return false;
    }
    return true;
  };
  let best: VictimKey | null = null;
  for (let mask = 0; mask < 1 << candidates.length; mask += 1) {
    const chosen = candidates.filter((_, bit) => mask & (1 << bit));
    const evicted = new Set(chosen.map((c) => placed.indexOf(c)));
    if (!fits(evicted)) continue;
    const key = keyOf(chosen.map(({ model }) => model.priority));
    if (best === null || compareKeys(key, best) < 0) best = key;
  }
  return best;
}

async function runVictimScenario(scenario: VictimScenario): Promise<void> {
  await nextEventLoopTurn();
  const system = newSystem();
  await applyAll(system, [
    cluster('only', { ...quantities(scenario.capacity, true), ...(scenario.pods === undefined ? {} : { pods: String(scenario.pods) }) }),
    ...[0, 1, 2, 3, 4, 5].map((value) => priorityClass(`p${value}`, value, { preemptionPolicy: 'Never' })),
    priorityClass('urgent', 10),
    propagationPolicy('by-pod-priority', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    }),
  ]);
  await applyAll(
    system,
    scenario.background.map((model, index) =>
      deployment(`b${index}`, {
        replicas: model.replicas,
        priorityClassName: `p${model.priority}`,
        requests: quantities(model.request),
        labels: { [PREEMPTIBILITY_LABEL]: model.preemptible ? 'preemptible' : 'non-preemptible' },
      }),
    ),
  );
  const before = await listBindings(system.context);
  const placed = scenario.background.flatMap((model, index) => {
    const target = before.find((b) => b.metadata.name === `b${index}-deployment`)?.spec.clusters?.[0];
    return target ? [{ model, replicas: target.replicas, name: `b${index}-deployment` }] : [];
  });
  const expected = bruteForceMinimum(scenario, placed);

  await applyAll(system, [
    deployment('preemptor', { replicas: scenario.preemptor.replicas, priorityClassName: 'urgent', requests: quantities(scenario.preemptor.request) }),
  ]);
  const victims = (await eventsWithReason(system, 'Preempted'))
    .filter((event) => preemptorOf(event) === 'preemptor')
    .map((event) => placed.find((p) => p.name === event.involvedObject.name)!);
  const preemptor = (await listBindings(system.context)).find((b) => b.metadata.name === 'preemptor-deployment')!;
  const preemptorPlaced = (preemptor.spec.clusters ?? []).length > 0;

  if (expected === null) {
    expect(victims).toEqual([]);
    expect(preemptorPlaced).toBe(false);
    return;
  }
  expect(preemptorPlaced).toBe(true);
  expect(keyOf(victims.map((v) => v.model.priority))).toEqual(expected);
}

describe(`victim counts equal a brute-force minimum (${SPEC.priority}, "Preemption order")`, () => {
  it(`${SPEC.priority}: on one cluster with at most 8 candidates the victims are the fewest, then the lowest highest priority, then the lowest sum`, async () => {
    await fc.assert(fc.asyncProperty(victimScenarioArb, runVictimScenario), { numRuns: 1_500 });
  });
});

// ---------------------------------------------------------------------------------------------
// scheduleBinding directly: preemption only when no placement without it exists

interface PlacedModel {
  readonly priority: number;
  readonly preemptible: boolean;
  readonly clusterBinding: boolean;
  readonly request: Units;
  readonly targets: ReadonlyArray<{ name: string; replicas: number }>;
}

interface DecisionScenario {
  readonly clusters: readonly ClusterModel[];
  readonly placed: readonly PlacedModel[];
  readonly preemptor: WorkloadModel;
}

const decisionScenarioArb: fc.Arbitrary<DecisionScenario> = fc
  .record({ resources: resourcesArb, clusterCount: fc.integer({ min: 1, max: 4 }) })
  .chain(({ resources, clusterCount }) => {
    const names = Array.from({ length: clusterCount }, (_, i) => `c${i}`);
    return fc.record({
      clusters: fc.tuple(...names.map(() => clusterArb(resources))).map((clusters) => clusters.map((c, i) => ({ ...c, name: names[i]! }))),
      placed: fc.array(
        fc.record({
          priority: fc.integer({ min: 0, max: 10 }),
          preemptible: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
          clusterBinding: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
          request: requestArb(resources),
          targets: fc
            .subarray(names, { minLength: 1, maxLength: Math.min(2, names.length) })
            .chain((chosen) => fc.tuple(...chosen.map((name) => fc.integer({ min: 1, max: 2 }).map((replicas) => ({ name, replicas }))))),
        }),
        { maxLength: 6 },
      ),
      preemptor: workloadArb(resources, names, 1).map((w) => ({ ...w, name: 'preemptor', priority: w.priority + 5 })),
    });
  });

function bindingFor(name: string, kind: 'ResourceBinding' | 'ClusterResourceBinding', spec: Partial<ResourceBinding['spec']>): ResourceBinding {
  return {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: { name, ...(kind === 'ResourceBinding' ? { namespace: 'default' } : {}), generation: 1 },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name }, ...spec },
  };
}

function placedBinding(model: PlacedModel, index: number): ResourceBinding {
  return bindingFor(`placed-${index}`, model.clusterBinding ? 'ClusterResourceBinding' : 'ResourceBinding', {
    replicas: model.targets.reduce((sum, t) => sum + t.replicas, 0),
    ...(requestsResources(model.request) ? { replicaRequirements: { resourceRequest: quantities(model.request) } } : {}),
    schedulePriority: { priority: model.priority, preemptionPolicy: 'Never' },
    preemptibility: model.preemptible ? 'preemptible' : 'non-preemptible',
    clusters: [...model.targets],
  });
}

function preemptorBinding(model: WorkloadModel): ResourceBinding {
  return bindingFor('preemptor', 'ResourceBinding', {
    replicas: model.replicas,
    ...(requestsResources(model.request) ? { replicaRequirements: { resourceRequest: quantities(model.request) } } : {}),
    placement: placementOf(model) as ResourceBinding['spec']['placement'],
    schedulePriority: { priority: model.priority, preemptionPolicy: model.preemptionPolicy },
    preemptibility: 'preemptible',
  });
}

function clusterObject(model: ClusterModel): Cluster {
  return clusterManifest(model) as unknown as Cluster;
}

function decide(scenario: DecisionScenario, preemption: boolean): ScheduleDecision {
  const snapshot = new SchedulingSnapshot(scenario.clusters.map(clusterObject), scenario.placed.map(placedBinding));
  return scheduleBinding(preemptorBinding(scenario.preemptor), snapshot, { preemption, victimSearchBudget: 20_000 });
}

function checkDecision(scenario: DecisionScenario): void {
  const withPreemption = decide(scenario, true);
  const without = decide(scenario, false);
  if (without.result === 'scheduled') {
    // A placement without preemption existed: it is the one chosen, and nobody is preempted.
    expect(withPreemption).toEqual(without);
    expect(without.victims).toEqual([]);
    return;
  }
  if (withPreemption.result === 'unschedulable') return;

  expect(withPreemption.victims.length).toBeGreaterThan(0);
  expect(scenario.preemptor.preemptionPolicy).toBe('PreemptLowerPriority');
  const victimIndexes = new Set(withPreemption.victims.map((v) => Number(v.binding.metadata.name.replace('placed-', ''))));
  for (const index of victimIndexes) {
    const victim = scenario.placed[index]!;
    expect(victim.clusterBinding).toBe(false);
    expect(victim.preemptible).toBe(true);
    expect(victim.priority).toBeLessThan(scenario.preemptor.priority);
    expect(requestsResources(victim.request)).toBe(true);
  }
  // With the victims gone, the preemptor's replicas fit where they were put.
  for (const target of withPreemption.targets) {
    const clusterModel = scenario.clusters.find((c) => c.name === target.name)!;
    const running = scenario.placed.filter((_, index) => !victimIndexes.has(index));
    for (const resource of RESOURCES) {
      const amount = scenario.preemptor.request[resource] ?? 0;
      if (amount === 0) continue;
      const used = running.reduce((sum, p) => sum + (p.request[resource] ?? 0) * (p.targets.find((t) => t.name === target.name)?.replicas ?? 0), 0);
      expect(used + amount * target.replicas, `${resource} on ${target.name}`).toBeLessThanOrEqual(free(clusterModel, resource));
    }
    if (clusterModel.pods !== undefined) {
      const pods = running.reduce((sum, p) => sum + (p.targets.find((t) => t.name === target.name)?.replicas ?? 0), 0);
      expect(pods + target.replicas).toBeLessThanOrEqual(clusterModel.pods);
    }
  }
}

describe(`scheduleBinding preempts only when it must (${SPEC.priority}, "Preemption scenario"; ${SPEC.preemptibility})`, () => {
  it(`${SPEC.priority}: no preemption when a placement without it exists; victims are lower-priority, preemptible ResourceBindings that request resources; the preemptor then fits`, () => {
    fc.assert(fc.property(decisionScenarioArb, checkDecision), { numRuns: 4_000 });
  });
});
