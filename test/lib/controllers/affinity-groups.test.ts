import { describe, expect, it } from 'vitest';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { runScenario } from '../../../lib/simulate/run-scenario';
import {
  AGGREGATED,
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventSubjects,
  newSystem,
  placementOf,
  placementOfDeployment,
  priorityClass,
  propagationPolicy,
  refs,
  SPEC,
  type Manifest,
} from './support';

type Term = readonly [affinityName: string, clusterNames: readonly string[]];

function groupsPolicy(terms: readonly Term[], extra: Manifest = {}, name = 'groups'): Manifest {
  const { placement, ...spec } = extra as { placement?: Manifest };
  return propagationPolicy(name, {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    placement: { clusterAffinities: terms.map(([affinityName, clusterNames]) => ({ affinityName, clusterNames })), ...placement },
    ...spec,
  });
}

const DIVIDED = { placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } } };

/** Fills a cluster with a binding of its own (claimed by a policy that names it). */
function filler(clusterName: string, cpu: string, priorityClassName?: string): Manifest[] {
  return [
    propagationPolicy(`fill-${clusterName}`, {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: `fill-${clusterName}` }],
      schedulePriority: { priorityClassSource: 'PodPriorityClass' },
      placement: { clusterAffinity: { clusterNames: [clusterName] } },
    }),
    deployment(`fill-${clusterName}`, { requests: { cpu }, ...(priorityClassName ? { priorityClassName } : {}) }),
  ];
}

interface TermCase {
  readonly name: string;
  readonly clusters: readonly Manifest[];
  readonly before?: readonly Manifest[];
  readonly terms: readonly Term[];
  readonly extra?: Manifest;
  readonly replicas?: number;
  readonly affinityName: string | undefined;
  readonly placement: Record<string, number>;
}

const TERM_CASES: readonly TermCase[] = [
  {
    name: "the document's example: dc-shanghai names no existing cluster, so dc-beijing is used",
    clusters: [cluster('member1', { cpu: '4' }), cluster('member2', { cpu: '4' })],
    terms: [['dc-shanghai', ['unavailable']], ['dc-beijing', ['member1']], ['dc-hongkong', ['member2']]],
    affinityName: 'dc-beijing',
    placement: { member1: 1 },
  },
  {
    name: 'the first term has room: it is used',
    clusters: [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' })],
    terms: [['primary', ['m1']], ['backup', ['m2']]],
    affinityName: 'primary',
    placement: { m1: 1 },
  },
  {
    name: 'the first term has no room: the second is used',
    clusters: [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' })],
    before: filler('m1', '4'),
    terms: [['primary', ['m1']], ['backup', ['m2']]],
    affinityName: 'backup',
    placement: { m2: 1 },
  },
  {
    name: 'the first term has no ready cluster: the second is used',
    clusters: [cluster('m1', { cpu: '4' }, { ready: false }), cluster('m2', { cpu: '4' })],
    terms: [['primary', ['m1']], ['backup', ['m2']]],
    affinityName: 'backup',
    placement: { m2: 1 },
  },
  {
    name: 'Divided: the first term cannot hold all replicas, the second divides them',
    clusters: [cluster('m1', { cpu: '2' }), cluster('m2', { cpu: '2' }), cluster('m3', { cpu: '2' })],
    terms: [['small', ['m1']], ['large', ['m2', 'm3']]],
    extra: DIVIDED,
    replicas: 4,
    affinityName: 'large',
    placement: { m2: 2, m3: 2 },
  },
  {
    name: 'Duplicated: a term is used only when each of its clusters holds every replica',
    clusters: [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '1' }), cluster('m3', { cpu: '2' }), cluster('m4', { cpu: '2' })],
    terms: [['wide', ['m1', 'm2']], ['narrow', ['m3', 'm4']]],
    replicas: 2,
    affinityName: 'narrow',
    placement: { m3: 2, m4: 2 },
  },
  {
    name: 'no term has room: unschedulable, no term recorded',
    clusters: [cluster('m1', { cpu: '1' }), cluster('m2', { cpu: '1' })],
    terms: [['primary', ['m1']], ['backup', ['m2']]],
    replicas: 2,
    affinityName: undefined,
    placement: {},
  },
];

describe(`ordered cluster-affinity groups (${SPEC.affinity}, "ClusterAffinities")`, () => {
  it.each(TERM_CASES)(`${SPEC.affinity}: $name`, async (testCase) => {
    const system = newSystem();
    await applyAll(system, [...testCase.clusters, ...(testCase.before ?? [])]);
    await applyAll(system, [groupsPolicy(testCase.terms, testCase.extra), deployment('web', { replicas: testCase.replicas ?? 1 })]);
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual(testCase.placement);
    expect(binding.status?.schedulerObservingAffinityName).toBe(testCase.affinityName);
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: testCase.affinityName ? 'True' : 'False' });
  });

  it(`${SPEC.affinity}: runScenario reports the term in use as schedulerObservingAffinityName`, async () => {
    const result = await runScenario({
      steps: [
        { apply: [cluster('member1', { cpu: '4' }), groupsPolicy([['dc-shanghai', ['unavailable']], ['dc-beijing', ['member1']]]), deployment('web')] },
      ],
    });
    expect(result.errors).toEqual([]);
    expect(result.bindings).toHaveLength(1);
    expect(result.bindings[0]).toMatchObject({ name: 'web-deployment', schedulerObservingAffinityName: 'dc-beijing', clusters: [{ name: 'member1', replicas: 1 }] });
  });
});

describe(`a placement without preemption in a later term beats preemption in an earlier one (${SPEC.affinity} with ${SPEC.priority})`, () => {
  async function system(backupRoom: string): Promise<MemorySystem> {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      cluster('m2', { cpu: backupRoom }),
      priorityClass('low', 1, { preemptionPolicy: 'Never' }),
      priorityClass('urgent', 10),
      ...filler('m1', '4', 'low'),
    ]);
    await applyAll(system, [groupsPolicy([['primary', ['m1']], ['backup', ['m2']]]), deployment('web', { priorityClassName: 'urgent', requests: { cpu: '4' } })]);
    return system;
  }

  it(`${SPEC.affinity}: the backup term has room: no preemption in the primary term`, async () => {
    const placed = await system('4');
    const binding = await bindingOf(placed, 'web');
    expect(placementOf(binding)).toEqual({ m2: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('backup');
    expect(await placementOfDeployment(placed, 'fill-m1')).toEqual({ m1: 1 });
    expect(placed.metrics.counter('BindingPreemptions')).toBe(0);
  });

  it(`${SPEC.affinity}: no term has room: preemption in the first term where it helps`, async () => {
    const placed = await system('1');
    const binding = await bindingOf(placed, 'web');
    expect(placementOf(binding)).toEqual({ m1: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('primary');
    expect(await eventSubjects(placed, 'Preempted')).toEqual(['fill-m1-deployment']);
  });
});

async function setNotReady(system: MemorySystem, name: string): Promise<void> {
  await system.objects.patch(refs.cluster(name), { status: { conditions: [{ type: 'Ready', status: 'False' }] } });
  await system.runUntilIdle();
}

describe(`failover continues from the observed term (${SPEC.affinity}, "in case of cluster member1 becomes unavailable")`, () => {
  it(`${SPEC.affinity}: a cluster of the observed term going not Ready moves the binding to the next term, not back to an earlier one`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), cluster('m3', { cpu: '4' }), ...filler('m1', '4')]);
    await applyAll(system, [groupsPolicy([['a', ['m1']], ['b', ['m2']], ['c', ['m3']]]), deployment('web')]);
    expect((await bindingOf(system, 'web')).status?.schedulerObservingAffinityName).toBe('b');

    // Term a gets room again; the placed binding is not moved for that.
    await system.objects.delete(refs.deployment('fill-m1'));
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ m2: 1 });

    await setNotReady(system, 'm2');
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ m3: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('c');
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.affinity}: the scheduler first looks for alternatives in the current term`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      cluster('m2', { cpu: '8' }),
      cluster('m3', { cpu: '4' }),
      cluster('m4', { cpu: '4' }),
      ...filler('m1', '4'),
    ]);
    await applyAll(system, [groupsPolicy([['a', ['m1']], ['b', ['m2', 'm3']], ['c', ['m4']]], AGGREGATED), deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ m2: 1 });
    await system.objects.delete(refs.deployment('fill-m1'));
    await system.runUntilIdle();

    await setNotReady(system, 'm2');
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ m3: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('b');
  });

  it(`${SPEC.affinity}: with no later term to go to, the binding keeps its placement and is Unschedulable`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), ...filler('m1', '4')]);
    await applyAll(system, [groupsPolicy([['a', ['m1']], ['b', ['m2']]]), deployment('web')]);
    await system.objects.delete(refs.deployment('fill-m1'));
    await system.runUntilIdle();
    await setNotReady(system, 'm2');
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ m2: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('b');
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'False' });
  });

  it(`${SPEC.affinity}: a cluster that goes not ready a second time, with nothing else changed, fails its bindings over again`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), ...filler('m1', '4')]);
    await applyAll(system, [groupsPolicy([['a', ['m2']], ['b', ['m1']]]), deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ m2: 1 });

    // Nowhere to go the first time: the binding stays on m2, Unschedulable.
    await setNotReady(system, 'm2');
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False' });
    await system.objects.patch(refs.cluster('m2'), { status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    await system.runUntilIdle();
    // Room appears in term b while m2 is ready: the binding is fine where it is.
    await system.objects.delete(refs.deployment('fill-m1'));
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ m2: 1 });

    await setNotReady(system, 'm2');
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ m1: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('b');
  });
});
