import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../../lib/api/invalid-object-error';
import type { PriorityClass } from '../../../lib/api/priority-class';
import {
  ALL_DEPLOYMENTS,
  applyAll,
  bindingOf,
  cluster,
  deployment,
  eventsWithReason,
  newSystem,
  placementOfDeployment,
  podPriorityPolicy,
  priorityClass,
  propagationPolicy,
  queueDepths,
  refs,
  rejectionOf,
  SPEC,
  storeContents,
  type Manifest,
} from './support';

describe(`PriorityClass updates (${SPEC.priority}, "About priority classes": only Description may be updated)`, () => {
  const ORIGINAL = priorityClass('gold', 1_000, { preemptionPolicy: 'PreemptLowerPriority', description: 'important' });

  it.each([
    { name: 'value', change: { value: 2_000 }, field: 'value' },
    { name: 'globalDefault', change: { globalDefault: true }, field: 'globalDefault' },
    { name: 'preemptionPolicy', change: { preemptionPolicy: 'Never' }, field: 'preemptionPolicy' },
  ])(`${SPEC.priority}: changing $name is rejected with 422 and nothing is written`, async ({ change, field }) => {
    const system = newSystem();
    await applyAll(system, [ORIGINAL]);
    const before = await storeContents(system);

    const applied = await rejectionOf(() => system.objects.apply({ ...ORIGINAL, ...change }));
    expect(applied).toBeInstanceOf(InvalidObjectError);
    expect((applied as InvalidObjectError).code).toBe(422);
    expect((applied as InvalidObjectError).causes.map((c) => c.field)).toEqual([field]);
    const patched = await rejectionOf(() => system.objects.patch(refs.priorityClass('gold'), change));
    expect((patched as InvalidObjectError).code).toBe(422);

    expect(await storeContents(system)).toEqual(before);
  });

  it(`${SPEC.priority}: the description may change, by apply or by patch`, async () => {
    const system = newSystem();
    await applyAll(system, [ORIGINAL]);
    await system.objects.apply({ ...ORIGINAL, description: 'still important' });
    expect((await system.store.get<PriorityClass>(refs.priorityClass('gold')))?.description).toBe('still important');
    await system.objects.patch(refs.priorityClass('gold'), { description: 'critical' });
    const stored = await system.store.get<PriorityClass>(refs.priorityClass('gold'));
    expect(stored).toMatchObject({ value: 1_000, preemptionPolicy: 'PreemptLowerPriority', description: 'critical' });
  });

  it(`${SPEC.priority}: deleting a class and creating it again with another value is the way to change it; existing bindings keep their priority`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), ORIGINAL, podPriorityPolicy(), deployment('old', { priorityClassName: 'gold' })]);
    await system.objects.delete(refs.priorityClass('gold'));
    await applyAll(system, [priorityClass('gold', 2_000), deployment('new', { priorityClassName: 'gold' })]);
    expect((await bindingOf(system, 'old')).spec.schedulePriority?.priority).toBe(1_000);
    expect((await bindingOf(system, 'new')).spec.schedulePriority?.priority).toBe(2_000);
  });
});

describe(`deleting a PriorityClass breaks nothing (${SPEC.priority}, "no referential integrity for priority classes")`, () => {
  it(`${SPEC.priority}: bindings that used the class keep priority, preemption policy and placement, and scheduling goes on`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '2' }),
      priorityClass('gold', 1_000),
      priorityClass('low', 1, { preemptionPolicy: 'Never' }),
      podPriorityPolicy(),
      deployment('web', { priorityClassName: 'gold' }),
    ]);
    const before = await bindingOf(system, 'web');
    await system.objects.delete(refs.priorityClass('gold'));
    await system.runUntilIdle();
    expect(await bindingOf(system, 'web')).toEqual(before);
    expect(before.spec.schedulePriority).toEqual({ priority: 1_000, preemptionPolicy: 'PreemptLowerPriority' });

    await applyAll(system, [deployment('other', { priorityClassName: 'low' })]);
    expect(await placementOfDeployment(system, 'other')).toEqual({ m1: 1 });
    expect(system.handlerErrors).toEqual([]);
    expect(Object.values(queueDepths(system)).every((depth) => depth === 0)).toBe(true);
  });
});

describe(`the resolved priority is kept (${SPEC.priority}: "Only priority classes changes … will not trigger bindings' update")`, () => {
  const FLEET = [cluster('m1', { cpu: '2' })];
  const claimedBy = (name: string, workload = 'web') =>
    propagationPolicy(name, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: workload }], schedulePriority: { priorityClassName: 'gold' } });

  it(`${SPEC.priority}: a binding whose class was deleted keeps its priority when another policy is written, and is not preempted by a priority-10 workload`, async () => {
    const system = newSystem();
    await applyAll(system, [
      ...FLEET,
      priorityClass('gold', 1_000, { preemptionPolicy: 'Never' }),
      priorityClass('ten', 10),
      claimedBy('web-policy'),
      deployment('web', { requests: { cpu: '2' } }),
    ]);
    await system.objects.delete(refs.priorityClass('gold'));
    // Another policy that also selects the template (and loses the claim): the claim is decided again.
    await applyAll(system, [propagationPolicy('other', { resourceSelectors: ALL_DEPLOYMENTS, schedulePriority: { priorityClassName: 'ten' } })]);
    await applyAll(system, [deployment('urgent', { requests: { cpu: '2' } })]);
    expect((await bindingOf(system, 'web')).spec.schedulePriority).toEqual({ priority: 1_000, preemptionPolicy: 'Never' });
    expect(await placementOfDeployment(system, 'web')).toEqual({ m1: 1 });
    expect(await placementOfDeployment(system, 'urgent')).toEqual({});
    expect(await eventsWithReason(system, 'Preempted')).toEqual([]);
  });

  it(`${SPEC.priority}: a class created again with another value changes neither old bindings at the template resync nor at another policy's write`, async () => {
    const system = newSystem();
    await applyAll(system, [...FLEET, priorityClass('gold', 1_000), claimedBy('web-policy'), deployment('web')]);
    await system.objects.delete(refs.priorityClass('gold'));
    await applyAll(system, [priorityClass('gold', 5)]);
    await system.reconcile.resync();
    await system.runUntilIdle();
    await applyAll(system, [propagationPolicy('other', { resourceSelectors: ALL_DEPLOYMENTS })]);
    expect((await bindingOf(system, 'web')).spec.schedulePriority?.priority).toBe(1_000);

    // A binding made now resolves the class as it is now.
    await applyAll(system, [claimedBy('new-policy', 'new'), deployment('new')]);
    expect((await bindingOf(system, 'new')).spec.schedulePriority?.priority).toBe(5);
  });

  it(`${SPEC.priority}: the binding's own template or policy changing resolves the priority again`, async () => {
    const system = newSystem();
    await applyAll(system, [...FLEET, priorityClass('gold', 1_000), priorityClass('silver', 500), claimedBy('web-policy'), deployment('web')]);
    await system.objects.delete(refs.priorityClass('gold'));
    await applyAll(system, [priorityClass('gold', 5)]);
    await applyAll(system, [deployment('web', { replicas: 2 })]);
    expect((await bindingOf(system, 'web')).spec.schedulePriority?.priority).toBe(5);

    await applyAll(system, [propagationPolicy('web-policy', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], schedulePriority: { priorityClassName: 'silver' } })]);
    expect((await bindingOf(system, 'web')).spec.schedulePriority?.priority).toBe(500);
  });
});

interface DefaultCase {
  readonly name: string;
  readonly classes: readonly Manifest[];
  readonly schedulePriority?: Manifest;
  readonly priorityClassName?: string;
  readonly expected: { priority: number; preemptionPolicy: string };
  readonly warning: boolean;
}

const DEFAULT_CASES: readonly DefaultCase[] = [
  {
    name: 'a missing class and no global default: priority 0 and Never',
    classes: [],
    schedulePriority: { priorityClassName: 'missing' },
    expected: { priority: 0, preemptionPolicy: 'Never' },
    warning: true,
  },
  {
    name: 'a missing class falls back to the global default',
    classes: [priorityClass('default', 7, { globalDefault: true })],
    schedulePriority: { priorityClassName: 'missing' },
    expected: { priority: 7, preemptionPolicy: 'PreemptLowerPriority' },
    warning: true,
  },
  {
    name: 'several global defaults: the smallest value is used',
    classes: [
      priorityClass('big', 2_000_000_000, { globalDefault: true }),
      priorityClass('small', 3, { globalDefault: true, preemptionPolicy: 'Never' }),
    ],
    schedulePriority: { priorityClassName: 'missing' },
    expected: { priority: 3, preemptionPolicy: 'Never' },
    warning: true,
  },
  {
    name: 'a missing class named by the pod template (PodPriorityClass)',
    classes: [priorityClass('default', 7, { globalDefault: true })],
    schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    priorityClassName: 'missing',
    expected: { priority: 7, preemptionPolicy: 'PreemptLowerPriority' },
    warning: true,
  },
  {
    name: 'no class named: the global default, without a warning',
    classes: [priorityClass('default', 7, { globalDefault: true })],
    expected: { priority: 7, preemptionPolicy: 'PreemptLowerPriority' },
    warning: false,
  },
  {
    name: 'no class named and no global default: priority 0 and Never, without a warning',
    classes: [priorityClass('unused', 7)],
    expected: { priority: 0, preemptionPolicy: 'Never' },
    warning: false,
  },
  {
    name: 'an existing class is used as it is',
    classes: [priorityClass('default', 7, { globalDefault: true }), priorityClass('gold', 1_000, { preemptionPolicy: 'Never' })],
    schedulePriority: { priorityClassName: 'gold' },
    expected: { priority: 1_000, preemptionPolicy: 'Never' },
    warning: false,
  },
];

describe(`missing PriorityClass (${SPEC.priority}, "PriorityClassName")`, () => {
  it.each(DEFAULT_CASES)(`${SPEC.priority}: $name`, async (testCase) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      ...testCase.classes,
      propagationPolicy('p', {
        resourceSelectors: ALL_DEPLOYMENTS,
        ...(testCase.schedulePriority ? { schedulePriority: testCase.schedulePriority } : {}),
      }),
      deployment('web', testCase.priorityClassName ? { priorityClassName: testCase.priorityClassName } : {}),
    ]);
    const binding = await bindingOf(system, 'web');
    expect(binding.spec.schedulePriority).toEqual(testCase.expected);
    expect(await placementOfDeployment(system, 'web')).toEqual({ m1: 1 });

    const warnings = await eventsWithReason(system, 'PriorityClassNotFound');
    if (testCase.warning) {
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ type: 'Warning', involvedObject: { kind: 'Deployment', namespace: 'default', name: 'web' } });
      expect(warnings[0]!.message).toContain('missing');
    } else {
      expect(warnings).toEqual([]);
    }
  });
});
