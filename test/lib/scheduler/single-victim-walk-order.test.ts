/**
 * How the walk for a single victim puts a priority's residents in the preemptor's order (binding
 * priority and preemption (000), "Preemption order"): stepped through when the clusters read hold the
 * priority densely, collected and sorted by place when they hold a few of it. Either way the answer is
 * the full search's; what differs is the work, which this file watches through `placeOf`.
 */
import { describe, expect, it, vi } from 'vitest';
import * as tieOrder from '../../../lib/scheduler/preemption/victim-tie-order';
import { walkToSingleVictim } from '../../../lib/scheduler/preemption/single-victim-walk';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, searchEveryCandidate } from './support';

vi.mock('../../../lib/scheduler/preemption/victim-tie-order', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../lib/scheduler/preemption/victim-tie-order')>();
  return { ...actual, placeOf: vi.fn(actual.placeOf) };
});

const SPEC = 'binding priority and preemption (000)';
const placeOf = vi.mocked(tieOrder.placeOf);

/**
 * 20 full clusters, each holding 10 priority-0 bindings of 1 cpu and one of 2 cpu, and 5 bindings of
 * 1 cpu placed on two of them at once: 225 ranks of priority 0.
 */
function fleet() {
  const names = Array.from({ length: 20 }, (_, c) => `m${c}`);
  const running = [
    ...names.flatMap((name) => [
      ...Array.from({ length: 10 }, (_, i) => binding(`${name}-small-${i}`, { priority: 0, request: { cpu: 1 }, clusters: { [name]: 1 } })),
      binding(`${name}-large`, { priority: 0, request: { cpu: 2 }, clusters: { [name]: 1 } }),
    ]),
    ...Array.from({ length: 5 }, (_, k) => binding(`shared-${k}`, { priority: 0, request: { cpu: 1 }, clusters: { [names[2 * k]!]: 1, [names[2 * k + 1]!]: 1 } })),
  ];
  const held = new Map<string, number>(names.map((name) => [name, 12]));
  for (let k = 0; k < 5; k++) for (const name of [names[2 * k]!, names[2 * k + 1]!]) held.set(name, held.get(name)! + 1);
  const snapshot = new SchedulingSnapshot(
    names.map((name) => cluster(name, { allocatable: { cpu: held.get(name)! } })),
    running,
  );
  return { names, snapshot };
}

describe(`walkToSingleVictim's order of a priority's residents (${SPEC}, "Preemption order")`, () => {
  // Two replicas of 1 cpu: a 2-cpu binding is enough alone, and so is a shared one (1 cpu on each of two
  // clusters), read with both its entries. One replica of 2 cpu: only a 2-cpu binding is.
  it.each([
    // 16 clusters hold 181 of the 225 ranks (186 entries): stepped through, no resident's place worked out.
    { clusters: 16, replicas: 2, cpu: 1, stepped: true },
    { clusters: 16, replicas: 1, cpu: 2, stepped: true },
    // 2 clusters hold 23 of them (24 entries): collected, each entry's place worked out, then sorted.
    { clusters: 2, replicas: 2, cpu: 1, stepped: false },
    { clusters: 2, replicas: 1, cpu: 2, stepped: false },
  ])('on $clusters of 20 clusters, wanting $replicas replicas of $cpu cpu: stepped through $stepped, answering as the full search does', ({ clusters, replicas, cpu, stepped }) => {
    const { names, snapshot } = fleet();
    const relevant = names.slice(0, clusters).map((name) => snapshot.clusters.get(name)!);
    const wanted: Requirement = { type: 'pooled', replicas };
    const found = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const state = bindingState(binding(`pending-${i}`, { priority: 5, request: { cpu } }));
      const room = (c: (typeof relevant)[number]) => snapshot.free(c, state);
      placeOf.mockClear();
      const walk = walkToSingleVictim(state, relevant, wanted, snapshot, room, 1024);
      const placesWorkedOut = placeOf.mock.calls.length;
      const { placements, selection: full } = searchEveryCandidate(state, relevant, snapshot, wanted, room);
      expect(walk.found).toBe('victim');
      if (walk.found !== 'victim') continue;
      expect(full?.victims.map((index) => placements.candidates[index]!.key)).toEqual([walk.victim.key]);
      if (stepped) expect(placesWorkedOut).toBe(0);
      else expect(placesWorkedOut).toBeGreaterThanOrEqual(24);
      found.add(walk.victim.key);
    }
    // Each preemptor's own order: they reach for different victims.
    expect(found.size).toBeGreaterThan(1);
  });
});
