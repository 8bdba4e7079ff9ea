/**
 * The preemption oracle against the plain definition: after any sequence of evictions and
 * restorations, the preemptor's requirement is met exactly when availableReplicas(free + what the
 * evicted candidates hold) says so on every cluster; and asked about the first candidates besides
 * those evicted (feasibleWithFirst), it answers as if they were evicted too. Amounts come at two
 * scales: everyday ones, where the oracle counts moves lazily, divides in doubles and keeps running
 * sums, and ones past 2^52, where it must not (nor answer for the first candidates at once).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, availableReplicas } from '../../../lib/resources';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot, usageOn, type BindingState, type ClusterState } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

const CLUSTERS = ['m1', 'm2', 'm3'];

/** Bytes per memory step: 1 for everyday amounts; 2^44 makes sums pass 2^52 (multiples of 2^44 stay exact). */
const SCALES = [1, 2 ** 44];

const scenario = fc.record({
  scale: fc.constantFrom(...SCALES),
  capacity: fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 3, maxLength: 3 }),
  running: fc.array(
    fc.record({
      priority: fc.integer({ min: 0, max: 3 }),
      memory: fc.integer({ min: 0, max: 8 }),
      pods: fc.integer({ min: 0, max: 1 }),
      placed: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 3 }), { maxKeys: 2 }),
    }),
    { maxLength: 12 },
  ),
  preemptor: fc.record({ memory: fc.integer({ min: 1, max: 20 }), pods: fc.integer({ min: 1, max: 2 }) }),
  requirement: fc.oneof(
    fc.record({ type: fc.constant('per-cluster' as const), need: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 0, max: 4 }), { minKeys: 1 }) }),
    fc.record({ type: fc.constant('pooled' as const), replicas: fc.integer({ min: 0, max: 8 }) }),
    // A spread rule: at least `clusters` clusters with a replica each.
    fc.record({ type: fc.constant('spread' as const), replicas: fc.integer({ min: 0, max: 8 }), clusters: fc.integer({ min: 1, max: 3 }) }),
  ),
  moves: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 40 }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

type ScenarioRequirement = { type: 'per-cluster'; need: Record<string, number> } | { type: 'pooled'; replicas: number } | { type: 'spread'; replicas: number; clusters: number };

function requirementOf(given: ScenarioRequirement): Requirement {
  switch (given.type) {
    case 'per-cluster':
      return { type: 'per-cluster', need: new Map(Object.entries(given.need)) };
    case 'pooled':
      return given;
    case 'spread':
      return { type: 'spread', replicas: given.replicas, holds: (available) => Array.from(available).filter((replicas) => replicas >= 1).length >= given.clusters };
  }
}

function referenceFeasible(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  evicted: readonly BindingState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
): boolean {
  let pooled = 0;
  const each: number[] = [];
  for (const state of clusters) {
    let free = snapshot.free(state, preemptor);
    for (const victim of evicted) {
      for (const target of victim.clusters) if (target.name === state.name) free = add(free, usageOn(victim, target.replicas));
    }
    const replicas = availableReplicas(free, preemptor.request);
    if (requirement.type === 'per-cluster' && replicas < (requirement.need.get(state.name) ?? -Infinity)) return false;
    if (requirement.type !== 'per-cluster') pooled += Math.min(replicas, requirement.replicas);
    each.push(replicas);
  }
  if (requirement.type === 'per-cluster') return true;
  return pooled >= requirement.replicas && (requirement.type === 'pooled' || requirement.holds(each));
}

/** The scenario's fleet, preemptor and oracle. */
function oracleOf(s: Scenario) {
  const memory = (steps: number) => steps * s.scale;
  const clusters = CLUSTERS.map((name, i) => cluster(name, { allocatable: { memory: memory(s.capacity[i]!), pods: 100 } }));
  const running = s.running.map((r, i) => binding(`r${i}`, { priority: r.priority, request: { memory: memory(r.memory), pods: r.pods }, clusters: r.placed }));
  const snapshot = new SchedulingSnapshot(clusters, running);
  const preemptor = bindingState(binding('pending', { priority: 10, request: { memory: memory(s.preemptor.memory), pods: s.preemptor.pods } }));
  const requirement = requirementOf(s.requirement);
  const states = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
  const placements = candidatePlacements(states, snapshot, preemptor);
  const oracle = new PlacementOracle(preemptor, states, placements, snapshot, requirement);
  const feasibleWith = (evicted: Iterable<number>) =>
    referenceFeasible(preemptor, states, [...evicted].map((i) => placements.candidates[i]!), requirement, snapshot);
  return { placements, oracle, feasibleWith };
}

describe('PlacementOracle', () => {
  it('answers as availableReplicas over free plus evicted, at everyday scale and past 2^52', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { placements, oracle, feasibleWith } = oracleOf(s);
        const evicted = new Set<number>();
        const check = () => expect(oracle.feasible()).toBe(feasibleWith(evicted));
        check();
        if (placements.candidates.length === 0) return;
        for (const [pick, ask] of s.moves) {
          const index = pick % placements.candidates.length;
          if (evicted.delete(index)) oracle.restore(index);
          else {
            evicted.add(index);
            oracle.evict(index);
          }
          if (ask) check();
        }
        check();
      }),
      { numRuns: 500 },
    );
  });

  it('answers for the first candidates besides those evicted as if they were evicted too (feasibleWithFirst)', () => {
    fc.assert(
      fc.property(scenario, fc.array(fc.nat(), { maxLength: 12 }), (s, counts) => {
        const { placements, oracle, feasibleWith } = oracleOf(s);
        const n = placements.candidates.length;
        const feasibleWithFirst = oracle.feasibleWithFirst;
        // Everyday amounts always have it; past 2^52 the running sums could round, and the search evicts instead.
        if (s.scale === 1) expect(feasibleWithFirst).toBeDefined();
        if (feasibleWithFirst === undefined) return;
        const evicted = new Set<number>();
        // The first `count` candidates must not be evicted: asked with a count up to the lowest evicted index.
        const check = (pick: number) => {
          const count = pick % (Math.min(n, ...evicted) + 1);
          const first = Array.from({ length: count }, (_, index) => index);
          expect(feasibleWithFirst(count)).toBe(feasibleWith([...evicted, ...first]));
        };
        counts.slice(0, 3).forEach(check);
        if (n === 0) return;
        s.moves.forEach(([pick, ask], step) => {
          const index = pick % n;
          if (evicted.delete(index)) oracle.restore(index);
          else {
            evicted.add(index);
            oracle.evict(index);
          }
          if (ask) check(counts[step % Math.max(1, counts.length)] ?? pick);
        });
        // Asking leaves the evictions as they were.
        expect(oracle.feasible()).toBe(feasibleWith(evicted));
      }),
      { numRuns: 500 },
    );
  });
});
