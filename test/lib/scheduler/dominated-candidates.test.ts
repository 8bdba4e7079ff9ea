/**
 * Candidates left out of a one-cluster victim search because no best set holds them (binding priority
 * and preemption (000), "Preemption order"): a set holding a candidate but not an earlier one that frees
 * as much of every lacking resource is beaten by the swap, so the search over the others must give the
 * same victims as over all of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { amountOf } from '../../../lib/resources';
import { withFewDominators, withoutDominated } from '../../../lib/scheduler/preemption/dominated-candidates';
import { layUsage, PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements, type CandidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { bruteForceVictims, selectVictims } from '../../../lib/scheduler/preemption/victim-search';
import { bindingState, type ClusterState, type SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, filledSnapshot, victimKeys, type FleetResident } from './support';

const SPEC = 'binding priority and preemption (000)';

const resident = fc.record({
  name: fc.integer({ min: 0, max: 79 }).map((n) => `b${n}`),
  priority: fc.integer({ min: 0, max: 3 }),
  preemptible: fc.constant(true),
  cpu: fc.integer({ min: 0, max: 4 }),
  memory: fc.integer({ min: 0, max: 3 }),
  clusters: fc.constant({ m1: 1 } as Record<string, number>),
});

interface Problem {
  readonly snapshot: SchedulingSnapshot;
  readonly state: ReturnType<typeof bindingState>;
  readonly cluster: ClusterState;
  readonly all: CandidatePlacements;
  readonly kept: CandidatePlacements;
}

/** One cluster filled by the residents, `spare` of each resource left, and a preemptor of one replica. */
function problemOf(residents: readonly FleetResident[], spare: number, pending: { cpu: number; memory: number }): Problem {
  const preemptor = binding('pending', { priority: 5, request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu } });
  const snapshot = filledSnapshot(['m1'], residents, { cpu: [spare], memory: [spare % 2] }, [preemptor]);
  const state = bindingState(preemptor);
  const cluster = snapshot.clusters.get('m1')!;
  const resources = Object.keys(state.request).filter((resource) => state.request[resource]! > 0);
  const free = snapshot.free(cluster, state);
  const room = Float64Array.from(resources, (resource) => amountOf(free, resource));
  const gaps = resources.map((resource, slot) => Math.max(0, state.request[resource]! - room[slot]!));
  const all = candidatePlacements([cluster], snapshot, state);
  const { usage } = layUsage(all, resources, resources.map((resource) => state.request[resource]!), room);
  return { snapshot, state, cluster, all, kept: withoutDominated(all, gaps, usage) };
}

/** A cluster of up to `most` residents, a little room to spare, and a preemptor of one replica. */
const problem = (most: number) =>
  fc
    .tuple(
      fc.array(resident, { minLength: 1, maxLength: most }),
      fc.integer({ min: 0, max: 2 }),
      fc.record({ cpu: fc.integer({ min: 1, max: 8 }), memory: fc.integer({ min: 0, max: 5 }) }),
    )
    .map(([residents, spare, pending]) => problemOf(residents, spare, pending));

function victimsAmong({ snapshot, state, cluster }: Problem, placements: CandidatePlacements): string[] | null {
  const oracle = new PlacementOracle(state, [cluster], placements, snapshot, { type: 'pooled', replicas: 1 });
  const selection = selectVictims(placements.candidates, oracle, { searchBudget: 1_000_000, inSearchOrder: true });
  return victimKeys(placements, selection);
}

const names = (placements: CandidatePlacements) => placements.candidates.map((candidate) => candidate.binding.metadata.name);

describe(`withoutDominated (${SPEC}, "Preemption order": a candidate in no best set)`, () => {
  it('leaves the search’s victims as they are over every candidate, and keeps the rest in order', () => {
    fc.assert(
      fc.property(
        problem(60),
        (given) => {
          const allNames = names(given.all);
          let from = 0;
          for (const name of names(given.kept)) {
            const found = allNames.indexOf(name, from);
            expect(found).toBeGreaterThanOrEqual(0);
            from = found + 1;
          }
          expect(victimsAmong(given, given.kept)).toEqual(victimsAmong(given, given.all));
        },
      ),
      { numRuns: 800 },
    );
  });

  it('is the brute-force minimum over every candidate on small clusters', () => {
    fc.assert(
      fc.property(
        problem(14),
        (given) => {
          const oracle = new PlacementOracle(given.state, [given.cluster], given.all, given.snapshot, { type: 'pooled', replicas: 1 });
          const brute = bruteForceVictims(
            given.all.candidates.map((candidate, index) => ({ key: String(index).padStart(3, '0'), priority: candidate.priority })),
            oracle,
          );
          const expected = brute === null || brute.length === 0 ? null : brute.map((index) => given.all.candidates[index]!.key);
          expect(victimsAmong(given, given.kept)).toEqual(expected);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('leaves out a candidate freeing no more of each lacking resource than as many earlier ones as a set found enough has victims', () => {
    // m1 lacks 2 cpu and 2 memory. c alone is enough, so a best set has one victim: any candidate
    // with an earlier one freeing as much of both is left out (d, after a).
    const residents: FleetResident[] = [
      { name: 'a', priority: 0, preemptible: true, cpu: 2, memory: 1, clusters: { m1: 1 } },
      { name: 'b', priority: 1, preemptible: true, cpu: 1, memory: 2, clusters: { m1: 1 } },
      { name: 'c', priority: 2, preemptible: true, cpu: 2, memory: 2, clusters: { m1: 1 } },
      { name: 'd', priority: 3, preemptible: true, cpu: 2, memory: 1, clusters: { m1: 1 } },
    ];
    const given = problemOf(residents, 0, { cpu: 2, memory: 2 });
    expect(names(given.kept)).toEqual(['a', 'b', 'c']);
    expect(victimsAmong(given, given.kept)).toEqual([given.all.candidates.find((candidate) => candidate.binding.metadata.name === 'c')!.key]);
  });
  it('on several clusters short of their share, leaves the search’s victims as they are over every candidate', () => {
    const clusters = ['m1', 'm2', 'm3'];
    const spread = fc.record({
      name: fc.integer({ min: 0, max: 79 }).map((n) => `b${n}`),
      priority: fc.integer({ min: 0, max: 3 }),
      preemptible: fc.constant(true),
      cpu: fc.integer({ min: 0, max: 3 }),
      memory: fc.integer({ min: 0, max: 2 }),
      clusters: fc.dictionary(fc.constantFrom(...clusters), fc.integer({ min: 1, max: 2 }), { minKeys: 1, maxKeys: 2 }),
    });
    fc.assert(
      fc.property(
        fc.array(spread, { minLength: 1, maxLength: 50 }),
        fc.array(fc.integer({ min: 0, max: 1 }), { minLength: 3, maxLength: 3 }),
        fc.array(fc.constantFrom(0, 1, 1, 2), { minLength: 3, maxLength: 3 }),
        fc.record({ cpu: fc.integer({ min: 1, max: 4 }), memory: fc.integer({ min: 0, max: 2 }) }),
        (residents, spare, shares, pending) => {
          const preemptor = binding('pending', { priority: 5, request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu } });
          const snapshot = filledSnapshot(clusters, residents, { cpu: spare, memory: spare }, [preemptor]);
          const state = bindingState(preemptor);
          const states = clusters.map((name) => snapshot.clusters.get(name)!);
          const requirement = { type: 'per-cluster' as const, need: new Map(clusters.map((name, i) => [name, shares[i]!])) };
          const all = candidatePlacements(states, snapshot, state);
          const oracle = new PlacementOracle(state, states, all, snapshot, requirement);
          const kept = oracle.undominated();
          const victims = (placements: CandidatePlacements) => {
            const searched = placements === all ? oracle : new PlacementOracle(state, states, placements, snapshot, requirement);
            const selection = selectVictims(placements.candidates, searched, { searchBudget: 1_000_000, inSearchOrder: true });
            return victimKeys(placements, selection);
          };
          expect(victims(kept)).toEqual(victims(all));
        },
      ),
      { numRuns: 600 },
    );
  });

  it('keeps exactly the candidates with fewer dominators than a set found enough has victims, among the 256 kept before each', () => {
    // Over up to three clusters of two lacking resources each: candidates of few sizes, some freeing
    // nothing, or a few large ones first and then many of many sizes, whose dominators may lie further
    // back than the window. Each is read against the brute-force count of its dominators among the
    // last 256 candidates kept before it.
    const read = 256;
    const vector = (width: number, values: fc.Arbitrary<number>) => fc.array(values, { minLength: width, maxLength: width });
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3 }).chain((clusters) =>
          fc.record({
            clusterOf: fc.constant(Array.from({ length: clusters * 2 }, (_, at) => Math.floor(at / 2))),
            amounts: fc.oneof(
              fc.array(vector(clusters * 2, fc.constantFrom(0, 0, 1, 2, 3)), { minLength: 1, maxLength: 700 }),
              fc
                .tuple(
                  fc.array(vector(clusters * 2, fc.integer({ min: 40, max: 50 })), { maxLength: 9 }),
                  fc.array(vector(clusters * 2, fc.integer({ min: 0, max: 30 })), { minLength: 200, maxLength: 600 }),
                )
                .map(([large, many]) => [...large, ...many]),
            ),
            most: fc.integer({ min: 1, max: 9 }),
          }),
        ),
        ({ clusterOf, amounts, most }) => {
          const dominates = (y: number, x: number) => amounts[y]!.every((amount, at) => amount >= amounts[x]![at]!);
          const expected: number[] = [];
          amounts.forEach((_, x) => {
            const dominators = expected.slice(-read).filter((y) => dominates(y, x)).length;
            if (dominators < most) expected.push(x);
          });
          expect(withFewDominators(Float64Array.from(amounts.flat()), clusterOf, most)).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
