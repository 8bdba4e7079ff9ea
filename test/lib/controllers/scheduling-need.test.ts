import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { withConfig } from '../../../lib/config';
import { backoffMs, isDue, isWaitingForRoom, schedulingNeed } from '../../../lib/controllers/scheduling-need';
import { binding, cluster as clusterObject, divided } from '../scheduler/support';
import { applyAll, cluster, deployment, newSystem, podPriorityPolicy, priorityClass, refs, SPEC } from './support';

const NOW = Date.UTC(2026, 0, 1, 12);

function withStatus(base: ResourceBinding, status: NonNullable<ResourceBinding['status']>, generation = 1): ResourceBinding {
  return { ...base, metadata: { ...base.metadata, generation }, status };
}

const scheduled = (status: 'True' | 'False', reason: string, minutesAgo = 0) => ({
  type: 'Scheduled',
  status,
  reason,
  lastUpdateTime: new Date(NOW - minutesAgo * 60_000).toISOString(),
});

describe('does this binding need scheduling, and why (binding priority and preemption (000); scheduling suspension (003))', () => {
  const PLACED_AT = new Date(NOW - 60_000).toISOString();
  const clusters = new Map([
    ['m1', clusterObject('m1')],
    ['down', clusterObject('down', { ready: 'False' })],
    // Deleted and created again after the bindings were placed on the old one.
    ['recreated', { ...clusterObject('recreated'), metadata: { name: 'recreated', creationTimestamp: new Date(NOW).toISOString() } }],
    ['test', clusterObject('test', { labels: { env: 'test' } })],
    ['cordoned', clusterObject('cordoned', { taints: [{ key: 'maintenance', effect: 'NoSchedule' }] })],
    ['draining', clusterObject('draining', { taints: [{ key: 'drain', effect: 'NoExecute', timeAdded: new Date(NOW - 30_000).toISOString() }] })],
  ]);
  const current = (subject: ResourceBinding) => withStatus(subject, { schedulerObservedGeneration: 1, lastScheduledTime: PLACED_AT, conditions: [scheduled('True', 'Success')] });
  const evictingFrom = (subject: ResourceBinding, fromCluster: string, createdMinutesAgo: number): ResourceBinding => ({
    ...subject,
    spec: {
      ...subject.spec,
      gracefulEvictionTasks: [{ fromCluster, reason: 'TaintUntolerated', producer: 'TaintManager', gracePeriodSeconds: 600, creationTimestamp: new Date(NOW - createdMinutesAgo * 60_000).toISOString() }],
    },
  });
  const clusterOf = (name: string) => clusters.get(name);
  it.each<[string, ResourceBinding, ReturnType<typeof schedulingNeed>]>([
    ["another scheduler's binding is left alone, placed or not (Karmada's schedulerNameFilter, event_handler.go)", binding('theirs', { schedulerName: 'my-custom-scheduler' }), { needed: false, reason: 'OtherScheduler' }],
    [
      "another scheduler's binding is left alone even on a cluster that is not ready",
      current(binding('theirs-down', { schedulerName: 'my-custom-scheduler', clusters: { down: 1 } })),
      { needed: false, reason: 'OtherScheduler' },
    ],
    ["the default scheduler's, by name, is outrank's by default", binding('named', { schedulerName: 'default-scheduler' }), { needed: true, reason: 'NotPlaced' }],
    ["an empty scheduler name is the default scheduler's (Karmada's schedulerNameFilter)", binding('empty', { schedulerName: '' }), { needed: true, reason: 'NotPlaced' }],
    ['scheduling suspension (003): a suspended binding is left alone', { ...binding('s'), spec: { ...binding('s').spec, suspension: { scheduling: true } } }, { needed: false, reason: 'Suspended' }],
    ['never scheduled: no placement yet', binding('new'), { needed: true, reason: 'NotPlaced' }],
    [
      'placed, and its spec changed since',
      withStatus(binding('changed', { clusters: { m1: 1 } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }, 2),
      { needed: true, reason: 'SpecChanged' },
    ],
    [
      'scheduled onto no cluster (nothing to place), then given replicas',
      withStatus(binding('grown', { replicas: 3, placement: { replicaScheduling: divided() } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }, 2),
      { needed: true, reason: 'NotPlaced' },
    ],
    [
      'scheduled onto no cluster for its current spec, Divided of 0 replicas (nothing to place)',
      withStatus(binding('idle', { replicas: 0, placement: { replicaScheduling: divided() } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: false, reason: 'PlacementCurrent' },
    ],
    [
      'not placed but Scheduled for its current spec, with replicas to place (never a result of the scheduler)',
      withStatus(binding('odd', { replicas: 2, placement: { replicaScheduling: divided() } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'NotPlaced' },
    ],
    [
      'not placed but Scheduled for its current spec, Duplicated of 0 replicas (the scheduler lists every cluster with 0)',
      withStatus(binding('copies', { replicas: 0 }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'NotPlaced' },
    ],
    ['seen but not placed yet', withStatus(binding('waiting'), { schedulerObservedGeneration: 1, conditions: [scheduled('False', 'Unschedulable')] }), { needed: true, reason: 'NotPlaced' }],
    [
      'placed on a cluster that is gone or not ready (failover, ordered cluster-affinity groups (004))',
      withStatus(binding('stranded', { clusters: { gone: 1 } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'ClusterNotReady' },
    ],
    [
      'placed on a cluster that is not ready',
      withStatus(binding('down', { clusters: { m1: 1, down: 1 } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'ClusterNotReady' },
    ],
    [
      'placed on a cluster deleted and created again since: the new cluster holds nothing of it',
      withStatus(binding('phantom', { clusters: { recreated: 1 } }), { schedulerObservedGeneration: 1, lastScheduledTime: PLACED_AT, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'ClusterNotReady' },
    ],
    [
      'placed on a cluster after it was created',
      withStatus(binding('later', { clusters: { recreated: 1 } }), { schedulerObservedGeneration: 1, lastScheduledTime: new Date(NOW + 1).toISOString(), conditions: [scheduled('True', 'Success')] }),
      { needed: false, reason: 'PlacementCurrent' },
    ],
    [
      "placed, and a fresh division asked for since its last schedule (spec.rescheduleTriggeredAt, Karmada's scheduler.go, doScheduleBinding)",
      withStatus(binding('rebalanced', { clusters: { m1: 1 }, rescheduleTriggeredAt: new Date(NOW).toISOString() }), { schedulerObservedGeneration: 1, lastScheduledTime: PLACED_AT, conditions: [scheduled('True', 'Success')] }),
      { needed: true, reason: 'RescheduleTriggered' },
    ],
    [
      'placed after the fresh division asked for',
      withStatus(binding('rebalanced', { clusters: { m1: 1 }, rescheduleTriggeredAt: PLACED_AT }), { schedulerObservedGeneration: 1, lastScheduledTime: new Date(NOW).toISOString(), conditions: [scheduled('True', 'Success')] }),
      { needed: false, reason: 'PlacementCurrent' },
    ],
    [
      'placed on ready clusters, but the condition tells of a failed attempt',
      withStatus(binding('stale', { clusters: { m1: 1 } }), { schedulerObservedGeneration: 1, conditions: [scheduled('False', 'SchedulerError')] }),
      { needed: true, reason: 'ConditionStale' },
    ],
    [
      'placed on a cluster whose labels its affinity term no longer matches',
      current(binding('moved', { clusters: { test: 1 }, placement: { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } } })),
      { needed: true, reason: 'ClusterRefused' },
    ],
    ['placed on a cluster that gained a NoSchedule taint: it stays (the taint applies to later placements)', current(binding('stays', { clusters: { cordoned: 1 } })), { needed: false, reason: 'PlacementCurrent' }],
    ['placed on a cluster with a NoExecute taint it does not tolerate', current(binding('evicted', { clusters: { draining: 1 } })), { needed: true, reason: 'NoExecuteTaint' }],
    [
      'tolerating the NoExecute taint for a minute, half of it gone',
      current(binding('tolerating', { clusters: { draining: 1 }, placement: { clusterTolerations: [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }] } })),
      { needed: false, reason: 'PlacementCurrent' },
    ],
    [
      'tolerating the NoExecute taint for 30 seconds, all of it gone',
      current(binding('tolerated', { clusters: { draining: 1 }, placement: { clusterTolerations: [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 30 }] } })),
      { needed: true, reason: 'NoExecuteTaint' },
    ],
    ['being evicted, within its grace period', evictingFrom(current(binding('evicting', { clusters: { draining: 1 } })), 'draining', 5), { needed: true, reason: 'Evicting' }],
    ['being evicted, its grace period over', evictingFrom(current(binding('evicting', { clusters: { draining: 1 } })), 'draining', 10), { needed: true, reason: 'NoExecuteTaint' }],
    [
      'placed on ready clusters for its current spec',
      withStatus(binding('done', { clusters: { m1: 1 } }), { schedulerObservedGeneration: 1, conditions: [scheduled('True', 'Success')] }),
      { needed: false, reason: 'PlacementCurrent' },
    ],
  ])('%s', (_, subject, expected) => {
    expect(schedulingNeed(subject, clusterOf, NOW, withConfig().schedulerNames)).toEqual(expected);
  });

  it("takes the bindings of the names it is configured with, and leaves the default scheduler's to it when that is not one of them", () => {
    const names = withConfig({ schedulerNames: ['outrank', 'batch'] }).schedulerNames;
    expect(schedulingNeed(binding('ours', { schedulerName: 'batch' }), clusterOf, NOW, names)).toEqual({ needed: true, reason: 'NotPlaced' });
    expect(schedulingNeed(binding('default'), clusterOf, NOW, names)).toEqual({ needed: false, reason: 'OtherScheduler' });
  });

  it.each<[string, ResourceBinding, boolean]>([
    ['binding priority and preemption (000): an unschedulable binding is due again after 5 minutes', withStatus(binding('a'), { schedulerObservedGeneration: 1, conditions: [scheduled('False', 'Unschedulable', 5)] }), true],
    ['binding priority and preemption (000): not before', withStatus(binding('b'), { schedulerObservedGeneration: 1, conditions: [scheduled('False', 'Unschedulable', 4)] }), false],
    ['a binding never attempted is due at once', binding('c'), true],
    ['a SchedulerError whose binding changed since is due at once', withStatus(binding('d'), { schedulerObservedGeneration: 0, conditions: [scheduled('False', 'SchedulerError', 1)] }, 1), true],
  ])('%s', (_, subject, due) => {
    expect(isDue(subject, NOW, withConfig())).toBe(due);
  });

  it('binding priority and preemption (000): failed attempts back off 1 s doubling to 10 s', () => {
    expect([1, 2, 3, 4, 5, 6].map((attempt) => backoffMs(withConfig(), attempt))).toEqual([1_000, 2_000, 4_000, 8_000, 10_000, 10_000]);
  });

  it('waiting for room: not suspended and the last attempt failed', () => {
    expect(isWaitingForRoom(withStatus(binding('w'), { conditions: [scheduled('False', 'Unschedulable')] }))).toBe(true);
    expect(isWaitingForRoom(withStatus(binding('p'), { conditions: [scheduled('True', 'Success')] }))).toBe(false);
    expect(isWaitingForRoom(binding('never'))).toBe(false);
  });
});

describe('the reason a binding needs scheduling travels with it: the SchedulingNeeds metric by controller, and the finishing reports', () => {
  const FIVE_MINUTES = 5 * 60_000;
  const needs = (controller: string, reason: string) => (system: ReturnType<typeof newSystem>) => system.metrics.counter('SchedulingNeeds', { controller, reason });

  it(`${SPEC.priority}: a new binding is NotPlaced to the claim that wrote it and to schedule-cycle, and one left waiting is NotPlaced again to the reconcile and the functions after it`, async () => {
    const system = newSystem();
    const workload = (name: string) => deployment(name, { priorityClassName: 'low', requests: { cpu: '1' } });
    await applyAll(system, [cluster('m1', { cpu: '1' }), priorityClass('low', 1, { preemptionPolicy: 'Never' }), podPriorityPolicy(), workload('holder')]);
    // The claim queues the binding it has just written itself: binding-enqueue never sees it.
    expect(needs('template-claims', 'NotPlaced')(system)).toBe(1);
    expect(needs('binding-enqueue', 'NotPlaced')(system)).toBe(0);
    expect(needs('schedule-cycle', 'NotPlaced')(system)).toBe(1);

    await applyAll(system, [workload('waiting')]);
    expect(needs('template-claims', 'NotPlaced')(system)).toBe(2);
    expect(needs('schedule-cycle', 'NotPlaced')(system)).toBe(2);

    // m1 grows without any controller hearing of it: the flush finds the room.
    const m1 = (await system.store.get<Cluster>(refs.cluster('m1')))!;
    const grown: Cluster = { ...m1, status: { resourceSummary: { allocatable: { ...m1.status?.resourceSummary?.allocatable, cpu: '2' } } } };
    await system.store.transact([{ op: 'put', object: grown, expectedVersion: m1.metadata.resourceVersion ?? null }]);
    await system.policyChangeQueue.delete((await system.policyChangeQueue.receive(10)).map((delivery) => delivery.receipt));
    system.clock.advance(FIVE_MINUTES);
    expect(await system.reconcile.run()).toEqual({ requeued: 1, needs: { NotPlaced: 1 }, flush: { considered: 1, placeable: 1 } });
    expect(needs('reconcile', 'NotPlaced')(system)).toBe(1);

    for (const delivery of await system.bindingEnqueueQueue.receive(10)) await system.bindingEnqueue.handle(delivery.body);
    expect(needs('binding-enqueue', 'NotPlaced')(system)).toBe(1);
    const report = await system.scheduleCycle.run();
    expect(report).toMatchObject({ scheduled: 1, needs: { NotPlaced: 1 } });
    expect(needs('schedule-cycle', 'NotPlaced')(system)).toBe(3);
    expect(needs('schedule-cycle', 'SpecChanged')(system)).toBe(0);
  });
});
