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

describe('a schedule cycle starts no work it has no time to finish', () => {
  it('asks its stop check with twice the longest batch before a batch, and twice the longest binding before each binding', async () => {
    const system = await queued(15);
    const asked: number[] = [];
    const report = await new ScheduleCycleController(system.context).run((neededMs) => (asked.push(neededMs), false));
    expect(report.scheduled).toBe(15);
    // A batch of ten commits (a second each), then one of five, then an empty one; the longest binding
    // is the longest of the whole run.
    const bindings = (count: number) => Array<number>(count).fill(2_000);
    expect(asked).toEqual([0, 0, ...bindings(9), 20_000, ...bindings(5), 20_000]);
  });

  it('stops before a batch when the check says the next one may not fit', async () => {
    const system = await queued(15);
    const report = await new ScheduleCycleController(system.context).run((neededMs) => neededMs >= 20_000);
    expect(report.scheduled).toBe(10);
  });

  it('ends a batch early when the time left is less than the next binding needs, and the rest go back to the band at once', async () => {
    const system = await queued(15);
    // As the function's check: 25 s left at the start, 15 s kept back.
    const deadline = system.clock.now() + 25_000;
    const report = await new ScheduleCycleController(system.context).run((neededMs) => deadline - system.clock.now() < 15_000 + neededMs);
    // Nine commits leave 16 s: the tenth binding would need 15 s kept back and 2 s.
    expect(report.scheduled).toBe(9);
    expect(system.metrics.counter('BindingsReturnedForTime')).toBe(1);
    // The one returned and the five never received are taken by the next cycle, with no wait.
    const next = await new ScheduleCycleController(system.context).run();
    expect(next.scheduled).toBe(6);
  });
});
