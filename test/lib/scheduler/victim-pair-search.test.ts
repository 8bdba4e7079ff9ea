/**
 * The pair search for a per-cluster requirement (binding priority and preemption (000), "Preemption
 * order": fewest victims, then the lower highest priority, the lower sum, the less important most
 * important victim): on the scheduler's own candidates and oracle it must give the best set of two
 * wherever no single victim is enough and some pair is, say that no pair is enough when none is, and
 * planPreemption must give the answer of one full search over every candidate.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { planPreemption } from '../../../lib/scheduler/preemption/plan-preemption';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { compareVictimSets, selectVictims } from '../../../lib/scheduler/preemption/victim-search';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, type ClusterState } from '../../../lib/scheduler/snapshot';
import { binding, filledSnapshot, searchResident, victimKeys, type FleetResident } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3', 'm4'];

const resident = searchResident(CLUSTERS);

/** Many small residents of few priorities: ties, and pairs found late in the order. */
const smallResident = fc.record({
  name: fc.integer({ min: 0, max: 299 }).map((n) => `s${n}`),
  priority: fc.integer({ min: 0, max: 2 }),
  preemptible: fc.constant(true),
  cpu: fc.integer({ min: 0, max: 3 }),
  memory: fc.integer({ min: 0, max: 2 }),
  clusters: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.constant(1), { minKeys: 1, maxKeys: 2 }),
});

interface Problem {
  readonly placements: ReturnType<typeof candidatePlacements>;
  readonly oracle: PlacementOracle;
  readonly plan: () => ReturnType<typeof planPreemption>;
}

function problemOf(residents: readonly FleetResident[], spare: readonly number[], shares: readonly number[], pending: { cpu: number; memory: number }): Problem {
  const preemptor = binding('pending', { priority: 5, request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu } });
  const snapshot = filledSnapshot(CLUSTERS, residents, { cpu: spare, memory: spare.map((s) => s % 2) }, [preemptor]);
  const state = bindingState(preemptor);
  const clusters = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
  const requirement: Requirement = { type: 'per-cluster', need: new Map(CLUSTERS.map((name, i) => [name, shares[i]!])) };
  const room = (cluster: ClusterState) => snapshot.free(cluster, state);
  const placements = candidatePlacements(clusters, snapshot, state);
  return {
    placements,
    oracle: new PlacementOracle(state, clusters, placements, snapshot, requirement, room),
    plan: () => planPreemption(state, clusters, requirement, snapshot, 1_000_000, room),
  };
}

const problem = (residents: fc.Arbitrary<FleetResident[]>) =>
  fc
    .record({
      residents,
      spare: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
      shares: fc.array(fc.constantFrom(0, 0, 1, 1, 2), { minLength: 4, maxLength: 4 }),
      pending: fc.record({ cpu: fc.integer({ min: 1, max: 3 }), memory: fc.integer({ min: 0, max: 2 }) }),
    })
    .map(({ residents: listed, spare, shares, pending }) => problemOf(listed, spare, shares, pending));

function feasibleWith({ oracle }: Problem, victims: readonly number[]): boolean {
  victims.forEach((index) => oracle.evict(index));
  const feasible = oracle.feasible();
  victims.forEach((index) => oracle.restore(index));
  return feasible;
}

/** Every single candidate and every pair, tried one by one: the best pair by the search's own order of sets. */
function bruteForce(given: Problem): { single: boolean; pair: number[] | undefined } {
  const n = given.placements.candidates.length;
  let single = false;
  let pair: number[] | undefined;
  for (let b = 0; b < n; b++) {
    if (feasibleWith(given, [b])) single = true;
    for (let a = 0; a < b; a++) {
      if (!feasibleWith(given, [a, b])) continue;
      if (!pair || compareVictimSets(given.placements.candidates, [a, b], pair, true) < 0) pair = [a, b];
    }
  }
  return { single, pair };
}

describe(`bestPair (${SPEC}, "Preemption order": the fewest victims, two)`, () => {
  for (const [label, residents, numRuns] of [
    ['residents of every size on one to three clusters', fc.array(resident, { minLength: 10, maxLength: 40 }), 1500],
    ['many small residents of three priorities', fc.array(smallResident, { minLength: 20, maxLength: 90 }), 300],
  ] as const) {
    it(`is the best pair of all when no single victim is enough, and finds none when no pair is: ${label}`, () => {
      fc.assert(
        fc.property(problem(residents), (given) => {
          const result = given.oracle.bestPair();
          if (feasibleWith(given, [])) {
            expect(result).toEqual({ found: 'undecided', fewest: 0 });
            return;
          }
          const brute = bruteForce(given);
          if (brute.single) expect(result).toEqual({ found: 'undecided', fewest: 1 });
          else if (brute.pair) expect(result).toEqual({ found: 'pair', victims: brute.pair });
          else expect(result).toEqual({ found: 'undecided', fewest: 3 });
        }),
        { numRuns },
      );
    });
  }

  it('planPreemption gives one full search’s victims, proven, with several clusters short of their share', () => {
    fc.assert(
      fc.property(problem(fc.array(smallResident, { minLength: 20, maxLength: 90 })), (given) => {
        const full = selectVictims(given.placements.candidates, given.oracle, { searchBudget: 1_000_000, inSearchOrder: true });
        const plan = given.plan();
        const expected = victimKeys(given.placements, full);
        expect(plan?.victims.map((victim) => victim.key) ?? null).toEqual(expected);
        if (plan) expect(plan.exact).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('two victims sharing both short clusters beat a pair of higher priority that closes each alone', () => {
    // m1 and m2 each lack 2 cpu. x and w (priority 0) each free 1 cpu on both; y frees 2 on m1 alone
    // (priority 0), z 2 on m2 alone (priority 1). {x, w} has the lower highest priority.
    const residents: FleetResident[] = [
      { name: 'x', priority: 0, preemptible: true, cpu: 1, memory: 0, clusters: { m1: 1, m2: 1 } },
      { name: 'w', priority: 0, preemptible: true, cpu: 1, memory: 0, clusters: { m1: 1, m2: 1 } },
      { name: 'y', priority: 0, preemptible: true, cpu: 2, memory: 0, clusters: { m1: 1 } },
      { name: 'z', priority: 1, preemptible: true, cpu: 2, memory: 0, clusters: { m2: 1 } },
    ];
    const given = problemOf(residents, [0, 0, 0, 0], [1, 1, 0, 0], { cpu: 2, memory: 0 });
    const result = given.oracle.bestPair();
    expect(result.found).toBe('pair');
    if (result.found !== 'pair') return;
    expect(result.victims.map((index) => given.placements.candidates[index]!.binding.metadata.name).sort()).toEqual(['w', 'x']);
    expect(given.plan()?.victims.map((victim) => victim.binding.metadata.name).sort()).toEqual(['w', 'x']);
  });
});
