import { describe, expect, it } from 'vitest';
import { InvalidObjectError } from '../../../lib/api/invalid-object-error';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  ALL_DEPLOYMENTS,
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventsWithReason,
  newSystem,
  placementOf,
  podPriorityPolicy,
  priorityClass,
  propagationPolicy,
  queueDepths,
  refs,
  rejectionOf,
  SPEC,
} from './support';

async function suspendedSystem(): Promise<MemorySystem> {
  const system = newSystem();
  await applyAll(system, [
    cluster('m1', { cpu: '4' }),
    propagationPolicy('suspended', { resourceSelectors: ALL_DEPLOYMENTS, suspension: { scheduling: true } }),
    deployment('web'),
  ]);
  return system;
}

describe(`scheduling suspension (${SPEC.suspension}, "Implementations")`, () => {
  it(`${SPEC.suspension}: a binding created suspended is not scheduled and has SchedulingSuspended=True`, async () => {
    const system = await suspendedSystem();
    const binding = await bindingOf(system, 'web');
    expect(binding.spec.suspension).toEqual({ scheduling: true });
    expect(placementOf(binding)).toEqual({});
    expect(conditionOf(binding, 'SchedulingSuspended')).toMatchObject({ status: 'True' });
    expect(conditionOf(binding, 'Scheduled')).toBeUndefined();
    expect(await eventsWithReason(system, 'ScheduleBindingFailed')).toEqual([]);
    expect(Object.values(queueDepths(system)).every((depth) => depth === 0)).toBe(true);
  });

  it(`${SPEC.suspension}: a suspended binding stays unscheduled when room appears and when the reconcile runs`, async () => {
    const system = await suspendedSystem();
    await applyAll(system, [cluster('m2', { cpu: '8' })]);
    await system.advance(30 * 60_000);
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({});
    expect(conditionOf(binding, 'Scheduled')).toBeUndefined();
  });

  it.each([
    { name: 'scheduling: false', patch: { spec: { suspension: { scheduling: false } } } },
    { name: 'suspension removed', patch: { spec: { suspension: null } } },
  ])(`${SPEC.suspension}: resuming ($name) sets SchedulingSuspended=False and schedules the binding`, async ({ patch }) => {
    const system = await suspendedSystem();
    await system.objects.patch(refs.binding('web'), patch);
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'web');
    expect(conditionOf(binding, 'SchedulingSuspended')).toMatchObject({ status: 'False' });
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    expect(placementOf(binding)).toEqual({ m1: 1 });
  });

  it(`${SPEC.suspension}: a binding that is already scheduled cannot be switched to suspended, and nothing is written`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS }), deployment('web')]);
    const before = await bindingOf(system, 'web');
    expect(placementOf(before)).toEqual({ m1: 1 });

    const error = await rejectionOf(() => system.objects.patch(refs.binding('web'), { spec: { suspension: { scheduling: true } } }));
    expect(error).toBeInstanceOf(InvalidObjectError);
    expect((error as InvalidObjectError).code).toBe(422);
    expect((error as InvalidObjectError).causes.map((c) => c.field)).toEqual(['spec.suspension.scheduling']);
    expect(await bindingOf(system, 'web')).toEqual(before);
    expect(Object.values(queueDepths(system)).every((depth) => depth === 0)).toBe(true);
  });

  it(`${SPEC.suspension}: a binding waiting for room may be suspended, and then is not placed when room appears`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS }), deployment('first')]);
    await applyAll(system, [deployment('second')]);
    expect(placementOf(await bindingOf(system, 'second'))).toEqual({});

    await system.objects.patch(refs.binding('second'), { spec: { suspension: { scheduling: true } } });
    await system.runUntilIdle();
    expect(conditionOf(await bindingOf(system, 'second'), 'SchedulingSuspended')).toMatchObject({ status: 'True' });

    await system.objects.delete(refs.deployment('first'));
    await system.runUntilIdle();
    await system.advance(10 * 60_000);
    await system.runUntilIdle();
    expect(placementOf(await bindingOf(system, 'second'))).toEqual({});

    await system.objects.patch(refs.binding('second'), { spec: { suspension: { scheduling: false } } });
    await system.runUntilIdle();
    const resumed = await bindingOf(system, 'second');
    expect(placementOf(resumed)).toEqual({ m1: 1 });
    expect(conditionOf(resumed, 'SchedulingSuspended')).toMatchObject({ status: 'False' });
  });

  it(`${SPEC.suspension}: saying scheduling: false to a scheduled binding is accepted and changes nothing that matters`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS }), deployment('web')]);
    await system.objects.patch(refs.binding('web'), { spec: { suspension: { scheduling: false } } });
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ m1: 1 });
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.suspension}: a preempted binding, no longer scheduled, may be suspended, and stays put until resumed`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      priorityClass('low', 1, { preemptionPolicy: 'Never' }),
      priorityClass('urgent', 10),
      podPriorityPolicy(),
      deployment('victim', { priorityClassName: 'low', requests: { cpu: '4' } }),
    ]);
    await applyAll(system, [deployment('urgent', { priorityClassName: 'urgent', requests: { cpu: '4' } })]);
    expect(placementOf(await bindingOf(system, 'victim'))).toEqual({});

    await system.objects.patch(refs.binding('victim'), { spec: { suspension: { scheduling: true } } });
    await system.runUntilIdle();
    expect(conditionOf(await bindingOf(system, 'victim'), 'SchedulingSuspended')).toMatchObject({ status: 'True' });
    await system.objects.delete(refs.deployment('urgent'));
    await system.runUntilIdle();
    expect(placementOf(await bindingOf(system, 'victim'))).toEqual({});

    await system.objects.patch(refs.binding('victim'), { spec: { suspension: { scheduling: false } } });
    await system.runUntilIdle();
    expect(placementOf(await bindingOf(system, 'victim'))).toEqual({ m1: 1 });
  });
});
