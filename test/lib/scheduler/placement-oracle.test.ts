/**
 * The preemption oracle against the plain definition: after any sequence of evictions and
 * restorations, the preemptor's requirement is met exactly when availableReplicas(free + what the
 * evicted candidates hold) says so on every cluster. Amounts come at two scales: everyday ones, where
 * the oracle counts moves lazily and divides in doubles, and ones past 2^52, where it must not.
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
      placed: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 3 }), { maxKeys: 2 }),
    }),
    { maxLength: 12 },
  ),
  preemptor: fc.record({ memory: fc.integer({ min: 1, max: 20 }), pods: fc.integer({ min: 1, max: 2 }) }),
  requirement: fc.oneof(
    fc.record({ type: fc.constant('per-cluster' as const), need: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 0, max: 4 }), { minKeys: 1 }) }),
    fc.record({ type: fc.constant('pooled' as const), replicas: fc.integer({ min: 0, max: 8 }) }),
  ),
  moves: fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 40 }),
});

function referenceFeasible(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  evicted: readonly BindingState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
): boolean {
  let pooled = 0;
  for (const state of clusters) {
    let free = snapshot.free(state, preemptor);
    for (const victim of evicted) {
      for (const target of victim.clusters) if (target.name === state.name) free = add(free, usageOn(victim, target.replicas));
    }
    const replicas = availableReplicas(free, preemptor.request);
    if (requirement.type === 'per-cluster' && replicas < (requirement.need.get(state.name) ?? -Infinity)) return false;
    if (requirement.type === 'pooled') pooled += Math.min(replicas, requirement.replicas);
  }
  return requirement.type === 'per-cluster' || pooled >= requirement.replicas;
}

describe('PlacementOracle', () => {
  it('answers as availableReplicas over free plus evicted, at everyday scale and past 2^52', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const memory = (steps: number) => steps * s.scale;
        const clusters = CLUSTERS.map((name, i) => cluster(name, { allocatable: { memory: memory(s.capacity[i]!), pods: 100 } }));
        const running = s.running.map((r, i) =>
          binding(`r${i}`, { priority: r.priority, request: { memory: memory(r.memory) }, clusters: r.placed }),
        );
        const snapshot = new SchedulingSnapshot(clusters, running);
        const preemptor = bindingState(binding('pending', { priority: 10, request: { memory: memory(s.preemptor.memory), pods: s.preemptor.pods } }));
        const requirement: Requirement =
          s.requirement.type === 'pooled' ? s.requirement : { type: 'per-cluster', need: new Map(Object.entries(s.requirement.need)) };
        const states = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
        const placements = candidatePlacements(states, snapshot, preemptor);
        const oracle = new PlacementOracle(preemptor, states, placements, snapshot, requirement);
        const evicted = new Set<number>();
        const check = () =>
          expect(oracle.feasible()).toBe(
            referenceFeasible(preemptor, states, [...evicted].map((i) => placements.candidates[i]!), requirement, snapshot),
          );
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
});
