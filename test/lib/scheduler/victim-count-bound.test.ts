/**
 * The lower bounds the preemption oracle gives the victim search (binding priority and preemption (000), "Preemption
 * order": fewest victims). A bound that is too high would make the search miss the minimum, so every
 * bound is checked against every feasible set of small random fleets; the table shows what they claim.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3'];

interface Capacity {
  readonly cpu: number;
  readonly memory: number;
  /** A pod limit, so that pods can be short too; none by default. */
  readonly pods?: number;
  /** What the member cluster reports as allocated by others: above allocatable, the cluster is over-committed. */
  readonly allocatedCpu?: number;
}

interface Fleet {
  readonly capacity: readonly Capacity[];
  readonly running: readonly ResourceBinding[];
  readonly preemptor: { readonly cpu: number; readonly memory: number };
  readonly requirement: Requirement;
}

function oracleFor(fleet: Fleet) {
  const clusters = CLUSTERS.map((name, i) => {
    const { cpu, memory, pods, allocatedCpu } = fleet.capacity[i]!;
    return cluster(name, {
      allocatable: { cpu, memory, ...(pods === undefined ? {} : { pods }) },
      ...(allocatedCpu === undefined ? {} : { allocated: { cpu: allocatedCpu } }),
    });
  });
  const snapshot = new SchedulingSnapshot(clusters, fleet.running);
  const preemptor = bindingState(binding('pending', { priority: 100, request: fleet.preemptor }));
  const states = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
  const placements = candidatePlacements(states, snapshot, preemptor);
  return {
    oracle: new PlacementOracle(preemptor, states, placements, snapshot, fleet.requirement),
    size: placements.candidates.length,
    keys: placements.candidates.map((candidate) => candidate.key),
  };
}

function feasibleSets(oracle: PlacementOracle, size: number): boolean[] {
  return Array.from({ length: 1 << size }, (_, mask) => {
    const members = indexesOf(mask, size);
    members.forEach((index) => oracle.evict(index));
    const feasible = oracle.feasible();
    members.forEach((index) => oracle.restore(index));
    return feasible;
  });
}

/** fewest[mask]: the smallest feasible set made of `mask` and candidates below `below`; +∞ when none is. */
function fewestContaining(feasible: readonly boolean[], size: number, below: number): number[] {
  const fewest = new Array<number>(1 << size).fill(Number.POSITIVE_INFINITY);
  for (let mask = (1 << size) - 1; mask >= 0; mask--) {
    if (feasible[mask]) fewest[mask] = indexesOf(mask, size).length;
    for (let index = 0; index < below; index++) {
      if ((mask & (1 << index)) === 0) fewest[mask] = Math.min(fewest[mask]!, fewest[mask | (1 << index)]!);
    }
  }
  return fewest;
}

function indexesOf(mask: number, size: number): number[] {
  return Array.from({ length: size }, (_, index) => index).filter((index) => (mask & (1 << index)) !== 0);
}

const placed = fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 3 }), { minKeys: 1, maxKeys: 3 });

const fleet: fc.Arbitrary<Fleet> = fc.record({
  capacity: fc.array(
    fc.record(
      {
        cpu: fc.integer({ min: 0, max: 30 }),
        memory: fc.integer({ min: 0, max: 30 }),
        pods: fc.integer({ min: 0, max: 12 }),
        allocatedCpu: fc.integer({ min: 0, max: 40 }),
      },
      { requiredKeys: ['cpu', 'memory'] },
    ),
    { minLength: 3, maxLength: 3 },
  ),
  running: fc
    .array(fc.record({ priority: fc.integer({ min: 0, max: 3 }), cpu: fc.integer({ min: 0, max: 6 }), memory: fc.integer({ min: 0, max: 6 }), placed }), {
      maxLength: 10,
    })
    .map((drafts) => drafts.map((d, i) => binding(`r${i}`, { priority: d.priority, request: { cpu: d.cpu, memory: d.memory }, clusters: d.placed }))),
  preemptor: fc.record({ cpu: fc.integer({ min: 1, max: 8 }), memory: fc.integer({ min: 0, max: 8 }) }),
  requirement: fc.oneof(
    fc
      .dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 0, max: 3 }), { minKeys: 1 })
      .map((need): Requirement => ({ type: 'per-cluster', need: new Map(Object.entries(need)) })),
    fc.integer({ min: 0, max: 8 }).map((replicas): Requirement => ({ type: 'pooled', replicas })),
  ),
});

describe(`victim count bounds (${SPEC}, fewest victims)`, () => {
  it('never claim more victims than the smallest feasible set of the evicted ones and candidates below a limit has besides them', () => {
    fc.assert(
      fc.property(fleet, (f) => {
        const { oracle, size } = oracleFor(f);
        const feasible = feasibleSets(oracle, size);
        for (let below = 0; below <= size; below++) {
          fewestContaining(feasible, size, below).forEach((smallest, mask) => {
            if (Number.isFinite(smallest)) {
              const evicted = indexesOf(mask, size);
              expect(oracle.lowerBound(evicted, below)).toBeLessThanOrEqual(smallest - evicted.length);
            }
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('name, as completions, every candidate below a limit that makes the evicted ones feasible alone, in ascending order', () => {
    fc.assert(
      fc.property(fleet, (f) => {
        const { oracle, size } = oracleFor(f);
        const feasible = feasibleSets(oracle, size);
        for (const below of new Set([0, size >> 1, size, size + 1])) {
          for (let mask = 0; mask < 1 << size; mask++) {
            const listed = Array.from(oracle.completions(indexesOf(mask, size), below));
            const needed = indexesOf(((1 << Math.min(below, size)) - 1) & ~mask, size).filter((candidate) => feasible[mask | (1 << candidate)]);
            const ascendingBelow = listed.every((candidate, m) => candidate < below && (m === 0 || listed[m - 1]! < candidate));
            const missing = needed.filter((candidate) => !listed.includes(candidate));
            // Asserted only on a failure, with what went wrong: a million expect calls would be slow.
            if (!ascendingBelow || missing.length > 0) expect({ mask, below, listed, ascendingBelow, missing }).toEqual({ mask, below, listed, ascendingBelow: true, missing: [] });
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leave out of the completions a candidate that does not close every gap', () => {
    const f: Fleet = {
      capacity: [{ cpu: 4, memory: 0 }, { cpu: 3, memory: 0 }, { cpu: 0, memory: 0 }],
      running: [
        binding('a', { request: { cpu: 2 }, clusters: { m1: 1 } }),
        binding('both', { request: { cpu: 2 }, clusters: { m1: 1, m2: 1 } }),
        binding('c', { request: { cpu: 1 }, clusters: { m2: 1 } }),
      ],
      preemptor: { cpu: 2, memory: 0 },
      requirement: { type: 'per-cluster', need: new Map([['m1', 1], ['m2', 1]]) },
    };
    // Only "both" frees 2 cpu on m1 and on m2.
    const { oracle, keys } = oracleFor(f);
    expect(Array.from(oracle.completions([], 3), (index) => keys[index])).toEqual(['ResourceBinding.work.karmada.io/default/both']);
  });

  const onM1 = (name: string, cpu: number, memory = 0, priority = 0) => binding(name, { priority, request: { cpu, memory }, clusters: { m1: 1 } });
  const full = (cpu: number, memory = 0) => [{ cpu, memory }, { cpu: 0, memory: 0 }, { cpu: 0, memory: 0 }];
  const need = (entries: Record<string, number>): Requirement => ({ type: 'per-cluster', need: new Map(Object.entries(entries)) });

  it.each<[string, Fleet, number[], number, number?]>([
    ['nothing short: no victims', { capacity: full(10), running: [onM1('a', 2)], preemptor: { cpu: 2, memory: 0 }, requirement: need({ m1: 1 }) }, [], 0],
    [
      'one cluster 3 cpu short, candidates of 2, 1, 1 cpu: the two largest',
      { capacity: full(4), running: [onM1('a', 2), onM1('b', 1), onM1('c', 1)], preemptor: { cpu: 3, memory: 0 }, requirement: need({ m1: 1 }) },
      [],
      2,
    ],
    [
      'the same after evicting the 2 cpu one: one more',
      { capacity: full(4), running: [onM1('a', 2), onM1('b', 1), onM1('c', 1)], preemptor: { cpu: 3, memory: 0 }, requirement: need({ m1: 1 }) },
      [0],
      1,
    ],
    [
      'cpu and memory short: the resource that takes more victims counts',
      {
        capacity: full(4, 4),
        running: [onM1('a', 4, 1), onM1('b', 0, 1), onM1('c', 0, 1), onM1('d', 0, 1)],
        preemptor: { cpu: 4, memory: 4 },
        requirement: need({ m1: 1 }),
      },
      [],
      4,
    ],
    [
      'two short clusters and no candidate on both: one victim each',
      {
        capacity: [{ cpu: 2, memory: 0 }, { cpu: 2, memory: 0 }, { cpu: 0, memory: 0 }],
        running: [onM1('a', 2), binding('b', { request: { cpu: 2 }, clusters: { m2: 1 } })],
        preemptor: { cpu: 2, memory: 0 },
        requirement: need({ m1: 1, m2: 1 }),
      },
      [],
      2,
    ],
    [
      'two short clusters and a candidate on both: it may be enough alone',
      {
        capacity: [{ cpu: 2, memory: 0 }, { cpu: 2, memory: 0 }, { cpu: 0, memory: 0 }],
        running: [binding('both', { request: { cpu: 2 }, clusters: { m1: 1, m2: 1 } })],
        preemptor: { cpu: 2, memory: 0 },
        requirement: need({ m1: 1, m2: 1 }),
      },
      [],
      1,
    ],
    [
      'pooled: 3 replicas of 2 cpu, candidates freeing 2, 2 and 4 cpu: 4 cpu gives at most 2 replicas',
      {
        capacity: full(8),
        running: [onM1('a', 2), onM1('b', 2), onM1('c', 4)],
        preemptor: { cpu: 2, memory: 0 },
        requirement: { type: 'pooled', replicas: 3 },
      },
      [],
      2,
    ],
    [
      'pooled: a partial replica counts up: 1 cpu freed can complete a replica of 2',
      { capacity: full(9), running: [onM1('a', 1), onM1('b', 8)], preemptor: { cpu: 2, memory: 0 }, requirement: { type: 'pooled', replicas: 1 } },
      [],
      1,
    ],
    [
      'only candidates below a limit left: the shortfall over the largest of them (3 cpu short, 1 cpu each)',
      {
        capacity: full(9),
        // d last in any preemptor's order (its priority is higher): the limit leaves a, b and c.
        running: [onM1('a', 1), onM1('b', 1), onM1('c', 1), onM1('d', 6, 0, 1)],
        preemptor: { cpu: 3, memory: 0 },
        requirement: need({ m1: 1 }),
      },
      [],
      3,
      3,
    ],
    [
      'pooled, only candidates below a limit left: what is missing over their largest gain (e alone gains 3)',
      {
        capacity: full(16),
        running: [onM1('a', 2), onM1('b', 2), onM1('c', 2), onM1('d', 2), onM1('e', 8, 0, 1)],
        preemptor: { cpu: 2, memory: 0 },
        requirement: { type: 'pooled', replicas: 3 },
      },
      [],
      3,
      4,
    ],
    [
      'only candidates below a limit left, and all of them together fall short: no finite bound',
      { capacity: full(6), running: [onM1('a', 1), onM1('b', 1), onM1('c', 4, 0, 1)], preemptor: { cpu: 3, memory: 0 }, requirement: need({ m1: 1 }) },
      [],
      Number.POSITIVE_INFINITY,
      2,
    ],
    [
      'not enough even with everyone evicted: no finite bound',
      { capacity: full(2), running: [onM1('a', 2)], preemptor: { cpu: 5, memory: 0 }, requirement: need({ m1: 1 }) },
      [],
      Number.POSITIVE_INFINITY,
    ],
  ])('%s', (_, f, evicted, expected, below = Number.POSITIVE_INFINITY) => {
    expect(oracleFor(f).oracle.lowerBound(evicted, below)).toBe(expected);
  });
});
