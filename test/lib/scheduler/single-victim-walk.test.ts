/**
 * The walk for a single victim answers before the candidates are laid out; its answers must be the full
 * search's (binding priority and preemption (000), "Preemption order"): the same one victim when one is
 * enough, nothing to preempt when the requirement is met already, and no single victim when it gives up
 * having read every candidate.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { walkToSingleVictim } from '../../../lib/scheduler/preemption/single-victim-walk';
import { placeOf, preemptorStart, tieRun } from '../../../lib/scheduler/preemption/victim-tie-order';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, filledSnapshot, searchEveryCandidate } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3', 'm4'];

const resident = fc.record({
  name: fc.integer({ min: 0, max: 39 }).map((n) => `b${n}`),
  kind: fc.constantFrom('ResourceBinding' as const, 'ResourceBinding' as const, 'ClusterResourceBinding' as const),
  priority: fc.integer({ min: 0, max: 4 }),
  preemptible: fc.boolean(),
  cpu: fc.integer({ min: 0, max: 4 }),
  memory: fc.integer({ min: 0, max: 3 }),
  clusters: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 3 }), { minKeys: 1, maxKeys: 3 }),
});

const requirement: fc.Arbitrary<(names: readonly string[]) => Requirement> = fc.oneof(
  fc.integer({ min: 0, max: 6 }).map((replicas) => () => ({ type: 'pooled' as const, replicas })),
  fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }).map(
    (shares) => (names: readonly string[]) => ({ type: 'per-cluster' as const, need: new Map(names.map((name, i) => [name, shares[i]!])) }),
  ),
);

describe(`walkToSingleVictim (${SPEC}, "Preemption order")`, () => {
  it('answers as the full search does: the same single victim, nothing needed, or no single victim after reading them all', () => {
    fc.assert(
      fc.property(
        fc.array(resident, { maxLength: 40 }),
        fc.subarray(CLUSTERS, { minLength: 1 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 4, maxLength: 4 }),
        requirement,
        fc.record({ priority: fc.integer({ min: 0, max: 5 }), cpu: fc.integer({ min: 1, max: 4 }), memory: fc.integer({ min: 0, max: 2 }), placedOn: fc.boolean() }),
        fc.integer({ min: 1, max: 50 }),
        fc.constantFrom(0, 1 / 4, 1 / 2),
        (residents, names, spare, requirementOn, pending, limit, share) => {
          const preemptor = binding('pending', {
            priority: pending.priority,
            request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu },
            ...(pending.placedOn ? { clusters: { m1: 1 } } : {}),
          });
          const snapshot = filledSnapshot(CLUSTERS, residents, { cpu: spare, memory: spare.map((s) => s % 3) }, [preemptor]);
          const state = bindingState(preemptor);
          const states = names.map((name) => snapshot.clusters.get(name)!);
          const wanted = requirementOn(names);
          const room = (c: (typeof states)[number]) => snapshot.free(c, state);

          const walk = walkToSingleVictim(state, states, wanted, snapshot, room, limit, share);
          const { placements, oracle, selection: full } = searchEveryCandidate(state, states, snapshot, wanted, room);
          if (walk.found === 'nothing-needed') {
            expect(oracle.feasible()).toBe(true);
          } else if (walk.found === 'victim') {
            expect(full?.victims.map((index) => placements.candidates[index]!.key)).toEqual([walk.victim.key]);
          } else {
            const unlimited = walkToSingleVictim(state, states, wanted, snapshot, room, Number.POSITIVE_INFINITY);
            if (unlimited.found === 'undecided') expect(full === null || full.victims.length > 1).toBe(true);
            else expect(unlimited.found).toBe('victim');
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe(`walkToSingleVictim's first priority for one replica more, anywhere (${SPEC}, "Preemption order")`, () => {
  // Four clusters of 16 cpu, each full with 16 priority-0 bindings of 1 cpu, but m3, which holds 14 of
  // them and one of priority 1 and 2 cpu: no cpu to spare anywhere, so a preemptor of 2 cpu needs a
  // victim freeing 2 on one cluster.
  const names = ['m1', 'm2', 'm3', 'm4'];
  const running = names.flatMap((name) => [
    ...Array.from({ length: name === 'm3' ? 14 : 16 }, (_, i) => binding(`${name}-small-${i}`, { priority: 0, request: { cpu: 1 }, clusters: { [name]: 1 } })),
    ...(name === 'm3' ? [binding('m3-large', { priority: 1, request: { cpu: 2 }, clusters: { m3: 1 } })] : []),
  ]);
  const snapshot = new SchedulingSnapshot(names.map((name) => cluster(name, { allocatable: { cpu: 16 } })), running);
  const relevant = names.map((name) => snapshot.clusters.get(name)!);
  const wanted: Requirement = { type: 'pooled', replicas: 1 };

  it('starts above the priorities where no resident might add a replica alone: a victim past more small residents than its limit is found', () => {
    const state = bindingState(binding('pending', { priority: 5, request: { cpu: 2 } }));
    const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
    // 62 residents of priority 0 lie before it in the order; the walk reads 8.
    const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, 8);
    const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
    expect(full?.victims.map((index) => placements.candidates[index]!.key)).toEqual(['ResourceBinding.work.karmada.io/default/m3-large']);
    expect(walk.found === 'victim' ? walk.victim.key : walk.found).toBe('ResourceBinding.work.karmada.io/default/m3-large');
  });

  it('gives up at once when no cluster holds a resident that might add a replica alone, as the full search needs several', () => {
    const state = bindingState(binding('pending', { priority: 5, request: { cpu: 3 } }));
    const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
    const residentsRead = vi.spyOn(snapshot, 'rankedResidents');
    const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, Number.POSITIVE_INFINITY);
    expect(residentsRead).not.toHaveBeenCalled();
    residentsRead.mockRestore();
    const { selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
    expect(walk).toEqual({ found: 'undecided', short: [], pairsFrom: Number.NEGATIVE_INFINITY });
    expect(full?.victims.length).toBe(2);
  });

  it("reads the clusters' largest amounts only until one holds a resident of the order's lowest priority that might make room alone", () => {
    // A preemptor of 1 cpu: every cluster's priority-0 residents might, so the first cluster settles it.
    const state = bindingState(binding('pending', { priority: 5, request: { cpu: 1 } }));
    const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
    const amountsRead = vi.spyOn(snapshot, 'victimAmounts');
    const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, 8);
    const clustersRead = new Set(amountsRead.mock.calls.map(([read]) => read.name));
    amountsRead.mockRestore();
    expect(clustersRead).toEqual(new Set(['m1']));
    const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
    expect(walk.found === 'victim' ? walk.victim.key : walk.found).toBe(placements.candidates[full!.victims[0]!]!.key);
    expect(walk.found === 'victim' && walk.victim.priority).toBe(0);
  });
});

describe(`walkToSingleVictim's lowest priority of a pair (${SPEC}, "Preemption order")`, () => {
  it('no two victims enough on several short clusters have a highest priority below it', () => {
    fc.assert(
      fc.property(
        fc.array(resident, { maxLength: 30 }),
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 4, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 4, maxLength: 4 }),
        fc.record({ cpu: fc.integer({ min: 1, max: 4 }), memory: fc.integer({ min: 0, max: 2 }) }),
        (residents, spare, shares, pending) => {
          const preemptor = binding('pending', { priority: 5, request: pending.memory > 0 ? { cpu: pending.cpu, memory: pending.memory } : { cpu: pending.cpu } });
          const snapshot = filledSnapshot(CLUSTERS, residents, { cpu: spare, memory: spare.map((s) => s % 3) }, [preemptor]);
          const state = bindingState(preemptor);
          const states = CLUSTERS.map((name) => snapshot.clusters.get(name)!);
          const wanted: Requirement = { type: 'per-cluster', need: new Map(CLUSTERS.map((name, i) => [name, shares[i]!])) };
          const room = (c: (typeof states)[number]) => snapshot.free(c, state);
          const walk = walkToSingleVictim(state, states, wanted, snapshot, room, Number.POSITIVE_INFINITY);
          fc.pre(walk.found === 'undecided' && walk.short.length > 1);
          if (walk.found !== 'undecided') return;
          const placements = candidatePlacements(states, snapshot, state);
          const oracle = new PlacementOracle(state, states, placements, snapshot, wanted, room);
          const { candidates } = placements;
          for (let b = 0; b < candidates.length; b++) {
            for (let a = 0; a < b; a++) {
              oracle.evict(a);
              oracle.evict(b);
              if (oracle.feasible()) expect(Math.max(candidates[a]!.priority, candidates[b]!.priority)).toBeGreaterThanOrEqual(walk.pairsFrom);
              oracle.restore(a);
              oracle.restore(b);
            }
          }
        },
      ),
      { numRuns: 1500 },
    );
  });
});

/**
 * `clusters` clusters of 40 priority-0 bindings (a run of 40 × `clusters` ranks), 800 of them on the first
 * 20 (`relevant`). Only the 2-cpu binding on m0 and the one on m1 (each with 1 cpu to spare) are enough
 * alone for 3 cpu.
 */
function twoVictimsAmong(clusters: number) {
  const names = Array.from({ length: clusters }, (_, c) => `m${c}`);
  const running = names.flatMap((name, c) =>
    Array.from({ length: 40 }, (_, i) => binding(`${name}-${i}`, { priority: 0, request: { cpu: c < 2 && i === 7 ? 2 : 1 }, clusters: { [name]: 1 } })),
  );
  const snapshot = new SchedulingSnapshot(
    names.map((name, c) => cluster(name, { allocatable: { cpu: c < 2 ? 42 : 40 } })),
    running,
  );
  return { snapshot, relevant: names.slice(0, 20).map((name) => snapshot.clusters.get(name)!) };
}

describe(`walkToSingleVictim on a few of many clusters (${SPEC}, "Preemption order")`, () => {
  it('reads their residents of a priority and takes them in the preemptor\'s order, answering as the full search does', () => {
    const names = Array.from({ length: 20 }, (_, c) => `m${c}`);
    const running = names.flatMap((name) => [
      ...Array.from({ length: 10 }, (_, i) => binding(`${name}-low-${i}`, { priority: 0, request: { cpu: i % 3 === 0 ? 2 : 1 }, clusters: { [name]: 1 } })),
      binding(`${name}-high`, { priority: 1, request: { cpu: 2 }, clusters: { [name]: 1 } }),
    ]);
    // Full: 10 bindings of 1 or 2 cpu and one of 2.
    const snapshot = new SchedulingSnapshot(
      names.map((name) => cluster(name, { allocatable: { cpu: 16 } })),
      running,
    );
    const relevant = ['m3', 'm11'].map((name) => snapshot.clusters.get(name)!);
    const found = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const state = bindingState(binding(`pending-${i}`, { priority: 5, request: { cpu: 2 } }));
      const wanted: Requirement = { type: 'pooled', replicas: 1 };
      const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
      // 20 of the 200 ranks of priority 0 are on the two clusters: read whole, then put in order.
      const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, 256);
      const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
      expect(walk.found).toBe('victim');
      if (walk.found !== 'victim') continue;
      expect(full?.victims.map((index) => placements.candidates[index]!.key)).toEqual([walk.victim.key]);
      expect(walk.victim.priority).toBe(0);
      found.add(walk.victim.key);
    }
    // The preemptors spread over the 2-cpu bindings of priority 0 on the two clusters (8 of them).
    expect(found.size).toBeGreaterThanOrEqual(4);
  });
  it('steps through a large priority, then puts the rest of its residents on the clusters in order, finding a victim far into it', () => {
    const { snapshot, relevant } = twoVictimsAmong(100);
    const wanted: Requirement = { type: 'pooled', replicas: 1 };
    const limit = 600;
    let pastTheLimit = 0;
    for (let i = 0; i < 40; i++) {
      const pending = binding(`pending-${i}`, { priority: 5, request: { cpu: 3 } });
      const state = bindingState(pending);
      const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
      // 800 residents are more than the 600 to read: 256 places are stepped through, then the rest collected.
      const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, limit);
      const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
      expect(full?.victims.length).toBe(1);
      if (walk.found === 'undecided') continue;
      expect(walk.found).toBe('victim');
      if (walk.found !== 'victim') continue;
      expect(full?.victims.map((index) => placements.candidates[index]!.key)).toEqual([walk.victim.key]);
      const order = snapshot.priorityOrder();
      const rank = order.rank.get(walk.victim.key)!;
      if (placeOf(tieRun(order, rank, preemptorStart(state.key)), rank) >= limit) pastTheLimit++;
    }
    // Stepping alone reads no place past the limit; the residents collected after the first places reach further.
    expect(pastTheLimit).toBeGreaterThan(2);
  });
  it('reads the first place past those stepped through: a victim at place 256 of a large priority is found', () => {
    const names = Array.from({ length: 100 }, (_, c) => `m${c}`);
    const running = names.flatMap((name) => Array.from({ length: 40 }, (_, i) => binding(`${name}-${i}`, { priority: 0, request: { cpu: 1 }, clusters: { [name]: 1 } })));
    const snapshot = new SchedulingSnapshot(names.map((name) => cluster(name, { allocatable: { cpu: 40 } })), running);
    const order = snapshot.priorityOrder();
    /** The binding at place 256 of the priority-0 run in the order of the preemptor `pending`. */
    const at256 = (pending: ReturnType<typeof binding>) => {
      const run = tieRun(order, 0, preemptorStart(bindingState(pending).key));
      return order.states[run.first + ((run.start + 256 * run.stride) % (run.end - run.first))]!;
    };
    // A preemptor whose binding at that place is on one of the 20 clusters read.
    const pending = Array.from({ length: 50 }, (_, i) => binding(`pending-${i}`, { priority: 5, request: { cpu: 3 } })).find(
      (candidate) => Number(at256(candidate).clusters[0]!.name.slice(1)) < 20,
    )!;
    const state = bindingState(pending);
    const victim = at256(pending);
    // Only it frees 2 cpu, on a cluster with 1 to spare: the one binding enough alone for 3 cpu.
    const clusterName = victim.clusters[0]!.name;
    snapshot.upsert(binding(victim.binding.metadata.name, { priority: 0, request: { cpu: 2 }, clusters: { [clusterName]: 1 } }));
    snapshot.upsertCluster(cluster(clusterName, { allocatable: { cpu: 42 } }));
    const relevant = names.slice(0, 20).map((name) => snapshot.clusters.get(name)!);
    const walk = walkToSingleVictim(state, relevant, { type: 'pooled', replicas: 1 }, snapshot, (c) => snapshot.free(c, state), 600);
    expect(walk.found === 'victim' ? walk.victim.key : walk.found).toBe(victim.key);
  });
  it('puts bindings placed on several of the clusters in order by place, each read once with all its replicas there', () => {
    // 20 full clusters; 300 bindings of 1 cpu each on two neighbours (m(c), m(c+1)), and 5 on two even
    // clusters (m(2k), m(2k+2)). The even clusters are read: a preemptor wanting 2 replicas of 1 cpu gains
    // one on each cluster a victim leaves, so only the 5 are enough alone, found among some 600 entries
    // collected in buckets of places.
    const names = Array.from({ length: 20 }, (_, c) => `m${c}`);
    const placements = [
      ...Array.from({ length: 300 }, (_, i) => [`pair-${i}`, names[i % 20]!, names[(i + 1) % 20]!] as const),
      ...Array.from({ length: 5 }, (_, k) => [`even-${k}`, names[(4 * k) % 20]!, names[(4 * k + 2) % 20]!] as const),
    ];
    const held = new Map<string, number>();
    for (const [, first, second] of placements) for (const name of [first, second]) held.set(name, (held.get(name) ?? 0) + 1);
    const snapshot = new SchedulingSnapshot(
      names.map((name) => cluster(name, { allocatable: { cpu: held.get(name)! } })),
      placements.map(([name, first, second]) => binding(name, { priority: 0, request: { cpu: 1 }, clusters: { [first]: 1, [second]: 1 } })),
    );
    const relevant = names.filter((_, c) => c % 2 === 0).map((name) => snapshot.clusters.get(name)!);
    const wanted: Requirement = { type: 'pooled', replicas: 2 };
    const found = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const state = bindingState(binding(`pending-${i}`, { priority: 5, request: { cpu: 1 } }));
      const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
      const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, 1024);
      const { placements: candidates, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
      expect(full?.victims.map((index) => candidates.candidates[index]!.key)).toEqual([walk.found === 'victim' ? walk.victim.key : walk.found]);
      found.add(walk.found === 'victim' ? walk.victim.binding.metadata.name : walk.found);
    }
    // The preemptors' own orders reach for different ones of the 5.
    expect([...found].every((name) => name.startsWith('even-'))).toBe(true);
    expect(found.size).toBeGreaterThan(1);
  });

  it('reads up to a share of many residents past its limit, and no further: every single victim among them is found', () => {
    // The 20 clusters alone: the priority's 800 ranks are all theirs, so each read is a candidate's, in
    // the search's order. With a limit of 50 and a share of 1/2, the walk reads 400 of them.
    const { snapshot, relevant } = twoVictimsAmong(20);
    const wanted: Requirement = { type: 'pooled', replicas: 1 };
    const limit = 50;
    let foundPastTheLimit = 0;
    let pastTheShare = 0;
    for (let i = 0; i < 40; i++) {
      const state = bindingState(binding(`pending-${i}`, { priority: 5, request: { cpu: 3 } }));
      const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
      const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, limit, 1 / 2);
      const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
      expect(full?.victims.length).toBe(1);
      const index = full!.victims[0]!;
      if (index >= 400) {
        pastTheShare++;
        expect(walk.found).toBe('undecided');
        continue;
      }
      expect(walk.found === 'victim' ? walk.victim.key : walk.found).toBe(placements.candidates[index]!.key);
      if (index >= limit) foundPastTheLimit++;
    }
    // Held to its limit, the walk would find none past the 50th candidate; reading them all, it would find those past the 400th.
    expect(foundPastTheLimit).toBeGreaterThan(2);
    expect(pastTheShare).toBeGreaterThan(0);
  });
});
