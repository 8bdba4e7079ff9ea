/**
 * Among victims of equal priority each preemptor has an order of its own (victim-tie-order.ts), so that
 * preemptors deciding side by side spread over equal victims instead of all taking the first by key;
 * minimality is untouched (binding priority and preemption (000), "Preemption order"), and the same
 * preemptor on the same fleet always gets the same victims.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inVictimOrder, placeOf, preemptorStart, rankAt, tieRun } from '../../../lib/scheduler/preemption/victim-tie-order';
import { scheduleBinding } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot, type PriorityOrder } from '../../../lib/scheduler/snapshot';
import { binding, cluster, divided } from './support';

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

/** Just the priorities of an order: what the tie order reads of it. */
const orderOf = (priorities: readonly number[]) => ({ priorities: Float64Array.from(priorities) }) as unknown as PriorityOrder;

describe('each priority\'s ranks in a preemptor\'s order: a start and a stride of its own', () => {
  it('visits every rank of the priority once, and placeOf tells when each is met', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 1, max: 300 }), fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (lower, n, higher, seed) => {
        const order = orderOf([...Array<number>(lower).fill(0), ...Array<number>(n).fill(1), ...Array<number>(higher).fill(2)]);
        const run = tieRun(order, lower + (seed % n), seed);
        expect([run.first, run.end]).toEqual([lower, lower + n]);
        const met = Array.from({ length: n }, (_, j) => rankAt(run, j));
        expect([...met].sort((a, b) => a - b)).toEqual(Array.from({ length: n }, (_, i) => lower + i));
        expect(met.map((rank) => placeOf(run, rank))).toEqual(met.map((_, j) => j));
      }),
      { numRuns: 500 },
    );
  });

  it('puts candidates by priority, then in the order each priority\'s run is stepped through', () => {
    const order = orderOf([0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3]);
    const candidates = [0, 2, 3, 5, 6, 7, 9, 11];
    for (const preemptor of ['a', 'b', 'c', 'd']) {
      const seed = preemptorStart(preemptor);
      const stepped = [0, 7].flatMap((first) => {
        const run = tieRun(order, first, seed);
        return Array.from({ length: run.end - run.first }, (_, j) => rankAt(run, j)).filter((rank) => candidates.includes(rank));
      });
      expect([...inVictimOrder(order, candidates, seed)]).toEqual(stepped);
    }
  });

  it('gives preemptors strides of their own, so that starts close together do not lead to the same victims', () => {
    const order = orderOf(Array<number>(1_000).fill(0));
    const runs = Array.from({ length: 400 }, (_, i) => tieRun(order, 0, preemptorStart(`preemptor-${i}`)));
    // Pairs whose starts are within 3 ranks: rotations of one order would share 8 − the gap of their
    // first eight ranks (6.3 on average); with strides of their own, the first rank when the starts are
    // equal (1 in 7 of them) and otherwise as many as two random orders would (8 × 8 / 1,000).
    let close = 0;
    let shared = 0;
    for (let p = 0; p < runs.length; p++) {
      for (let q = p + 1; q < runs.length; q++) {
        const gap = Math.abs(runs[p]!.start - runs[q]!.start);
        if (Math.min(gap, 1_000 - gap) > 3) continue;
        close++;
        const firsts = new Set(Array.from({ length: 8 }, (_, j) => rankAt(runs[p]!, j)));
        shared += Array.from({ length: 8 }, (_, j) => rankAt(runs[q]!, j)).filter((rank) => firsts.has(rank)).length;
      }
    }
    expect(close).toBeGreaterThan(100);
    expect(shared / close).toBeLessThan(0.5);
  });
});

describe(`two equal victims on one full cluster, side by side (${SPEC}, "Preemption order")`, () => {
  const CLUSTERS = 10;
  const PER_CLUSTER = 20;
  /** Full clusters of equal victims of half a cpu each: a preemptor of 1 cpu evicts two on one cluster. */
  function fullFleet() {
    const names = Array.from({ length: CLUSTERS }, (_, c) => `m${c}`);
    const running = names.flatMap((name) =>
      Array.from({ length: PER_CLUSTER }, (_, i) => binding(`${name}-run-${i}`, { priority: 0, request: { cpu: '500m' }, clusters: { [name]: 1 } })),
    );
    return new SchedulingSnapshot(names.map((name) => cluster(name, { allocatable: { cpu: PER_CLUSTER / 2 } })), running);
  }
  const placement = { replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) };
  const pairOf = (snapshot: SchedulingSnapshot, preemptor: string) => {
    const decision = scheduleBinding(binding(preemptor, { priority: 10, placement }), snapshot, { preemption: true, victimSearchBudget: 20_000 });
    if (decision.result !== 'scheduled') throw new Error(`${preemptor} was not placed`);
    return decision.victims.map((victim) => victim.binding.metadata.name).sort();
  };

  it('takes two victims on one cluster, the same for the same preemptor, and seldom the same two for two preemptors', () => {
    const snapshot = fullFleet();
    const pairs = Array.from({ length: 100 }, (_, i) => pairOf(snapshot, `urgent-${i}`));
    for (const pair of pairs) {
      expect(pair).toHaveLength(2);
      expect(pair[0]!.split('-run-')[0]).toBe(pair[1]!.split('-run-')[0]);
    }
    expect(Array.from({ length: 100 }, (_, i) => pairOf(fullFleet(), `urgent-${i}`))).toEqual(pairs);
    let overlapping = 0;
    for (let p = 0; p < pairs.length; p++) {
      for (let q = p + 1; q < pairs.length; q++) if (pairs[p]!.some((victim) => pairs[q]!.includes(victim))) overlapping++;
    }
    // 4,950 pairs of preemptors over 200 victims: two random pairs of victims share one in about 50.
    expect(overlapping / 4_950).toBeLessThan(0.04);
  });
});
