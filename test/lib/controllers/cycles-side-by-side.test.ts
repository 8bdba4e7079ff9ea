import { describe, expect, it, vi } from 'vitest';
import { allocationAdds } from '../../../lib/controllers/allocations';
import type { Write } from '../../../lib/ports/object-store';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { binding } from '../scheduler/support';
import {
  AGGREGATED,
  applyAll,
  bindingOf,
  cluster,
  deployment,
  expectAllocationsMatchBindings,
  newSystem,
  placementOfDeployment,
  podPriorityPolicy,
  priorityClass,
  refs,
  SPEC,
} from './support';

/**
 * Another schedule cycle commits `replicas` of a one-cpu binding on m1 just before this system's cycle
 * commits its first placement, as a cycle running beside it would between its sync and its commit.
 */
function anotherCycleFirst(system: MemorySystem, replicas: number): void {
  const transact = system.store.transact.bind(system.store);
  let done = false;
  vi.spyOn(system.store, 'transact').mockImplementation(async (writes: readonly Write[]) => {
    if (!done && writes.some((write) => write.op === 'add')) {
      done = true;
      const other = binding('other', { clusters: { m1: replicas } });
      const capacity = { cpu: 4000, pods: 110 };
      await transact([{ op: 'put', object: other, expectedVersion: null }, ...allocationAdds(new Map([['m1', { cpu: 1000 * replicas, pods: replicas }]]), { now: '2026-01-01T00:00:00Z', capacityOf: () => capacity })]);
    }
    return transact(writes);
  });
}

describe(`cycles side by side (${SPEC.priority}: never over-commit): a placement conflicts with another cycle's only when the cluster's room runs out`, () => {
  it.each([
    { name: 'room is left after the other placement: committed as decided, no conflict', otherReplicas: 2, placement: { m1: 1 }, conflicts: 0 },
    { name: 'the other placement took the room: one conflict, then placed where room is', otherReplicas: 4, placement: { m2: 1 }, conflicts: 1 },
  ])('$name', async ({ otherReplicas, placement, conflicts }) => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '2' }), podPriorityPolicy('by-pod-priority', AGGREGATED)]);
    anotherCycleFirst(system, otherReplicas);

    // The cycle's snapshot does not see the other placement: m1 looks the roomiest.
    await applyAll(system, [deployment('a', { requests: { cpu: '1' } })]);

    expect(await placementOfDeployment(system, 'a')).toEqual(placement);
    expect(system.metrics.counter('CommitConflicts')).toBe(conflicts);
    expect(system.metrics.counter('PreemptionConflicts', { on: 'victim' }) + system.metrics.counter('PreemptionConflicts', { on: 'other' })).toBe(0);
    await expectAllocationsMatchBindings(system);
  });

  it('counts apart the conflicts of commits that evict: another cycle wrote the victim first', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '1' }), priorityClass('low', 1), priorityClass('high', 10), podPriorityPolicy('by-pod-priority', AGGREGATED)]);
    await applyAll(system, [deployment('victim', { priorityClassName: 'low' })]);
    expect(await placementOfDeployment(system, 'victim')).toEqual({ m1: 1 });
    const victim = refs.binding('victim');
    // Just before the first commit that evicts it, a cycle beside this one writes the victim.
    const transact = system.store.transact.bind(system.store);
    let done = false;
    vi.spyOn(system.store, 'transact').mockImplementation(async (writes: readonly Write[]) => {
      if (!done && writes.length > 1 && writes.some((write) => write.op === 'put' && write.object.metadata.name === victim.name)) {
        done = true;
        const current = await bindingOf(system, 'victim');
        const touched = { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, touched: 'by another cycle' } } };
        await transact([{ op: 'put', object: touched, expectedVersion: current.metadata.resourceVersion ?? null }]);
      }
      return transact(writes);
    });

    await applyAll(system, [deployment('urgent', { priorityClassName: 'high' })]);

    expect(done).toBe(true);
    expect(await placementOfDeployment(system, 'urgent')).toEqual({ m1: 1 });
    expect(system.metrics.counter('CommitConflicts')).toBe(1);
    expect(system.metrics.counter('PreemptionConflicts', { on: 'victim' })).toBe(1);
    expect(system.metrics.counter('PreemptionConflicts', { on: 'other' })).toBe(0);
    await expectAllocationsMatchBindings(system);
  });
});
