import { describe, expect, it } from 'vitest';
import { ScheduleCycleController } from '../../../lib/controllers/schedule-cycle';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { cluster, deployment, newSystem, podPriorityPolicy, priorityClass } from './support';

/** Bindings made and queued in their band, none scheduled yet. */
async function queued(count: number): Promise<MemorySystem> {
  const system = newSystem();
  for (const manifest of [cluster('m1', { cpu: '100' }), priorityClass('p1', 1), podPriorityPolicy()]) await system.objects.apply(manifest);
  for (let index = 0; index < count; index += 1) await system.objects.apply(deployment(`web-${index}`, { priorityClassName: 'p1', requests: { cpu: '1' } }));
  for (let deliveries = await system.policyChangeQueue.receive(10); deliveries.length > 0; deliveries = await system.policyChangeQueue.receive(10)) {
    for (const delivery of deliveries) await system.policyChange.handle(delivery.body);
    await system.policyChangeQueue.delete(deliveries.map((delivery) => delivery.receipt));
  }
  // Every commit takes a second of the clock.
  const transact = system.store.transact.bind(system.store);
  system.store.transact = async (writes) => {
    system.clock.advance(1_000);
    return transact(writes);
  };
  return system;
}

describe('a schedule cycle starts no batch it has no time to finish', () => {
  it('tells its stop check how long the longest batch so far took', async () => {
    const system = await queued(15);
    const told: number[] = [];
    const report = await new ScheduleCycleController(system.context).run((longestBatchMs) => (told.push(longestBatchMs), false));
    expect(report.scheduled).toBe(15);
    // Ten commits, then five: the longest stays the first.
    expect(told).toEqual([0, 10_000, 10_000]);
  });

  it('stops before a batch when the check says the next one may not fit', async () => {
    const system = await queued(15);
    const report = await new ScheduleCycleController(system.context).run((longestBatchMs) => longestBatchMs >= 10_000);
    expect(report.scheduled).toBe(10);
  });
});
