import { describe, expect, it, vi } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { ConflictError, refOfWrite, type Write } from '../../../lib/ports/object-store';
import {
  ALL_DEPLOYMENTS,
  AGGREGATED,
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventSubjects,
  neverClasses,
  newSystem,
  placementOf,
  placementOfDeployment,
  placementOrder,
  podPriorityPolicy,
  priorityClass,
  propagationPolicy,
  refs,
  SPEC,
} from './support';

/** A workload of one replica requesting one CPU, with priority class p<priority>. */
function workload(name: string, priority: number) {
  return deployment(name, { priorityClassName: `p${priority}`, requests: { cpu: '1' } });
}

interface OrderCase {
  readonly name: string;
  /** [workload, priority], applied in this order in one step. */
  readonly workloads: ReadonlyArray<readonly [string, number]>;
  readonly priorityOrder: readonly string[];
  readonly fifoOrder: readonly string[];
}

const ORDER_CASES: readonly OrderCase[] = [
  { name: 'priorities 1, 3, 2', workloads: [['a', 1], ['b', 3], ['c', 2]], priorityOrder: ['b', 'c', 'a'], fifoOrder: ['a', 'b', 'c'] },
  { name: 'equal priorities', workloads: [['c', 5], ['a', 5], ['b', 5]], priorityOrder: ['c', 'a', 'b'], fifoOrder: ['c', 'a', 'b'] },
  {
    name: 'two priorities interleaved',
    workloads: [['a', 1], ['b', 5], ['c', 1], ['d', 5], ['e', 1]],
    priorityOrder: ['b', 'd', 'a', 'c', 'e'],
    fifoOrder: ['a', 'b', 'c', 'd', 'e'],
  },
  {
    name: 'priorities in different bands (negative, default, high, system)',
    workloads: [['low', -5], ['mid', 5], ['high', 5_000], ['system', 1_000_000_000]],
    priorityOrder: ['system', 'high', 'mid', 'low'],
    fifoOrder: ['low', 'mid', 'high', 'system'],
  },
];

function classesFor(testCase: OrderCase) {
  return neverClasses(...new Set(testCase.workloads.map(([, priority]) => priority)));
}

async function runOrderCase(system: MemorySystem, testCase: OrderCase, roomFor: number): Promise<void> {
  await applyAll(system, [cluster('m1', { cpu: String(roomFor) }), ...classesFor(testCase), podPriorityPolicy()]);
  await applyAll(system, testCase.workloads.map(([name, priority]) => workload(name, priority)));
}

async function placedWorkloads(system: MemorySystem, names: readonly string[]): Promise<string[]> {
  const placed: string[] = [];
  for (const name of names) if (Object.keys(await placementOfDeployment(system, name)).length > 0) placed.push(name);
  return placed;
}

describe(`priority queue order (${SPEC.priority}, "karmada-scheduler": priority scheduling queue)`, () => {
  it.each(ORDER_CASES)(`${SPEC.priority}: bindings queued together are placed highest priority first, FIFO within a priority: $name`, async (testCase) => {
    const system = newSystem();
    await runOrderCase(system, testCase, testCase.workloads.length);
    expect(await placementOrder(system)).toEqual(testCase.priorityOrder);
  });

  it.each(ORDER_CASES)(`${SPEC.priority}: the last room goes to the highest priority, the earliest among equals: $name`, async (testCase) => {
    const system = newSystem();
    await runOrderCase(system, testCase, 1);
    const names = testCase.workloads.map(([name]) => name);
    expect(await placedWorkloads(system, names)).toEqual([testCase.priorityOrder[0]]);
    // Every other binding was tried after the winner and found no room.
    expect(await eventSubjects(system, 'ScheduleBindingFailed')).toEqual(
      testCase.priorityOrder.slice(1).map((name) => `${name}-deployment`),
    );
  });

  it.each(ORDER_CASES)(`${SPEC.priority}: with the PriorityBasedScheduling gate off the queue is plain FIFO: $name`, async (testCase) => {
    const system = newSystem({ gates: { PriorityBasedScheduling: false } });
    await runOrderCase(system, testCase, testCase.workloads.length);
    expect(await placementOrder(system)).toEqual(testCase.fifoOrder);
  });

  it(`${SPEC.priority}: with the PriorityBasedScheduling gate off the first queued gets the last room, whatever the priorities`, async () => {
    const system = newSystem({ gates: { PriorityBasedScheduling: false } });
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1, 9), podPriorityPolicy()]);
    await applyAll(system, [workload('early-low', 1), workload('late-high', 9)]);
    expect(await placedWorkloads(system, ['early-low', 'late-high'])).toEqual(['early-low']);
  });

  it(`${SPEC.priority}: bindings queued at a later time come after those queued earlier, even with the same priority`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(5), podPriorityPolicy()]);
    await system.objects.apply(workload('first', 5));
    system.clock.advance(1);
    await system.objects.apply(workload('second', 5));
    await system.runUntilIdle();
    expect(await placedWorkloads(system, ['first', 'second'])).toEqual(['first']);
  });
});

describe(`an unschedulable high-priority binding does not block lower ones (${SPEC.priority}, "Effect of priority on scheduling")`, () => {
  it.each([
    { name: 'too big for any cluster, preemption not allowed', preemptionPolicy: 'Never' as const },
    { name: 'too big even if every lower binding were preempted', preemptionPolicy: 'PreemptLowerPriority' as const },
  ])(`${SPEC.priority}: $name`, async ({ preemptionPolicy }) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '2' }),
      priorityClass('high', 1_000, { preemptionPolicy }),
      ...neverClasses(1),
      podPriorityPolicy(),
    ]);
    await applyAll(system, [
      deployment('big', { priorityClassName: 'high', requests: { cpu: '3' } }),
      workload('small-a', 1),
      workload('small-b', 1),
    ]);

    expect(await placementOrder(system)).toEqual(['small-a', 'small-b']);
    const big = await bindingOf(system, 'big');
    expect(placementOf(big)).toEqual({});
    expect(conditionOf(big, 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    // The high-priority binding was tried first, and nobody was preempted for it.
    expect(await eventSubjects(system, 'ScheduleBindingFailed')).toEqual(['big-deployment']);
    expect(system.metrics.counter('BindingPreemptions')).toBe(0);
  });
});

/**
 * Makes the store refuse every transaction that moves a ClusterAllocation (only placements and removals do)
 * with a ConflictError, `failures` times; returns how many it refused so far.
 */
function failPlacements(system: MemorySystem, failures: number): { refused: () => number } {
  let refused = 0;
  const transact = system.store.transact.bind(system.store);
  vi.spyOn(system.store, 'transact').mockImplementation(async (writes: readonly Write[]) => {
    const placing = writes.some((w) => w.op === 'add' && w.object.kind === 'ClusterAllocation');
    if (placing && refused < failures) {
      refused += 1;
      throw new ConflictError(writes.map((w) => (w.op === 'put' ? refs.binding('x') : refOfWrite(w))));
    }
    return transact(writes);
  });
  return { refused: () => refused };
}

describe(`failed attempts back off (${SPEC.priority}: the queue keeps the work queue's functionality, 1 s doubling to 10 s)`, () => {
  it(`${SPEC.priority}: a binding whose commits keep conflicting is retried after 1, 2, 4, 8, 10 and 10 seconds, and not earlier`, async () => {
    const system = newSystem();
    const attemptsPerDelivery = system.context.config.maxCommitAttempts;
    const expectedDelays = [1_000, 2_000, 4_000, 8_000, 10_000, 10_000];
    await applyAll(system, [cluster('m1', { cpu: '4' }), ...neverClasses(5), podPriorityPolicy()]);
    const store = failPlacements(system, attemptsPerDelivery * expectedDelays.length);
    const band = system.bandQueues.get('default')!;

    await applyAll(system, [workload('web', 5)]);
    expect(store.refused()).toBe(attemptsPerDelivery);
    const failed = await bindingOf(system, 'web');
    expect(conditionOf(failed, 'Scheduled')).toMatchObject({ status: 'False', reason: 'SchedulerError' });
    expect(system.metrics.counter('SchedulingAttempts', { result: 'error' })).toBe(1);

    for (const [index, delay] of expectedDelays.entries()) {
      system.clock.advance(delay - 1);
      await system.runUntilIdle();
      // Still waiting: the message is held by the queue but not delivered.
      expect(store.refused(), `before retry ${index + 1}`).toBe(attemptsPerDelivery * (index + 1));
      expect(band.held()).toBe(1);
      system.clock.advance(1);
      await system.runUntilIdle();
    }
    expect(store.refused()).toBe(attemptsPerDelivery * expectedDelays.length);
    const placed = await bindingOf(system, 'web');
    expect(placementOf(placed)).toEqual({ m1: 1 });
    expect(conditionOf(placed, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    expect(band.held()).toBe(0);
  });

  it(`${SPEC.priority}: a conflict that clears within the commit attempts places the binding without any backoff`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), ...neverClasses(5), podPriorityPolicy()]);
    const store = failPlacements(system, system.context.config.maxCommitAttempts - 1);
    await applyAll(system, [workload('web', 5)]);
    expect(store.refused()).toBe(system.context.config.maxCommitAttempts - 1);
    expect(await placementOfDeployment(system, 'web')).toEqual({ m1: 1 });
    expect(system.metrics.counter('SchedulingAttempts', { result: 'error' })).toBe(0);
  });
});

interface RoomCase {
  readonly name: string;
  readonly free: (system: MemorySystem) => Promise<void>;
  readonly placedOn: Record<string, number>;
}

const ROOM_CASES: readonly RoomCase[] = [
  {
    name: 'the template of a placed binding is deleted',
    free: async (system) => {
      await system.objects.delete(refs.deployment('holder'));
    },
    placedOn: { m1: 1 },
  },
  {
    name: 'a cluster is added',
    free: async (system) => {
      await system.objects.apply(cluster('m2', { cpu: '2' }));
    },
    placedOn: { m2: 1 },
  },
  {
    name: 'a cluster grows (status patched)',
    free: async (system) => {
      await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { cpu: '6' } } } });
    },
    placedOn: { m1: 1 },
  },
  {
    name: 'a cluster reports less allocated',
    free: async (system) => {
      await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocated: null } } });
    },
    placedOn: { m1: 1 },
  },
];

/** Divided onto as few clusters as possible, so that a binding can go to whichever cluster has room. */

describe(`unschedulable bindings are queued again when room is freed (${SPEC.priority})`, () => {
  it.each(ROOM_CASES)(`${SPEC.priority}: $name`, async ({ free, placedOn }) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }, { allocated: { cpu: '2' } }),
      ...neverClasses(1),
      podPriorityPolicy('by-pod-priority', AGGREGATED),
      deployment('holder', { priorityClassName: 'p1', requests: { cpu: '2' } }),
    ]);
    await applyAll(system, [deployment('waiting', { priorityClassName: 'p1', requests: { cpu: '2' } })]);
    expect(conditionOf(await bindingOf(system, 'waiting'), 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });

    await free(system);
    await system.runUntilIdle();
    const waiting = await bindingOf(system, 'waiting');
    expect(placementOf(waiting)).toEqual(placedOn);
    expect(conditionOf(waiting, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.priority}: a preempted binding frees more room than its preemptor needs, and a waiting binding gets the rest`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      ...neverClasses(1, 2),
      priorityClass('urgent', 10),
      podPriorityPolicy(),
    ]);
    await applyAll(system, [deployment('victim', { priorityClassName: 'p1', requests: { cpu: '4' } })]);
    await applyAll(system, [deployment('waiting', { priorityClassName: 'p2', requests: { cpu: '1' } })]);
    expect(await placementOfDeployment(system, 'waiting')).toEqual({});

    await applyAll(system, [deployment('urgent', { priorityClassName: 'urgent', requests: { cpu: '3' } })]);
    expect(await eventSubjects(system, 'Preempted')).toEqual(['victim-deployment']);
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ m1: 1 });
    expect(await placementOfDeployment(system, 'waiting')).toEqual({ m1: 1 });
    expect(await placementOfDeployment(system, 'victim')).toEqual({});
  });

  it(`${SPEC.priority}: a binding woken for room that another takes first passes the room on to a waiting binding that fits`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '3' }), ...neverClasses(1, 2, 150), priorityClass('mid', 50), podPriorityPolicy()]);
    await applyAll(system, [deployment('low', { priorityClassName: 'p1', requests: { cpu: '3' } })]);
    await applyAll(system, [deployment('small', { priorityClassName: 'p2', requests: { cpu: '1' } })]);
    expect(await placementOfDeployment(system, 'small')).toEqual({});

    // big (150, never preempts) waits; first preempts low, and big is woken for 2 of the 2 cpu left,
    // so small is not; second (placed before big's attempt) takes 1, big no longer fits and passes on.
    await applyAll(system, [
      deployment('big', { priorityClassName: 'p150', requests: { cpu: '2' } }),
      deployment('first', { priorityClassName: 'mid', requests: { cpu: '1' } }),
      deployment('second', { priorityClassName: 'mid', requests: { cpu: '1' } }),
    ]);
    expect(await eventSubjects(system, 'Preempted')).toEqual(['low-deployment']);
    expect(await placementOfDeployment(system, 'big')).toEqual({});
    expect(await placementOfDeployment(system, 'small')).toEqual({ m1: 1 });
    expect(await placementOfDeployment(system, 'first')).toEqual({ m1: 1 });
    expect(await placementOfDeployment(system, 'second')).toEqual({ m1: 1 });
  });

  it(`${SPEC.priority}: nothing is queued again while no room is freed`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1), podPriorityPolicy(), workload('holder', 1)]);
    await applyAll(system, [workload('waiting', 1)]);
    const before = await bindingOf(system, 'waiting');
    // A template that is not placed goes away: it frees nothing.
    await applyAll(system, [deployment('huge', { priorityClassName: 'p1', requests: { cpu: '100' } })]);
    await system.objects.delete(refs.deployment('huge'));
    await system.runUntilIdle();
    expect((await bindingOf(system, 'waiting')).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });
});

/**
 * Grows a cluster behind the controllers' back: its announcement is dropped, as when policy-change gave
 * up on the change (its stream record went to the dead-letter queue after every retry failed).
 */
async function growSilently(system: MemorySystem, name: string, cpu: string): Promise<void> {
  const current = (await system.store.get<Cluster>(refs.cluster(name)))!;
  const grown: Cluster = { ...current, status: { resourceSummary: { allocatable: { ...current.status?.resourceSummary?.allocatable, cpu } } } };
  await system.store.transact([{ op: 'put', object: grown, expectedVersion: current.metadata.resourceVersion ?? null }]);
  const dropped = await system.policyChangeQueue.receive(10);
  expect(dropped.map((delivery) => delivery.body.ref.name)).toEqual([name]);
  await system.policyChangeQueue.delete(dropped.map((delivery) => delivery.receipt));
}

async function failedAttempts(system: MemorySystem, name: string): Promise<number> {
  return (await eventSubjects(system, 'ScheduleBindingFailed')).filter((subject) => subject === `${name}-deployment`).length;
}

describe(`the reconcile queues unschedulable bindings again after 5 minutes (${SPEC.priority}, issue rule 4: "at the latest after 5 minutes")`, () => {
  const FIVE_MINUTES = 5 * 60_000;

  it(`${SPEC.priority}: an unschedulable binding is looked at again at 5 minutes and not before, and queued only if it would be placed now`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1), podPriorityPolicy(), workload('holder', 1)]);
    await applyAll(system, [workload('waiting', 1)]);
    expect(await failedAttempts(system, 'waiting')).toBe(1);
    const reconcileAfter = async (ms: number) => {
      system.clock.advance(ms);
      const report = await system.reconcile.run();
      const sent = system.bindingEnqueueQueue.held();
      await system.runUntilIdle();
      return { flush: report.flush, sent };
    };

    expect(await reconcileAfter(FIVE_MINUTES - 1)).toEqual({ flush: { considered: 0, placeable: 0 }, sent: 0 });
    // Nothing changed: it is looked at, would fail again, and costs no message and no attempt.
    expect(await reconcileAfter(1)).toEqual({ flush: { considered: 1, placeable: 0 }, sent: 0 });
    expect(await failedAttempts(system, 'waiting')).toBe(1);
    // Looked at again an interval after it was last looked at, not at every run.
    expect(await reconcileAfter(60_000)).toEqual({ flush: { considered: 0, placeable: 0 }, sent: 0 });
    expect(await reconcileAfter(FIVE_MINUTES - 60_000 - 1)).toEqual({ flush: { considered: 0, placeable: 0 }, sent: 0 });
    expect(await reconcileAfter(1)).toEqual({ flush: { considered: 1, placeable: 0 }, sent: 0 });
    // Room that no notification told of: the next flush queues it, and it is placed.
    await growSilently(system, 'm1', '2');
    expect(await reconcileAfter(FIVE_MINUTES)).toEqual({ flush: { considered: 1, placeable: 1 }, sent: 1 });
    expect(await placementOfDeployment(system, 'waiting')).toEqual({ m1: 1 });
  });

  it(`${SPEC.priority}: room that appeared without any notification is used at the 5-minute requeue`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1), podPriorityPolicy(), workload('holder', 1)]);
    await applyAll(system, [workload('waiting', 1)]);
    await growSilently(system, 'm1', '2');
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'waiting')).toEqual({});

    await system.advance(FIVE_MINUTES - 1);
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'waiting')).toEqual({});

    await system.advance(1);
    await system.runUntilIdle();
    const waiting: ResourceBinding = await bindingOf(system, 'waiting');
    expect(placementOf(waiting)).toEqual({ m1: 1 });
    expect(conditionOf(waiting, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });

  it(`${SPEC.priority}: placed bindings are left alone by the reconcile`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1), podPriorityPolicy(), workload('holder', 1)]);
    const before = await bindingOf(system, 'holder');
    await system.advance(FIVE_MINUTES * 3);
    await system.runUntilIdle();
    expect((await bindingOf(system, 'holder')).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  });

  it.each(['Duplicated', 'Divided'])(`${SPEC.priority}: a %s binding of 0 replicas is scheduled once and then left alone`, async (replicaSchedulingType) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '1' }),
      propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS, placement: { replicaScheduling: { replicaSchedulingType } } }),
      deployment('idle', { replicas: 0 }),
    ]);
    const before = await bindingOf(system, 'idle');
    expect(conditionOf(before, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    await system.advance(FIVE_MINUTES);
    await system.runUntilIdle();
    await system.advance(FIVE_MINUTES);
    await system.runUntilIdle();
    expect((await bindingOf(system, 'idle')).metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(await placementOrder(system)).toEqual(['idle']);
  });
});

describe('the reconcile does not deepen a backlog', () => {
  const FIVE_MINUTES = 5 * 60_000;

  /**
   * Ten bindings waiting for room on a full cluster, each tried once and found unschedulable; then the
   * cluster grows without any notification, so that the flush finds room for all of them.
   */
  async function waitingFleet(overrides: Parameters<typeof newSystem>[0] = {}) {
    const system = newSystem(overrides);
    await applyAll(system, [cluster('m1', { cpu: '1' }), ...neverClasses(1), podPriorityPolicy(), workload('holder', 1)]);
    await applyAll(system, Array.from({ length: 10 }, (_, i) => workload(`waiting-${i}`, 1)));
    await growSilently(system, 'm1', '20');
    return system;
  }

  it('requests a due binding under the same deduplication id at every run, so a repeat within five minutes is dropped', async () => {
    const system = await waitingFleet();
    await system.advance(FIVE_MINUTES);
    // The band work is not drained: the requests stay on the binding-enqueue queue.
    expect(system.bindingEnqueueQueue.held()).toBe(10);
    await system.advance(60_000);
    await system.advance(60_000);
    expect(system.bindingEnqueueQueue.held()).toBe(10);
  });

  it('adds only what the binding-enqueue queue lacks of reconcileLimit, highest priority first', async () => {
    const system = await waitingFleet({ reconcileLimit: 4 });
    await system.advance(FIVE_MINUTES);
    expect(system.bindingEnqueueQueue.held()).toBe(4);
    await system.runUntilIdle();
    expect(await failedAttempts(system, 'waiting-0')).toBeGreaterThanOrEqual(1);
  });
});
