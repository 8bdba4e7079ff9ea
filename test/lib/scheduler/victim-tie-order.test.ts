/**
 * Among victims of equal priority each preemptor has an order of its own (victim-tie-order.ts), so that
 * preemptors deciding side by side spread over equal victims instead of all taking the first by key;
 * minimality is untouched (binding priority and preemption (000), "Preemption order"), and the same
 * preemptor on the same fleet always gets the same victims.
 */
import { describe, expect, it } from 'vitest';
import { scheduleBinding } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

const SPEC = 'binding priority and preemption (000)';
const EQUALS = 20;

/** One cluster full of EQUALS equal victims (priority 0, 1 cpu each) and one of priority 1. */
function fleet() {
  const running = [
    ...Array.from({ length: EQUALS }, (_, i) => binding(`equal-${String(i).padStart(2, '0')}`, { priority: 0, clusters: { m1: 1 } })),
    binding('higher', { priority: 1, clusters: { m1: 1 } }),
  ];
  return new SchedulingSnapshot([cluster('m1', { allocatable: { cpu: EQUALS + 1 } })], running);
}

function victimsOf(snapshot: SchedulingSnapshot, preemptor: string, cpu: number): string[] {
  const decision = scheduleBinding(binding(preemptor, { priority: 10, request: { cpu } }), snapshot, { preemption: true, victimSearchBudget: 20_000 });
  if (decision.result !== 'scheduled') throw new Error(`${preemptor} was not placed`);
  return decision.victims.map((victim) => victim.binding.metadata.name);
}

describe(`victims of equal priority in each preemptor's own order (${SPEC}, "Preemption order")`, () => {
  it('spreads preemptors over equal victims, never above the lowest priority, the same for the same preemptor', () => {
    const snapshot = fleet();
    const first = Array.from({ length: 40 }, (_, i) => victimsOf(snapshot, `preemptor-${i}`, 1));
    for (const victims of first) expect(victims).toHaveLength(1);
    expect(first.flat().every((name) => name.startsWith('equal-'))).toBe(true);
    // 40 preemptors over 20 equal victims: by key alone all 40 would take equal-00.
    expect(new Set(first.flat()).size).toBeGreaterThanOrEqual(10);
    expect(Array.from({ length: 40 }, (_, i) => victimsOf(fleet(), `preemptor-${i}`, 1))).toEqual(first);
  });

  it('keeps the fewest victims and the lowest priorities when several are needed', () => {
    const snapshot = fleet();
    for (let i = 0; i < 20; i++) {
      const victims = victimsOf(snapshot, `preemptor-${i}`, 3);
      expect(victims).toHaveLength(3);
      expect(victims.every((name) => name.startsWith('equal-'))).toBe(true);
    }
  });
});
