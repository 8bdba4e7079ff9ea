/**
 * The staged victim search and its lower bound on the count (binding priority and preemption (000),
 * "Preemption order"): on the scheduler's own candidates and oracle, the staged search must give the full
 * search's answer wherever that one is proven, whatever the stages' sizes, and both must be the
 * brute-force minimum; the bound must never pass the fewest victims of any feasible set.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { selectVictimsInStages } from '../../../lib/scheduler/preemption/staged-victim-search';
import { bruteForceVictims, selectVictims, victimKey, type FeasibilityOracle } from '../../../lib/scheduler/preemption/victim-search';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState } from '../../../lib/scheduler/snapshot';
import { binding, filledSnapshot, searchResident } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3', 'm4'];

const resident = searchResident(CLUSTERS);

/** Pooled (one replica most often: a requirement met on one cluster), or a share on each named cluster. */
const requirement: fc.Arbitrary<(names: readonly string[]) => Requirement> = fc.oneof(
  fc.constant(() => ({ type: 'pooled' as const, replicas: 1 })),
  fc.integer({ min: 0, max: 4 }).map((replicas) => () => ({ type: 'pooled' as const, replicas })),
  fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }).map(
    (shares) => (names: readonly string[]) => ({ type: 'per-cluster' as const, need: new Map(names.map((name, i) => [name, shares[i]!])) }),
  ),
);

interface Problem {
  readonly placements: ReturnType<typeof candidatePlacements>;
  readonly oracle: PlacementOracle;
}

const problem = fc
  .record({
    residents: fc.array(resident, { maxLength: 60 }),
    names: fc.subarray(CLUSTERS, { minLength: 1 }),
    spare: fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
    requirementOn: requirement,
    pending: fc.record({ cpu: fc.integer({ min: 1, max: 6 }), memory: fc.integer({ min: 0, max: 3 }) }),
  })
  .map(({ residents, names, spare, requirementOn, pending }): Problem => {
    const preemptor = binding('pending', { priority: 5, request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu } });
    const snapshot = filledSnapshot(CLUSTERS, residents, { cpu: spare, memory: spare.map((s) => s % 2) }, [preemptor]);
    const state = bindingState(preemptor);
    const states = names.map((name) => snapshot.clusters.get(name)!);
    const placements = candidatePlacements(states, snapshot, state);
    return { placements, oracle: new PlacementOracle(state, states, placements, snapshot, requirementOn(names)) };
  });

/** The brute-force minimum over candidates listed in search order: keys that sort as their places do. */
function bruteForce({ placements, oracle }: Problem): number[] | null {
  return bruteForceVictims(
    placements.candidates.map((candidate, index) => ({ key: String(index).padStart(3, '0'), priority: candidate.priority })),
    oracle,
  );
}

describe(`selectVictimsInStages (${SPEC}, "Preemption order")`, () => {
  it('gives the full search’s proven answer, the brute-force minimum, whatever the stages', () => {
    fc.assert(
      fc.property(problem, fc.integer({ min: 1, max: 4 }), (given, firstStage) => {
        const { placements, oracle } = given;
        const { candidates } = placements;
        const staged = selectVictimsInStages(candidates, oracle, { searchBudget: 1_000_000, stages: { first: firstStage, largestShare: 1 } });
        const full = selectVictims(candidates, oracle, { searchBudget: 1_000_000, inSearchOrder: true });
        expect(oracle.feasible()).toBe(full !== null && full.victims.length === 0);
        if (full === null || full.victims.length === 0) {
          expect(staged === null || staged.victims.length === 0).toBe(true);
          return;
        }
        expect(staged).toEqual(full);
        if (candidates.length <= 16) expect(staged!.victims).toEqual(bruteForce(given));
      }),
      { numRuns: 1500 },
    );
  });

  it('with a small budget stays feasible and never loses to the full search with the same budget', () => {
    fc.assert(
      fc.property(problem, fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 80 }), (given, firstStage, searchBudget) => {
        const { placements, oracle } = given;
        const { candidates } = placements;
        const staged = selectVictimsInStages(candidates, oracle, { searchBudget, stages: { first: firstStage, largestShare: 1 } });
        const full = selectVictims(candidates, oracle, { searchBudget, inSearchOrder: true });
        expect(staged === null).toBe(full === null);
        if (full === null) return;
        staged!.victims.forEach((index) => oracle.evict(index));
        expect(oracle.feasible()).toBe(true);
        staged!.victims.forEach((index) => oracle.restore(index));
        if (full.exact) expect(staged).toEqual(full);
        if (staged!.exact && candidates.length <= 16) expect(staged!.victims).toEqual(bruteForce(given));
      }),
      { numRuns: 1500 },
    );
  });
});

/** The oracle without one of its optional answers, the rest as it is. */
function without(oracle: PlacementOracle, left: 'feasibleWithFirst' | 'dominators'): FeasibilityOracle {
  return {
    evict: (index) => oracle.evict(index),
    restore: (index) => oracle.restore(index),
    feasible: () => oracle.feasible(),
    lowerBound: (evicted, below) => oracle.lowerBound(evicted, below),
    completions: (evicted, below) => oracle.completions(evicted, below),
    ...(left === 'feasibleWithFirst' ? {} : { feasibleWithFirst: (count: number) => oracle.feasibleWithFirst!(count) }),
    ...(left === 'dominators' ? {} : { dominators: (index: number) => oracle.dominators(index) }),
  };
}

/** Without feasibleWithFirst: the search evicts its optimistic completions one by one. */
const evictingPrefixes = (oracle: PlacementOracle) => without(oracle, 'feasibleWithFirst');

describe(`selectVictims with the completions counted, not evicted (${SPEC}, "Preemption order")`, () => {
  it('chooses the same victims with the same questions as evicting the first candidates one by one, whatever the budget', () => {
    fc.assert(
      fc.property(
        problem,
        fc.integer({ min: 0, max: 400 }),
        fc.constantFrom('full', 'onlyCount', 'within'),
        fc.integer({ min: 1, max: 4 }),
        (given, searchBudget, mode, count) => {
          const { placements, oracle } = given;
          const { candidates } = placements;
          expect(oracle.feasibleWithFirst).toBeDefined();
          // `within`: the key of the full search's answer, as the one-cluster search passes another cluster's best.
          const found = mode === 'within' ? selectVictims(candidates, evictingPrefixes(oracle), { searchBudget: 1_000_000, inSearchOrder: true }) : null;
          if (mode === 'within' && (found === null || found.victims.length === 0)) return;
          const options = {
            searchBudget,
            inSearchOrder: true,
            ...(mode === 'onlyCount' ? { onlyCount: count } : {}),
            ...(found ? { within: { ...victimKey(candidates, found.victims), lastMostImportant: found.victims[found.victims.length - 1]! } } : {}),
          };
          const before = oracle.questions;
          const evicting = selectVictims(candidates, evictingPrefixes(oracle), options);
          const evictingQuestions = oracle.questions - before;
          const counting = selectVictims(candidates, oracle, options);
          expect(counting).toEqual(evicting);
          expect(oracle.questions - before - evictingQuestions).toBe(evictingQuestions);
        },
      ),
      { numRuns: 1500 },
    );
  });
});

describe(`PlacementOracle.fewestVictims (${SPEC})`, () => {
  it('never passes the fewest victims of any feasible set', () => {
    fc.assert(
      fc.property(problem, (given) => {
        const { placements, oracle } = given;
        if (placements.candidates.length > 16) return;
        const fewest = bruteForce(given);
        expect(oracle.fewestVictims()).toBeLessThanOrEqual(fewest === null ? Number.POSITIVE_INFINITY : fewest.length);
      }),
      { numRuns: 3000 },
    );
  });
});

/** Without dominators: the search reads every set, those leaving out a victim's dominator too. */
const withoutDominators = (oracle: PlacementOracle) => without(oracle, 'dominators');

describe(`selectVictims leaving out sets without a victim's dominators (${SPEC}, "Preemption order")`, () => {
  it('chooses the victims of the search that reads every set, proven, and the brute-force minimum', () => {
    fc.assert(
      fc.property(problem, fc.constantFrom('full', 'onlyCount'), fc.integer({ min: 1, max: 4 }), (given, mode, count) => {
        const { placements, oracle } = given;
        const { candidates } = placements;
        const options = { searchBudget: 1_000_000, inSearchOrder: true, ...(mode === 'onlyCount' ? { onlyCount: count } : {}) };
        const pruned = selectVictims(candidates, oracle, options);
        const everySet = selectVictims(candidates, withoutDominators(oracle), options);
        expect(pruned).toEqual(everySet);
        if (mode === 'full' && pruned && candidates.length <= 16) expect(pruned.victims).toEqual(bruteForce(given) ?? []);
      }),
      { numRuns: 1500 },
    );
  });

  it('lists as dominators only earlier candidates that free at least as much wherever the requirement counts it', () => {
    fc.assert(
      fc.property(problem, (given) => {
        const { placements, oracle } = given;
        for (let index = 0; index < placements.candidates.length; index++) {
          const dominators = oracle.dominators(index);
          if (dominators === null) continue;
          for (let at = 0; at < dominators.length; at++) {
            const other = dominators[at]!;
            expect(other).toBeLessThan(index);
            // Any feasible set holding `index` but not `other` stays feasible with `other` in its place.
            for (const partner of placements.candidates.keys()) {
              if (partner === index || partner === other) continue;
              oracle.evict(index);
              oracle.evict(partner);
              const before = oracle.feasible();
              oracle.restore(index);
              oracle.evict(other);
              const after = oracle.feasible();
              oracle.restore(other);
              oracle.restore(partner);
              if (before) expect(after).toBe(true);
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
