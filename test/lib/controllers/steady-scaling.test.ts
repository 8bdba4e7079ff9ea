/**
 * Scaling a placed Divided binding through the controllers, as Karmada's scheduler does it: in Steady mode
 * (pkg/scheduler/core/assignment.go) the replicas stay where they run and only those added are placed, or those
 * removed taken off proportionally; a fresh division only once a user asks for it with spec.rescheduleTriggeredAt.
 */
import { describe, expect, it } from 'vitest';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  AGGREGATED,
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventSubjects,
  expectAllocationsMatchBindings,
  newSystem,
  placementOfDeployment,
  podPriorityPolicy,
  priorityClass,
  refs,
  SPEC,
} from './support';

/**
 * assignment_test.go, Test_dynamicScale, "replica 12 -> 24, aggregated 6:6:20": web runs 4 on member1 and 8 on
 * member2, which then have room for 6 more each, and member3 for 20.
 */
async function scaledFleet(): Promise<MemorySystem> {
  const system = newSystem();
  await applyAll(system, [cluster('member1', { cpu: '4' }), cluster('member2', { cpu: '8' }), podPriorityPolicy('by-pod-priority', AGGREGATED)]);
  await applyAll(system, [deployment('web', { replicas: 12 })]);
  expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 4, member2: 8 });
  await applyAll(system, [cluster('member1', { cpu: '10' }), cluster('member2', { cpu: '14' }), cluster('member3', { cpu: '20' })]);
  return system;
}

describe('Steady scaling (assignment.go, assignByDynamicStrategy)', () => {
  it('scaled up, the replicas stay on the clusters in use and the added ones fill them first (dynamicScaleUp)', async () => {
    const system = await scaledFleet();
    await applyAll(system, [deployment('web', { replicas: 24 })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 10, member2: 14 });
    await expectAllocationsMatchBindings(system);
  });

  it('scaled down, replicas are taken off in proportion, and no cluster gains one (dynamicScaleDown)', async () => {
    const system = await scaledFleet();
    await applyAll(system, [deployment('web', { replicas: 24 })]);
    await applyAll(system, [deployment('web', { replicas: 6 })]);
    // Aggregated: the fewest clusters, largest first, that hold 6 of the 10 and 14 kept.
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 6 });
    await expectAllocationsMatchBindings(system);
  });

  it('a change other than the replicas (the request) keeps the placement while it fits', async () => {
    const system = await scaledFleet();
    await applyAll(system, [deployment('web', { replicas: 12, requests: { cpu: '1', memory: '1Mi' } })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 4, member2: 8 });
    await expectAllocationsMatchBindings(system);
  });
});

describe('Fresh mode: spec.rescheduleTriggeredAt later than status.lastScheduledTime (assignment.go, dynamicFreshScale)', () => {
  it('divides every replica anew once, as if none were placed, then is Steady again', async () => {
    const system = await scaledFleet();
    await applyAll(system, [deployment('web', { replicas: 24 })]);
    system.clock.advance(60_000);
    const triggeredAt = new Date(system.clock.now()).toISOString();
    await system.objects.patch(refs.binding('web'), { spec: { rescheduleTriggeredAt: triggeredAt } });
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 10, member3: 14 });
    const binding = await bindingOf(system, 'web');
    expect(binding.status?.lastScheduledTime).toBe(triggeredAt);
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    await expectAllocationsMatchBindings(system);

    // The request was answered: scaling up again keeps the new placement, adding to the roomiest cluster in use.
    await applyAll(system, [deployment('web', { replicas: 26 })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 10, member3: 16 });
  });

  it('the template written again keeps the request until it is answered', async () => {
    const system = await scaledFleet();
    const triggeredAt = new Date(system.clock.now()).toISOString();
    await system.objects.patch(refs.binding('web'), { spec: { rescheduleTriggeredAt: triggeredAt } });
    await system.objects.apply(deployment('web', { replicas: 12, labels: { written: 'again' } }));
    expect((await bindingOf(system, 'web')).spec.rescheduleTriggeredAt).toBe(triggeredAt);
  });
});

describe(`Steady scale-up with preemption (${SPEC.priority})`, () => {
  it('only the added replicas preempt; those kept are never moved to make room', async () => {
    const system = newSystem();
    await applyAll(system, [
      priorityClass('high', 1000),
      priorityClass('low', 10, { preemptionPolicy: 'Never' }),
      cluster('member1', { cpu: '2' }),
      cluster('member2', { cpu: '4' }),
      podPriorityPolicy('by-pod-priority', AGGREGATED),
    ]);
    await applyAll(system, [deployment('batch', { replicas: 4, priorityClassName: 'low' })]);
    await applyAll(system, [deployment('urgent', { replicas: 2, priorityClassName: 'high' })]);
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ member1: 2 });
    expect(await placementOfDeployment(system, 'batch')).toEqual({ member2: 4 });

    await applyAll(system, [deployment('urgent', { replicas: 4, priorityClassName: 'high' })]);
    // A fresh division would have moved urgent whole onto member2 ({member2: 4}).
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ member1: 2, member2: 2 });
    expect(await eventSubjects(system, 'Preempted')).toEqual(['batch-deployment']);
    expect(conditionOf(await bindingOf(system, 'batch'), 'Scheduled')).toMatchObject({ status: 'False' });
    await expectAllocationsMatchBindings(system);
  });
});
