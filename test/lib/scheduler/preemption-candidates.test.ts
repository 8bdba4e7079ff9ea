/**
 * candidatePlacements reads the victim candidates from the snapshot's flat arrays; they must be exactly
 * the residents isVictimCandidate admits (binding priority and preemption (000), "Preemption scenario"), in the
 * victim search's order, with what each holds on each cluster, also after bindings change in place.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isVictimCandidate } from '../../../lib/scheduler/preemption/plan-preemption';
import { candidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { preemptorStart, rankAt, tieRun } from '../../../lib/scheduler/preemption/victim-tie-order';
import { bindingState, SchedulingSnapshot, type BindingState } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

const SPEC = 'binding priority and preemption (000)';
const CLUSTERS = ['m1', 'm2', 'm3'];

const draft = fc.record({
  name: fc.integer({ min: 0, max: 79 }).map((n) => `b${n}`),
  kind: fc.constantFrom('ResourceBinding' as const, 'ClusterResourceBinding' as const),
  priority: fc.integer({ min: -2, max: 3 }),
  preemptible: fc.boolean(),
  requests: fc.boolean(),
  clusters: fc.dictionary(fc.constantFrom(...CLUSTERS), fc.integer({ min: 1, max: 3 }), { maxKeys: 3 }),
});

type Draft = typeof draft extends fc.Arbitrary<infer T> ? T : never;

const bindingOf = (d: Draft) =>
  binding(d.name, { kind: d.kind, priority: d.priority, preemptible: d.preemptible, request: d.requests ? { cpu: 1 } : {}, clusters: d.clusters });

/**
 * When the preemptor meets a binding among the bindings of its priority (victim-tie-order.ts): the
 * step j of its start and stride that lands on the binding's rank.
 */
function placeAmongEquals(snapshot: SchedulingSnapshot, key: string, preemptor: BindingState): number {
  const order = snapshot.priorityOrder();
  const rank = order.rank.get(key)!;
  const run = tieRun(order, rank, preemptorStart(preemptor.key));
  for (let j = 0; ; j++) if (rankAt(run, j) === rank) return j;
}

/**
 * The definition: residents of `names` that isVictimCandidate admits, by priority, then by when the
 * preemptor meets them among their equals, with their replicas there.
 */
function expected(snapshot: SchedulingSnapshot, names: readonly string[], preemptor: BindingState) {
  return [...snapshot.bindings.values()]
    .filter((state) => isVictimCandidate(state, preemptor) && names.some((name) => snapshot.clusters.get(name)!.residents.has(state.key)))
    .sort((a, b) => a.priority - b.priority || placeAmongEquals(snapshot, a.key, preemptor) - placeAmongEquals(snapshot, b.key, preemptor))
    .map((state) => ({
      key: state.key,
      rank: snapshot.priorityOrder().rank.get(state.key),
      entries: names.flatMap((name, index) => {
        const replicas = snapshot.clusters.get(name)!.residents.get(state.key);
        return replicas === undefined ? [] : [[index, replicas]];
      }),
    }));
}

function actual(snapshot: SchedulingSnapshot, names: readonly string[], preemptor: BindingState, highestPriority?: number) {
  const { candidates, ranks, firstEntry, entryCluster, entryReplicas } = candidatePlacements(
    names.map((name) => snapshot.clusters.get(name)!),
    snapshot,
    preemptor,
    highestPriority,
  );
  return candidates.map((state, i) => {
    const entries: number[][] = [];
    for (let entry = firstEntry[i]!; entry < firstEntry[i + 1]!; entry++) entries.push([entryCluster[entry]!, entryReplicas[entry]!]);
    return { key: state.key, rank: ranks[i], entries: entries.sort((a, b) => a[0]! - b[0]!) };
  });
}

describe(`candidatePlacements (${SPEC}, "Preemption scenario")`, () => {
  it('lists exactly the candidates isVictimCandidate admits, in search order, before and after in-place changes', () => {
    fc.assert(
      fc.property(
        // Up to 80 bindings: several words of the resident bits, their first and last bits included.
        fc.array(draft, { maxLength: 80 }),
        fc.array(draft, { maxLength: 6 }),
        fc.subarray(CLUSTERS, { minLength: 1 }),
        fc.integer({ min: -2, max: 4 }),
        fc.constantFrom('b0', 'pending'),
        (running, changes, names, priority, preemptorName) => {
          const snapshot = new SchedulingSnapshot(
            CLUSTERS.map((name) => cluster(name, { allocatable: { cpu: 100 } })),
            running.map(bindingOf),
          );
          const preemptor = bindingState(binding(preemptorName, { priority }));
          expect(actual(snapshot, names, preemptor)).toEqual(expected(snapshot, names, preemptor));
          // Same key and priority keep their rank in the order; preemptibility and placement may change.
          for (const change of changes) snapshot.upsert(bindingOf(change));
          expect(actual(snapshot, names, preemptor)).toEqual(expected(snapshot, names, preemptor));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('lists only those of a priority no higher than the one asked for, when one is', () => {
    fc.assert(
      fc.property(fc.array(draft, { maxLength: 80 }), fc.subarray(CLUSTERS, { minLength: 1 }), fc.integer({ min: -3, max: 4 }), (running, names, highest) => {
        const snapshot = new SchedulingSnapshot(
          CLUSTERS.map((name) => cluster(name, { allocatable: { cpu: 100 } })),
          running.map(bindingOf),
        );
        const preemptor = bindingState(binding('pending', { priority: 3 }));
        const all = expected(snapshot, names, preemptor);
        expect(actual(snapshot, names, preemptor, highest)).toEqual(all.filter(({ key }) => snapshot.bindings.get(key)!.priority <= highest));
      }),
      { numRuns: 500 },
    );
  });

  it('drops a binding that turns non-preemptible at the same priority', () => {
    const snapshot = new SchedulingSnapshot([cluster('m1', { allocatable: { cpu: 10 } })], [binding('a', { priority: 1, clusters: { m1: 1 } })]);
    const preemptor = bindingState(binding('pending', { priority: 5 }));
    const onM1 = () => actual(snapshot, ['m1'], preemptor).map((c) => c.key);
    expect(onM1()).toHaveLength(1);
    snapshot.upsert(binding('a', { priority: 1, preemptible: false, clusters: { m1: 1 } }));
    expect(onM1()).toEqual([]);
  });
});
