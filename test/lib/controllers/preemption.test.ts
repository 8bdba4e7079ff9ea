import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { FeatureGates } from '../../../lib/config';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { loadScenario } from '../../../lib/simulate/load-scenario';
import { runScenario } from '../../../lib/simulate/run-scenario';
import {
  applyAll,
  bindingOf,
  cluster,
  clusterPropagationPolicy,
  conditionOf,
  deployment,
  eventsWithReason,
  eventSubjects,
  neverClasses,
  newSystem,
  placementOf,
  placementOfDeployment,
  podPriorityPolicy,
  priorityClass,
  propagationPolicy,
  refs,
  SPEC,
} from './support';

type Preemptibility = 'preemptible' | 'non-preemptible';

interface VictimCase {
  readonly name: string;
  readonly spec: string;
  readonly victimPriority: number;
  readonly victimLabels?: Record<string, string>;
  readonly victimPodLabels?: Record<string, string>;
  /** Set: the victim is claimed by its own policy with this preemptibility field. */
  readonly victimPolicyPreemptibility?: Preemptibility;
  /** The victim's CPU request; '0' requests nothing but its pod. */
  readonly victimCpu?: string;
  readonly preemptorPriority: number;
  readonly preemptorPolicy?: 'PreemptLowerPriority' | 'Never';
  readonly preemptorCpu?: string;
  readonly gates?: Partial<FeatureGates>;
  /** Tenancy's grant of non-preemptible work (the victim is in namespace "default"). */
  readonly nonPreemptibleNamespaces?: readonly string[];
  readonly clusterPods?: string;
  readonly preempted: boolean;
}

const LABEL = 'kai.scheduler/preemptibility';

const VICTIM_CASES: readonly VictimCase[] = [
  { name: 'a lower-priority preemptible binding is preempted', spec: SPEC.priority, victimPriority: 1, preemptorPriority: 10, preempted: true },
  { name: 'equal priority is never preempted', spec: SPEC.priority, victimPriority: 10, preemptorPriority: 10, preempted: false },
  { name: 'higher priority is never preempted', spec: SPEC.priority, victimPriority: 20, preemptorPriority: 10, preempted: false },
  {
    name: 'a preemptor with preemptionPolicy Never does not preempt',
    spec: SPEC.priority,
    victimPriority: 1,
    preemptorPriority: 10,
    preemptorPolicy: 'Never',
    preempted: false,
  },
  {
    name: 'no preemption with the PriorityBasedPreemptiveScheduling gate off',
    spec: SPEC.priority,
    victimPriority: 1,
    preemptorPriority: 10,
    gates: { PriorityBasedPreemptiveScheduling: false },
    preempted: false,
  },
  {
    name: 'no preemption when evicting every candidate would still not make room',
    spec: SPEC.priority,
    victimPriority: 1,
    preemptorPriority: 10,
    preemptorCpu: '5',
    preempted: false,
  },
  {
    name: 'a binding that requests no resources is no victim (its preemption frees nothing)',
    spec: SPEC.priority,
    victimPriority: 1,
    victimCpu: '0',
    clusterPods: '1',
    preemptorPriority: 10,
    preemptorCpu: '1',
    preempted: false,
  },
  {
    name: 'the policy field non-preemptible protects a low-priority binding',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimPolicyPreemptibility: 'non-preemptible',
    preemptorPriority: 10,
    preempted: false,
  },
  {
    name: 'the template label non-preemptible protects a low-priority binding',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimLabels: { [LABEL]: 'non-preemptible' },
    preemptorPriority: 10,
    preempted: false,
  },
  {
    name: 'the pod label non-preemptible protects a low-priority binding',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimPodLabels: { [LABEL]: 'non-preemptible' },
    preemptorPriority: 10,
    preempted: false,
  },
  {
    name: 'with tenancy, a template label non-preemptible from a namespace not granted it is ignored: the binding is preempted',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimLabels: { [LABEL]: 'non-preemptible' },
    nonPreemptibleNamespaces: ['platform'],
    preemptorPriority: 100_000,
    preempted: true,
  },
  {
    name: 'with tenancy, a pod label non-preemptible from a namespace granted it protects the binding',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimPodLabels: { [LABEL]: 'non-preemptible' },
    nonPreemptibleNamespaces: ['default'],
    preemptorPriority: 100_000,
    preempted: false,
  },
  { name: 'priority 100 and above is not preemptible by default', spec: SPEC.preemptibility, victimPriority: 100, preemptorPriority: 200, preempted: false },
  { name: 'priority 99 is preemptible by default', spec: SPEC.preemptibility, victimPriority: 99, preemptorPriority: 200, preempted: true },
  {
    name: 'a high-priority binding labelled preemptible on the template is preempted',
    spec: SPEC.preemptibility,
    victimPriority: 150,
    victimLabels: { [LABEL]: 'preemptible' },
    preemptorPriority: 200,
    preempted: true,
  },
  {
    name: 'a high-priority binding labelled preemptible on the pod is preempted',
    spec: SPEC.preemptibility,
    victimPriority: 150,
    victimPodLabels: { [LABEL]: 'preemptible' },
    preemptorPriority: 200,
    preempted: true,
  },
  {
    name: 'a high-priority binding made preemptible by its policy is preempted',
    spec: SPEC.preemptibility,
    victimPriority: 150,
    victimPolicyPreemptibility: 'preemptible',
    preemptorPriority: 200,
    preempted: true,
  },
  {
    name: 'the policy field wins over the template label',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimPolicyPreemptibility: 'preemptible',
    victimLabels: { [LABEL]: 'non-preemptible' },
    preemptorPriority: 10,
    preempted: true,
  },
  {
    name: 'the template label wins over the pod label (preemptible)',
    spec: SPEC.preemptibility,
    victimPriority: 150,
    victimLabels: { [LABEL]: 'preemptible' },
    victimPodLabels: { [LABEL]: 'non-preemptible' },
    preemptorPriority: 200,
    preempted: true,
  },
  {
    name: 'the template label wins over the pod label (non-preemptible)',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimLabels: { [LABEL]: 'non-preemptible' },
    victimPodLabels: { [LABEL]: 'preemptible' },
    preemptorPriority: 10,
    preempted: false,
  },
  {
    name: 'an invalid label falls back to the priority rule (low priority: preemptible)',
    spec: SPEC.preemptibility,
    victimPriority: 1,
    victimLabels: { [LABEL]: 'semi-preemptible' },
    preemptorPriority: 10,
    preempted: true,
  },
  {
    name: 'an invalid label falls back to the priority rule (priority 150: not preemptible)',
    spec: SPEC.preemptibility,
    victimPriority: 150,
    victimPodLabels: { [LABEL]: 'maybe' },
    preemptorPriority: 200,
    preempted: false,
  },
];

async function runVictimCase(testCase: VictimCase): Promise<MemorySystem> {
  const system = newSystem({
    gates: testCase.gates ?? {},
    ...(testCase.nonPreemptibleNamespaces ? { nonPreemptibleNamespaces: testCase.nonPreemptibleNamespaces } : {}),
  });
  await applyAll(system, [
    cluster('m1', { cpu: '4', ...(testCase.clusterPods ? { pods: testCase.clusterPods } : {}) }),
    ...neverClasses(testCase.victimPriority),
    priorityClass('urgent', testCase.preemptorPriority, { preemptionPolicy: testCase.preemptorPolicy ?? 'PreemptLowerPriority' }),
    podPriorityPolicy(),
    ...(testCase.victimPolicyPreemptibility
      ? [
          propagationPolicy('victim-policy', {
            resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'victim' }],
            priority: 1,
            schedulePriority: { priorityClassSource: 'PodPriorityClass' },
            preemptibility: testCase.victimPolicyPreemptibility,
          }),
        ]
      : []),
    deployment('victim', {
      priorityClassName: `p${testCase.victimPriority}`,
      requests: testCase.victimCpu === '0' ? {} : { cpu: testCase.victimCpu ?? '4' },
      ...(testCase.victimLabels ? { labels: testCase.victimLabels } : {}),
      ...(testCase.victimPodLabels ? { podLabels: testCase.victimPodLabels } : {}),
    }),
  ]);
  expect(await placementOfDeployment(system, 'victim')).toEqual({ m1: 1 });
  await applyAll(system, [deployment('preemptor', { priorityClassName: 'urgent', requests: { cpu: testCase.preemptorCpu ?? '4' } })]);
  return system;
}

describe(`which bindings are victims (${SPEC.priority} "Preemption scenario", ${SPEC.preemptibility} preemptibility)`, () => {
  it.each(VICTIM_CASES)('$spec: $name', async (testCase) => {
    const system = await runVictimCase(testCase);
    const victim = await bindingOf(system, 'victim');
    const preemptor = await bindingOf(system, 'preemptor');
    if (testCase.preempted) {
      expect(placementOf(victim)).toEqual({});
      expect(placementOf(preemptor)).toEqual({ m1: 1 });
      expect(await eventSubjects(system, 'Preempted')).toEqual(['victim-deployment']);
      expect(system.metrics.counter('BindingPreemptions')).toBe(1);
      // One victim among one candidate: the search proves its answer (VictimSearches{result=exact}).
      expect(system.metrics.counter('VictimSearches', { result: 'exact' })).toBe(1);
      expect(system.metrics.counter('VictimSearches', { result: 'bounded' })).toBe(0);
    } else {
      expect(placementOf(victim)).toEqual({ m1: 1 });
      expect(placementOf(preemptor)).toEqual({});
      expect(conditionOf(preemptor, 'Scheduled')).toMatchObject({ status: 'False' });
      expect(await eventSubjects(system, 'Preempted')).toEqual([]);
      expect(system.metrics.counter('BindingPreemptions')).toBe(0);
      expect(system.metrics.counter('VictimSearches', { result: 'exact' })).toBe(0);
    }
  });

  it(`${SPEC.preemptibility}: an invalid label value records a Warning event on the template`, async () => {
    const system = await runVictimCase(VICTIM_CASES.find((c) => c.victimLabels?.[LABEL] === 'semi-preemptible')!);
    const warnings = await eventsWithReason(system, 'InvalidPreemptibility');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Deployment', namespace: 'default', name: 'victim' } });
    expect(warnings[0]!.message).toContain('semi-preemptible');
    expect((await bindingOf(system, 'victim')).spec.preemptibility).toBe('preemptible');
  });
});

describe(`what happens to a victim (${SPEC.priority}, "Preemption order" and "Risks and Mitigations": events for preempted bindings)`, () => {
  it(`${SPEC.priority}: the victim loses spec.clusters, gets Scheduled=False and a Warning event Preempted naming the preemptor and the cluster`, async () => {
    const system = await runVictimCase(VICTIM_CASES[0]!);
    const victim = await bindingOf(system, 'victim');
    expect(victim.spec.clusters).toBeUndefined();
    expect(conditionOf(victim, 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });

    const [preempted] = await eventsWithReason(system, 'Preempted');
    expect(preempted).toMatchObject({
      type: 'Warning',
      involvedObject: { kind: 'ResourceBinding', namespace: 'default', name: 'victim-deployment' },
    });
    expect(preempted!.message).toContain('default/preemptor-deployment');
    expect(preempted!.message).toContain('m1');
    expect(preempted!.related).toMatchObject({ kind: 'ResourceBinding', namespace: 'default', name: 'preemptor-deployment' });
    // By uid, so that the event tells these bindings from earlier ones of the same names.
    expect(preempted!.involvedObject.uid).toBe(victim.metadata.uid);
    expect(preempted!.related!.uid).toBe((await bindingOf(system, 'preemptor')).metadata.uid);
    expect(victim.metadata.uid).toMatch(/\S/);
    expect(preempted!.metadata.annotations).toEqual({
      'outrank.io/preemptor-priority': '10',
      'outrank.io/victim-priority': '1',
      'outrank.io/victim-preemptibility': 'preemptible',
    });
  });

  it(`${SPEC.priority}: the victim is queued again at once, and placed as soon as room is freed`, async () => {
    const system = await runVictimCase(VICTIM_CASES[0]!);
    const reasons = (await system.events.list())
      .filter((event) => event.involvedObject.name === 'victim-deployment')
      .map((event) => event.reason);
    // Placed, preempted, then tried again right away (no room left).
    expect(reasons).toEqual(['ScheduleBindingSucceed', 'Preempted', 'ScheduleBindingFailed']);

    await system.objects.delete(refs.deployment('preemptor'));
    await system.runUntilIdle();
    const victim = await bindingOf(system, 'victim');
    expect(placementOf(victim)).toEqual({ m1: 1 });
    expect(conditionOf(victim, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.priority}: a victim that fits on another cluster is placed there`, async () => {
    const system = newSystem();
    const aggregated = { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } };
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      ...neverClasses(1),
      priorityClass('urgent', 10),
      propagationPolicy('anywhere', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'victim' }],
        schedulePriority: { priorityClassSource: 'PodPriorityClass' },
        placement: aggregated,
      }),
      propagationPolicy('only-m1', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'preemptor' }],
        schedulePriority: { priorityClassSource: 'PodPriorityClass' },
        placement: { clusterAffinity: { clusterNames: ['m1'] } },
      }),
      deployment('victim', { priorityClassName: 'p1', requests: { cpu: '4' } }),
    ]);
    await applyAll(system, [cluster('m2', { cpu: '4' })]);
    expect(await placementOfDeployment(system, 'victim')).toEqual({ m1: 1 });

    await applyAll(system, [deployment('preemptor', { priorityClassName: 'urgent', requests: { cpu: '4' } })]);
    expect(await eventSubjects(system, 'Preempted')).toEqual(['victim-deployment']);
    expect(await placementOfDeployment(system, 'preemptor')).toEqual({ m1: 1 });
    const victim = await bindingOf(system, 'victim');
    expect(placementOf(victim)).toEqual({ m2: 1 });
    expect(conditionOf(victim, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.priority}: a preemptor that fits somewhere without preemption preempts nobody`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      ...neverClasses(1),
      priorityClass('urgent', 10),
      podPriorityPolicy('by-pod-priority', {
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
      }),
      deployment('victim', { priorityClassName: 'p1', requests: { cpu: '4' } }),
    ]);
    await applyAll(system, [cluster('m2', { cpu: '4' })]);
    await applyAll(system, [deployment('preemptor', { priorityClassName: 'urgent', requests: { cpu: '4' } })]);
    expect(await placementOfDeployment(system, 'preemptor')).toEqual({ m2: 1 });
    expect(await placementOfDeployment(system, 'victim')).toEqual({ m1: 1 });
    expect(system.metrics.counter('BindingPreemptions')).toBe(0);
  });
});

describe(`victim choice (${SPEC.priority}, "Preemption order": the fewest victims)`, () => {
  const EXAMPLE = [
    ['p0', 0, '1'],
    ['p1', 1, '2'],
    ['p2', 2, '5'],
    ['p3', 3, '2'],
  ] as const;

  async function fillExample(system: MemorySystem): Promise<void> {
    await applyAll(system, [cluster('m1', { cpu: '10' }), ...neverClasses(0, 1, 2, 3), priorityClass('urgent', 10), podPriorityPolicy()]);
    await applyAll(
      system,
      EXAMPLE.map(([name, priority, cpu]) => deployment(name, { priorityClassName: `p${priority}`, requests: { cpu } })),
    );
  }

  it(`${SPEC.priority}: the capacity-10 example preempts only the priority-2 binding`, async () => {
    const system = newSystem();
    await fillExample(system);
    await applyAll(system, [deployment('urgent', { priorityClassName: 'urgent', requests: { cpu: '5' } })]);
    expect(await eventSubjects(system, 'Preempted')).toEqual(['p2-deployment']);
    expect(system.metrics.counter('BindingPreemptions')).toBe(1);
    for (const [name] of EXAMPLE) {
      expect(await placementOfDeployment(system, name)).toEqual(name === 'p2' ? {} : { m1: 1 });
    }
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ m1: 1 });
  });

  it(`${SPEC.priority}: when one victim is not enough, the fewest are preempted and BindingPreemptions counts each`, async () => {
    const system = newSystem();
    await fillExample(system);
    // 7 CPUs: p2 (5) with p1 or p3 (2) is needed; p1 has the lower priority.
    await applyAll(system, [deployment('urgent', { priorityClassName: 'urgent', requests: { cpu: '7' } })]);
    expect((await eventSubjects(system, 'Preempted')).sort()).toEqual(['p1-deployment', 'p2-deployment']);
    expect(system.metrics.counter('BindingPreemptions')).toBe(2);
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ m1: 1 });
  });

  it(`${SPEC.priority}: examples/000-binding-preemption.yaml run by runScenario preempts only batch-p2`, async () => {
    const scenario = loadScenario(await readFile(new URL('../../../examples/000-binding-preemption.yaml', import.meta.url), 'utf8'));
    const result = await runScenario(scenario);
    expect(result.errors).toEqual([]);
    expect(result.metrics.bindingPreemptions).toBe(1);
    expect(result.events.filter((e) => e.reason === 'Preempted').map((e) => e.object.name)).toEqual(['batch-p2-deployment']);
    const clusters = Object.fromEntries(result.bindings.map((b) => [b.name, b.clusters]));
    expect(clusters).toEqual({
      'batch-p0-deployment': [{ name: 'member1', replicas: 1 }],
      'batch-p1-deployment': [{ name: 'member1', replicas: 1 }],
      'batch-p2-deployment': [],
      'batch-p3-deployment': [{ name: 'member1', replicas: 1 }],
      'urgent-deployment': [{ name: 'member1', replicas: 1 }],
    });
  });
});

describe(`ClusterResourceBindings take no part in preemption (${SPEC.priority}, "Preemption scenario": not in ClusterResourceBinding first)`, () => {
  function clusterWorkload(name: string, cpu: string) {
    return {
      apiVersion: 'example.io/v1',
      kind: 'Workload',
      metadata: { name },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'main', resources: { requests: { cpu } } }] } } },
    };
  }

  async function clusterBinding(system: MemorySystem, name: string): Promise<ResourceBinding> {
    const binding = await system.store.get<ResourceBinding>({ group: 'work.karmada.io', kind: 'ClusterResourceBinding', namespace: '', name: `${name}-workload` });
    if (!binding) throw new Error(`no ClusterResourceBinding for ${name}`);
    return binding;
  }

  function workloadPolicy(priorityClassName: string) {
    return clusterPropagationPolicy('workloads', {
      resourceSelectors: [{ apiVersion: 'example.io/v1', kind: 'Workload' }],
      schedulePriority: { priorityClassName },
    });
  }

  it(`${SPEC.priority}: a high-priority ClusterResourceBinding does not preempt`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), ...neverClasses(1), priorityClass('urgent', 10), podPriorityPolicy(), workloadPolicy('urgent')]);
    await applyAll(system, [deployment('victim', { priorityClassName: 'p1', requests: { cpu: '4' } })]);
    await applyAll(system, [clusterWorkload('big', '4')]);
    const big = await clusterBinding(system, 'big');
    expect(big.spec.schedulePriority).toEqual({ priority: 10, preemptionPolicy: 'PreemptLowerPriority' });
    expect(placementOf(big)).toEqual({});
    expect(await placementOfDeployment(system, 'victim')).toEqual({ m1: 1 });
    expect(system.metrics.counter('BindingPreemptions')).toBe(0);
  });

  it(`${SPEC.priority}: a low-priority ClusterResourceBinding is no victim`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), ...neverClasses(1), priorityClass('urgent', 10), podPriorityPolicy(), workloadPolicy('p1')]);
    await applyAll(system, [clusterWorkload('small', '4')]);
    const small = await clusterBinding(system, 'small');
    expect(small.spec.preemptibility).toBe('preemptible');
    expect(placementOf(small)).toEqual({ m1: 1 });
    await applyAll(system, [deployment('preemptor', { priorityClassName: 'urgent', requests: { cpu: '4' } })]);
    expect(await placementOfDeployment(system, 'preemptor')).toEqual({});
    expect(placementOf(await clusterBinding(system, 'small'))).toEqual({ m1: 1 });
  });
});
