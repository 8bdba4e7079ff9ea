import { describe, expect, it } from 'vitest';
import { checkInvariants } from '../../lib/check/invariants';
import { listBindings } from '../../lib/controllers/binding-requests';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { ScheduleCycleController } from '../../lib/controllers/schedule-cycle';
import { MemorySystem } from '../../lib/runtime/memory-system';
import { fleet, fleetCapacity, FULL_BASE_CPUS, highPriorityWork, lowPriorityWork } from './support/fleet';
import { drain } from './support/seed';

const CYCLES = 4;

/**
 * Runs policy-change and binding-enqueue, then CYCLES schedule cycles at once, until nothing is left.
 * The in-memory ports answer asynchronously, so the cycles interleave at every call they make: each
 * decides on a snapshot the others are changing.
 */
async function settleWithConcurrentCycles(system: MemorySystem): Promise<void> {
  for (;;) {
    const handled =
      (await drain(system.policyChangeQueue, (change) => system.policyChange.handle(change))) +
      (await drain(system.bindingEnqueueQueue, (request) => system.bindingEnqueue.handle(request)));
    const reports = await Promise.all(Array.from({ length: CYCLES }, () => new ScheduleCycleController(system.context).run()));
    if (handled + reports.reduce((sum, r) => sum + r.scheduled + r.unschedulable + r.skipped + r.failed, 0) > 0) continue;
    // Attempts that kept conflicting wait out their backoff.
    if ([...system.bandQueues.values()].every((queue) => queue.held() === 0)) return;
    system.clock.advance(system.context.config.maxBackoffMs);
  }
}

describe(`${CYCLES} schedule cycles interleaved in memory over the concurrency test's 1,000 bindings`, () => {
  it('never over-commit a cluster, and keep allocations equal to the placed bindings', async () => {
    const system = new MemorySystem();
    for (const manifest of [...fleet(FULL_BASE_CPUS), ...lowPriorityWork(fleetCapacity(FULL_BASE_CPUS))]) await system.objects.apply(manifest);
    await settleWithConcurrentCycles(system);
    for (const manifest of highPriorityWork(10)) await system.objects.apply(manifest);
    await settleWithConcurrentCycles(system);

    const report = checkInvariants({
      clusters: await system.store.list('cluster.karmada.io', 'Cluster'),
      bindings: await listBindings(system.context),
      allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
      events: await system.events.list(),
    });
    expect(report.violations).toEqual([]);
    expect(report.summary).toMatchObject({ bindings: 1000, placed: 990, pending: 10, preemptions: 10 });
  });
});
