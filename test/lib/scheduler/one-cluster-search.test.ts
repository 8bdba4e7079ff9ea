/**
 * Preemption for a requirement met on one cluster (binding priority and preemption (000), "Preemption
 * order"): searching each cluster's residents alone must give the answer of one search over every
 * cluster's candidates wherever that one is proven: the same victims, or nobody when no set is enough.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planOnOneCluster } from '../../../lib/scheduler/preemption/one-cluster-search';
import { planPreemption } from '../../../lib/scheduler/preemption/plan-preemption';
import { availableReplicas } from '../../../lib/resources';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { bruteForceVictims, victimKey } from '../../../lib/scheduler/preemption/victim-search';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot, type ClusterState } from '../../../lib/scheduler/snapshot';
import { binding, cluster, filledSnapshot, searchEveryCandidate } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3', 'm4'];
const ONE_REPLICA = { type: 'pooled', replicas: 1 } as const;

const resident = fc.record({
  name: fc.integer({ min: 0, max: 59 }).map((n) => `b${n}`),
  kind: fc.constantFrom('ResourceBinding' as const, 'ResourceBinding' as const, 'ClusterResourceBinding' as const),
  priority: fc.integer({ min: 0, max: 4 }),
  preemptible: fc.boolean(),
  cpu: fc.integer({ min: 0, max: 4 }),
  memory: fc.integer({ min: 0, max: 3 }),
  clusters: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 2 }), { minKeys: 1, maxKeys: 2 }),
});

const pending = fc.record({
  priority: fc.integer({ min: 0, max: 5 }),
  cpu: fc.integer({ min: 1, max: 9 }),
  memory: fc.integer({ min: 0, max: 4 }),
  placedOn: fc.boolean(),
});

/** Many small residents, each on one cluster: several victims are needed on one cluster. */
const small = fc.record({
  name: fc.integer({ min: 0, max: 199 }).map((n) => `b${n}`),
  kind: fc.constant('ResourceBinding' as const),
  priority: fc.integer({ min: 0, max: 6 }),
  preemptible: fc.constant(true),
  cpu: fc.integer({ min: 0, max: 3 }),
  memory: fc.integer({ min: 0, max: 3 }),
  clusters: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 1 }), { minKeys: 1, maxKeys: 1 }),
});

/** What each of the four clusters has to spare. */
const spareRoom = fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 });

type Resident = typeof resident extends fc.Arbitrary<infer T> ? T : never;
type Pending = typeof pending extends fc.Arbitrary<infer T> ? T : never;

/** A fleet whose clusters the residents fill, with `spare` of each resource left on each, and the preemptor. */
function fleet(residents: readonly Resident[], spare: readonly number[], preemptor: Pending) {
  const pendingBinding = binding('pending', {
    priority: preemptor.priority,
    request: preemptor.memory > 0 ? { cpu: preemptor.cpu, memory: preemptor.memory } : { cpu: preemptor.cpu },
    ...(preemptor.placedOn ? { clusters: { m1: 1 } } : {}),
  });
  const snapshot = filledSnapshot(CLUSTERS, residents, { cpu: spare, memory: spare.map((s) => s % 3) }, [pendingBinding]);
  return { snapshot, state: bindingState(pendingBinding) };
}

/** The victims (keys) of one search over every cluster's candidates at once; null when it finds no set. */
function victimsOfOneSearch(snapshot: SchedulingSnapshot, state: ReturnType<typeof bindingState>, relevant: readonly ClusterState[], requirement: Requirement = ONE_REPLICA) {
  return searchEveryCandidate(state, relevant, snapshot, requirement).victims;
}

describe(`planOnOneCluster (${SPEC}, "Preemption order": a requirement met on one cluster)`, () => {
  it('gives the victims of one search over every cluster, or nobody when that one finds no set', () => {
    fc.assert(
      fc.property(
        fc.array(resident, { maxLength: 60 }),
        fc.subarray(CLUSTERS, { minLength: 1 }),
        spareRoom,
        pending,
        (residents, names, spare, preemptor) => {
          const { snapshot, state } = fleet(residents, spare, preemptor);
          const relevant = names.map((name) => snapshot.clusters.get(name)!);
          const room = (c: ClusterState) => snapshot.free(c, state);
          const plan = planOnOneCluster(state, relevant, snapshot, 1_000_000, room);
          expect(plan?.victims.map((victim) => victim.key) ?? null).toEqual(victimsOfOneSearch(snapshot, state, relevant));
          if (plan) expect(plan.exact).toBe(true);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('gives the one search\'s victims where several are needed on clusters of many small residents', () => {
    fc.assert(
      fc.property(
        fc.array(small, { minLength: 20, maxLength: 120 }),
        fc.record({ priority: fc.constant(9), cpu: fc.integer({ min: 3, max: 9 }), memory: fc.integer({ min: 2, max: 6 }), placedOn: fc.constant(false) }),
        (residents, preemptor) => {
          const { snapshot, state } = fleet(residents, [0, 0, 0, 0], preemptor);
          const relevant = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
          const plan = planOnOneCluster(state, relevant, snapshot, 1_000_000, (c) => snapshot.free(c, state));
          expect(plan?.victims.map((victim) => victim.key) ?? null).toEqual(victimsOfOneSearch(snapshot, state, relevant));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('gives the one search\'s victims among many clusters whose bounds tie, where the preemptor\'s order among equals decides', () => {
    // Six clusters alike, each full of residents of three priorities and a few sizes, some of them on the
    // next cluster too: every cluster's bound is the same, and the best set is on the cluster whose
    // victims the preemptor meets first (a victim on two clusters may be in the best set of each).
    const names = ['t0', 't1', 't2', 't3', 't4', 't5'];
    const alike = fc.record({
      sizes: fc.array(fc.record({ cpu: fc.integer({ min: 1, max: 3 }), memory: fc.integer({ min: 0, max: 2 }), priority: fc.integer({ min: 0, max: 2 }) }), { minLength: 20, maxLength: 40 }),
      preemptor: fc.record({ name: fc.integer({ min: 0, max: 9999 }), cpu: fc.integer({ min: 3, max: 6 }), memory: fc.integer({ min: 0, max: 3 }) }),
    });
    fc.assert(
      fc.property(alike, ({ sizes, preemptor }) => {
        const running = names.flatMap((name, c) =>
          sizes.map((size, i) =>
            binding(`${name}-${i}`, {
              priority: size.priority,
              request: { cpu: size.cpu + ((i + c) % 2), memory: size.memory },
              clusters: i % 5 === 0 ? { [name]: 1, [names[(c + 1) % names.length]!]: 1 } : { [name]: 1 },
            }),
          ),
        );
        // Each cluster holds its own residents and every fifth of the cluster before it.
        const own = (c: number) => sizes.reduce((sum, size, i) => sum + size.cpu + ((i + c) % 2), 0);
        const shared = (c: number) => sizes.reduce((sum, size, i) => sum + (i % 5 === 0 ? size.cpu + ((i + c) % 2) : 0), 0);
        const used = (c: number) => own(c) + shared((c + names.length - 1) % names.length);
        const memory = sizes.reduce((sum, size, i) => sum + size.memory * (i % 5 === 0 ? 2 : 1), 0);
        const snapshot = new SchedulingSnapshot(names.map((name, c) => cluster(name, { allocatable: { cpu: used(c), memory } })), running);
        const relevant = names.map((name) => snapshot.clusters.get(name)!);
        const state = bindingState(
          binding(`urgent-${preemptor.name}`, { priority: 9, request: preemptor.memory > 0 ? { cpu: preemptor.cpu, memory: preemptor.memory } : { cpu: preemptor.cpu } }),
        );
        const plan = planOnOneCluster(state, relevant, snapshot, 1_000_000, (c) => snapshot.free(c, state));
        expect(plan?.victims.map((victim) => victim.key) ?? null).toEqual(victimsOfOneSearch(snapshot, state, relevant));
      }),
      { numRuns: 150 },
    );
  });

  it('on a small budget still gives a set that is enough on one cluster, and the one search\'s victims when it says they are proven', () => {
    fc.assert(
      fc.property(
        fc.array(small, { minLength: 20, maxLength: 120 }),
        fc.record({ priority: fc.constant(9), cpu: fc.integer({ min: 3, max: 9 }), memory: fc.integer({ min: 2, max: 6 }), placedOn: fc.constant(false) }),
        fc.integer({ min: 0, max: 60 }),
        (residents, preemptor, searchBudget) => {
          const { snapshot, state } = fleet(residents, [0, 0, 0, 0], preemptor);
          const relevant = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
          const room = (c: ClusterState) => snapshot.free(c, state);
          const plan = planOnOneCluster(state, relevant, snapshot, searchBudget, room);
          const full = victimsOfOneSearch(snapshot, state, relevant);
          expect(plan === null).toBe(full === null);
          if (!plan) return;
          // The victims make room for the replica on the cluster they are on.
          const cluster = relevant.find((c) => plan.victims.every((victim) => c.residents.has(victim.key)))!;
          const placements = candidatePlacements([cluster], snapshot, state);
          const oracle = new PlacementOracle(state, [cluster], placements, snapshot, ONE_REPLICA, room);
          plan.victims.forEach((victim) => oracle.evict(placements.candidates.findIndex((candidate) => candidate.key === victim.key)));
          expect(oracle.feasible()).toBe(true);
          if (plan.exact) expect(plan.victims.map((victim) => victim.key)).toEqual(full);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a per-cluster requirement with one cluster short of its share: planPreemption gives the one search\'s victims over every named cluster', () => {
    fc.assert(
      fc.property(
        fc.array(resident, { maxLength: 60 }),
        spareRoom,
        pending,
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
        (residents, spare, preemptor, shares) => {
          const { snapshot, state } = fleet(residents, spare, preemptor);
          const relevant = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
          const room = (c: ClusterState) => snapshot.free(c, state);
          const requirement = { type: 'per-cluster' as const, need: new Map(CLUSTERS.map((name, i) => [name, shares[i]!])) };
          const short = relevant.filter((c) => availableReplicas(room(c), state.request) < requirement.need.get(c.name)!);
          fc.pre(short.length === 1);
          const plan = planPreemption(state, relevant, requirement, snapshot, 1_000_000, room);
          expect(plan?.victims.map((victim) => victim.key) ?? null).toEqual(victimsOfOneSearch(snapshot, state, relevant, requirement));
          if (plan) expect(plan.exact).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is the brute-force minimum on small fleets', () => {
    fc.assert(
      fc.property(
        fc.array(resident, { maxLength: 16 }),
        spareRoom,
        pending,
        (residents, spare, preemptor) => {
          const { snapshot, state } = fleet(residents, spare, preemptor);
          const relevant = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
          const room = (c: ClusterState) => snapshot.free(c, state);
          const placements = candidatePlacements(relevant, snapshot, state);
          fc.pre(placements.candidates.length <= 14);
          const oracle = new PlacementOracle(state, relevant, placements, snapshot, ONE_REPLICA, room);
          const brute = bruteForceVictims(placements.candidates, oracle);
          const plan = planOnOneCluster(state, relevant, snapshot, 1_000_000, room);
          // The brute force settles ties by key, the search by the preemptor's order: the keys must agree.
          const keyOf = (victims: readonly { priority: number }[]) => victimKey(victims.map((victim, index) => ({ key: `${index}`, priority: victim.priority })), victims.map((_, index) => index));
          const expected = brute === null || brute.length === 0 ? null : keyOf(brute.map((index) => placements.candidates[index]!));
          expect(plan ? keyOf(plan.victims) : null).toEqual(expected);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('fewer victims of higher priority on a cluster searched later beat more of lower priority on the first', () => {
    // Both clusters' bounds allow two victims; m1's at priority 0, so it is searched first, but its
    // amounts (cpu on one binding, memory on two others) take three. m2 has two of priority 5.
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: 4, memory: '4' } }), cluster('m2', { allocatable: { cpu: 4, memory: '4' } })],
      [
        binding('x', { priority: 0, request: { cpu: 4, memory: 0 }, clusters: { m1: 1 } }),
        binding('y', { priority: 0, request: { cpu: 0, memory: 2 }, clusters: { m1: 1 } }),
        binding('z', { priority: 0, request: { cpu: 0, memory: 2 }, clusters: { m1: 1 } }),
        binding('u', { priority: 5, request: { cpu: 2, memory: 2 }, clusters: { m2: 1 } }),
        binding('v', { priority: 5, request: { cpu: 2, memory: 2 }, clusters: { m2: 1 } }),
      ],
    );
    const state = bindingState(binding('urgent', { priority: 9, request: { cpu: 4, memory: 4 } }));
    const relevant = ['m1', 'm2'].map((name) => snapshot.clusters.get(name)!);
    const plan = planOnOneCluster(state, relevant, snapshot, 20_000, (c) => snapshot.free(c, state));
    expect(plan?.victims.map((victim) => victim.binding.metadata.name).sort()).toEqual(['u', 'v']);
    expect(plan?.exact).toBe(true);
  });

  it('with no budget left still answers with a feasible set, said not to be proven minimal', () => {
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: 4 } }), cluster('m2', { allocatable: { cpu: 4 } })],
      ['a', 'b', 'c', 'd'].map((name, i) => binding(name, { priority: 0, request: { cpu: 2 }, clusters: { [i < 2 ? 'm1' : 'm2']: 1 } })),
    );
    const state = bindingState(binding('urgent', { priority: 9, request: { cpu: 4 } }));
    const relevant = ['m1', 'm2'].map((name) => snapshot.clusters.get(name)!);
    const plan = planOnOneCluster(state, relevant, snapshot, 0, (c) => snapshot.free(c, state));
    expect(plan?.victims).toHaveLength(2);
    expect(new Set(plan!.victims.map((victim) => victim.clusters[0]!.name)).size).toBe(1);
    expect(plan?.exact).toBe(false);
  });

  it('with no budget, a first cluster whose search finds no set leaves the next one a budget of none, not less', () => {
    // m1's bound allows a set (its largest amounts), but none of its residents' sets is enough; its
    // search spends beyond the budget of 0 before m2's, which holds the set, is searched.
    const residents: [string, number, number, string][] = [
      ['b0', 0, 0, 'm1'], ['b0', 1, 0, 'm2'], ['b1', 0, 0, 'm1'], ['b29', 2, 0, 'm1'], ['b1', 0, 0, 'm1'],
      ['b1', 1, 0, 'm1'], ['b2', 0, 0, 'm1'], ['b2', 0, 0, 'm1'], ['b2', 0, 0, 'm1'], ['b2', 2, 0, 'm1'],
      ['b3', 1, 0, 'm1'], ['b30', 2, 2, 'm1'], ['b4', 0, 1, 'm1'], ['b5', 1, 1, 'm1'], ['b6', 3, 0, 'm2'],
      ['b7', 3, 1, 'm2'], ['b8', 0, 0, 'm1'], ['b8', 0, 0, 'm1'], ['b8', 0, 0, 'm1'], ['b4', 1, 1, 'm2'],
    ];
    const { snapshot, state } = fleet(
      residents.map(([name, cpu, memory, on]) => ({ name, kind: 'ResourceBinding' as const, priority: 0, preemptible: true, cpu, memory, clusters: { [on]: 1 } })),
      [0, 0, 0, 0],
      { priority: 9, cpu: 9, memory: 2, placedOn: false },
    );
    const relevant = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
    const plan = planOnOneCluster(state, relevant, snapshot, 0, (c) => snapshot.free(c, state));
    expect(plan === null).toBe(victimsOfOneSearch(snapshot, state, relevant) === null);
  });

  it('several victims on many dense clusters: the one search\'s answer, on the one cluster that has it', () => {
    const names = Array.from({ length: 12 }, (_, c) => `m${c}`);
    // Each cluster full of 1- and 2-cpu bindings at priorities 0-3; cluster m7 alone holds 3-cpu ones at priority 0.
    const running = names.flatMap((name, c) =>
      Array.from({ length: 40 }, (_, i) =>
        binding(`${name}-${i}`, { priority: i % 4, request: { cpu: c === 7 && i % 4 === 0 ? 3 : 1 + (i % 2) }, clusters: { [name]: 1 } }),
      ),
    );
    const capacity = (c: number) => Array.from({ length: 40 }, (_, i) => (c === 7 && i % 4 === 0 ? 3 : 1 + (i % 2))).reduce((a, b) => a + b, 0);
    const snapshot = new SchedulingSnapshot(names.map((name, c) => cluster(name, { allocatable: { cpu: capacity(c) } })), running);
    const relevant = names.map((name) => snapshot.clusters.get(name)!);
    for (let p = 0; p < 10; p++) {
      const state = bindingState(binding(`urgent-${p}`, { priority: 9, request: { cpu: 6 } }));
      const room = (c: ClusterState) => snapshot.free(c, state);
      const plan = planOnOneCluster(state, relevant, snapshot, 20_000, room);
      // Two 3-cpu priority-0 victims on m7 beat any other cluster's three (or two of priority 1 or higher).
      expect(plan?.victims.map((victim) => victim.key)).toEqual(victimsOfOneSearch(snapshot, state, relevant));
      expect(plan!.victims).toHaveLength(2);
      expect(plan!.victims.every((victim) => victim.binding.metadata.name.startsWith('m7-') && victim.priority === 0)).toBe(true);
      expect(plan!.exact).toBe(true);
    }
  });
});
