import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { Toleration } from '../../../lib/api/propagation-policy';
import { availableReplicas } from '../../../lib/resources';
import { bindingKeyOf, bindingState, SchedulingSnapshot, usageOn } from '../../../lib/scheduler/snapshot';
import { binding, cluster, TEST_CLUSTER_PODS } from './support';

const Gi = 1024 ** 3;

describe('bindingState', () => {
  it('reads priority, preemptibility and the per-replica request plus one pod', () => {
    const state = bindingState(binding('web', { priority: 7, preemptible: false, request: { cpu: '500m', memory: '1Gi' }, clusters: { m1: 2 } }));
    expect(state).toMatchObject({
      key: 'ResourceBinding.work.karmada.io/default/web',
      priority: 7,
      preemptible: false,
      request: { cpu: 500, memory: Gi, pods: 1 },
      requestsResources: true,
      clusters: [{ name: 'm1', replicas: 2 }],
    });
    expect(usageOn(state, 3)).toEqual({ cpu: 1500, memory: 3 * Gi, pods: 3 });
  });

  it.each<[string, Record<string, string>, boolean]>([
    ['no request', {}, false],
    ['only zero amounts', { cpu: '0' }, false],
    ['some cpu', { cpu: '1m' }, true],
  ])('requestsResources with %s → %s (binding priority and preemption (000): only such bindings free resources)', (_, request, expected) => {
    expect(bindingState(binding('web', { request })).requestsResources).toBe(expected);
  });

  it('keys ClusterResourceBindings without a namespace', () => {
    expect(bindingKeyOf(binding('w', { kind: 'ClusterResourceBinding' }))).toBe('ClusterResourceBinding.work.karmada.io//w');
  });

  it('caches the state of frozen bindings only', () => {
    const frozen = Object.freeze(binding('web'));
    expect(bindingState(frozen)).toBe(bindingState(frozen));
    const mutable = binding('web');
    expect(bindingState(mutable)).not.toBe(bindingState(mutable));
  });
});

describe('SchedulingSnapshot capacity (issue 2 rule 5: allocatable − allocated − allocating − placed)', () => {
  it.each<[string, Parameters<typeof cluster>[1], Record<string, number>]>([
    ['no summary: nothing at all', {}, {}],
    ['allocatable only', { allocatable: { cpu: '10', memory: '8Gi', pods: 110 } }, { cpu: 10_000, memory: 8 * Gi, pods: 110 }],
    [
      'allocated and allocating are taken off',
      { allocatable: { cpu: '10', pods: 110 }, allocated: { cpu: '2500m', pods: 10 }, allocating: { cpu: '500m', pods: 5 } },
      { cpu: 7000, pods: 95 },
    ],
    ['a pods figure limits pods', { allocatable: { cpu: '1', pods: 3 } }, { cpu: 1000, pods: 3 }],
    ['overcommitted resources go negative', { allocatable: { cpu: '1', pods: 10 }, allocated: { cpu: '2' } }, { cpu: -1000, pods: 10 }],
    ['no pods entry: no pod allowed', { allocatable: { cpu: '10' }, reportsPods: false }, { cpu: 10_000 }],
  ])('%s', (_, options, capacity) => {
    const snapshot = new SchedulingSnapshot([cluster('m1', options)], []);
    expect(snapshot.clusters.get('m1')?.capacity).toEqual(capacity);
  });

  /**
   * Karmada's general estimator, as facts: pkg/estimator/client/general_test.go. A replica is a pod, so
   * the pods left (allocatable − allocated − allocating, none below 0, none without an entry) bound the
   * replicas as much as any requested resource does.
   */
  it.each<[string, Parameters<typeof cluster>[1], Record<string, string>, number]>([
    ['TestGetAllowedPodNumber "normal case"', { allocatable: { pods: 100 }, allocated: { pods: 40 }, allocating: { pods: 10 } }, {}, 50],
    ['TestGetAllowedPodNumber "no allocatable pods"', { allocated: { pods: 10 } }, {}, 0],
    ['TestGetAllowedPodNumber "over allocation"', { allocatable: { pods: 100 }, allocated: { pods: 90 }, allocating: { pods: 20 } }, {}, 0],
    ['TestMaxAvailableReplicasGeneral "nil resource summary"', {}, {}, 0],
    ['TestMaxAvailableReplicasGeneral "no allowed pods"', { allocatable: { pods: 10 }, allocated: { pods: 10 } }, {}, 0],
    ['TestMaxAvailableReplicasGeneral "nil replica requirements"', { allocatable: { pods: 10 } }, {}, 10],
    [
      'TestMaxAvailableReplicasGeneral "basic resource estimation"',
      { allocatable: { pods: 100, cpu: '4', memory: '8Gi' }, allocated: { pods: 20, cpu: '1', memory: '2Gi' } },
      { cpu: '500m', memory: '1Gi' },
      6,
    ],
    ['TestMaxAvailableReplicas "cluster with no resources"', {}, { cpu: '1' }, 0],
    [
      'TestGetMaximumReplicasBasedOnClusterSummary "sufficient resources" (with pods to spare)',
      { allocatable: { cpu: '4', memory: '8Gi', pods: 100 }, allocated: { cpu: '1', memory: '2Gi' } },
      { cpu: '500m', memory: '1Gi' },
      6,
    ],
    [
      'TestGetMaximumReplicasBasedOnClusterSummary "insufficient memory" (with pods to spare)',
      { allocatable: { cpu: '4', memory: '2Gi', pods: 100 }, allocated: { cpu: '1', memory: '1.5Gi' } },
      { cpu: '500m', memory: '1Gi' },
      0,
    ],
    ['the same resources without a pods entry', { allocatable: { cpu: '4', memory: '8Gi' }, allocated: { cpu: '1', memory: '2Gi' }, reportsPods: false }, { cpu: '500m', memory: '1Gi' }, 0],
  ])('available replicas, %s → %i', (_, options, request, replicas) => {
    const snapshot = new SchedulingSnapshot([cluster('m1', options)], []);
    const state = bindingState(binding('web', { request }));
    expect(availableReplicas(snapshot.free(snapshot.clusters.get('m1')!), state.request)).toBe(replicas);
  });

  it('records readiness (a missing Ready condition counts as ready)', () => {
    const snapshot = new SchedulingSnapshot([cluster('m1'), cluster('m2', { ready: 'False' })], []);
    expect(snapshot.clusters.get('m1')?.ready).toBe(true);
    expect(snapshot.clusters.get('m2')?.ready).toBe(false);
  });

  it('counts what outrank placed and who lives where', () => {
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: '10' } }), cluster('m2', { allocatable: { cpu: '10' } })],
      [
        binding('a', { request: { cpu: '1' }, clusters: { m1: 2, m2: 1 } }),
        binding('b', { request: { cpu: '500m' }, clusters: { m1: 4 } }),
        binding('pending'),
        binding('gone', { clusters: { m9: 3 } }),
        binding('zero', { clusters: { m2: 0 } }),
      ],
    );
    const m1 = snapshot.clusters.get('m1')!;
    const m2 = snapshot.clusters.get('m2')!;
    expect(m1.placed).toEqual({ cpu: 4000, pods: 6 });
    expect(snapshot.free(m1)).toEqual({ cpu: 6000, pods: TEST_CLUSTER_PODS - 6 });
    expect([...m1.residents]).toEqual([
      ['ResourceBinding.work.karmada.io/default/a', 2],
      ['ResourceBinding.work.karmada.io/default/b', 4],
    ]);
    expect([...m2.residents.keys()]).toEqual(['ResourceBinding.work.karmada.io/default/a']);
    expect(snapshot.bindings.size).toBe(5);
  });

  it('available replicas: the least over requested resources, capped by pods', () => {
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: '10', memory: '4Gi', pods: 3 } }), cluster('m2', { allocatable: { cpu: '10', memory: '4Gi' } })],
      [],
    );
    const request = bindingState(binding('web', { request: { cpu: '2', memory: '1Gi' } })).request;
    expect(availableReplicas(snapshot.free(snapshot.clusters.get('m1')!), request)).toBe(3);
    expect(availableReplicas(snapshot.free(snapshot.clusters.get('m2')!), request)).toBe(4);
  });
});

describe('SchedulingSnapshot updates', () => {
  const clusters = [cluster('m1', { allocatable: { cpu: '10' } }), cluster('m2', { allocatable: { cpu: '10' } })];

  it('a cluster learned after a plain binding placed there does not take it in as a resident, as upsert keeps it out', () => {
    // A plain binding (a ConfigMap's: no replicas, no request) holds no room and is never a victim.
    const { replicas: _replicas, replicaRequirements: _request, ...spec } = binding('p', { clusters: { m3: 1 } }).spec;
    const plain: ResourceBinding = { ...binding('p'), spec };
    const snapshot = new SchedulingSnapshot(clusters, [plain, binding('a', { clusters: { m3: 2 } })]);
    snapshot.upsertCluster(cluster('m3', { allocatable: { cpu: '10' } }));
    const m3 = snapshot.clusters.get('m3')!;
    expect([...m3.residents.keys()]).toEqual([bindingKeyOf(binding('a'))]);
    const order = snapshot.priorityOrder();
    expect([...snapshot.rankedResidents(m3).ranks].map((rank) => order.states[rank]!.key)).toEqual([bindingKeyOf(binding('a'))]);
    expect(m3.placed).toEqual({ cpu: 2000, pods: 2 });
  });

  it('upsert replaces the previous placement of the same binding', () => {
    const snapshot = new SchedulingSnapshot(clusters, [binding('a', { clusters: { m1: 3 } })]);
    snapshot.upsert(binding('a', { clusters: { m2: 1 } }));
    expect(snapshot.clusters.get('m1')!.placed).toEqual({ cpu: 0, pods: 0 });
    expect(snapshot.clusters.get('m1')!.residents.size).toBe(0);
    expect(snapshot.clusters.get('m2')!.placed).toEqual({ cpu: 1000, pods: 1 });
  });

  it('remove frees the room of a binding and forgets it', () => {
    const snapshot = new SchedulingSnapshot(clusters, [binding('a', { clusters: { m1: 3 } }), binding('b', { clusters: { m1: 1 } })]);
    snapshot.remove(bindingKeyOf(binding('a')));
    snapshot.remove('unknown');
    expect(snapshot.clusters.get('m1')!.placed).toEqual({ cpu: 1000, pods: 1 });
    expect(snapshot.bindings.has(bindingKeyOf(binding('a')))).toBe(false);
  });
});

describe('SchedulingSnapshot priority order and residents by rank', () => {
  const names = ['m1', 'm2', 'm3'];
  const change = fc.record({
    name: fc.constantFrom('a', 'b', 'c', 'd', 'e'),
    priority: fc.integer({ min: 0, max: 2 }),
    preemptible: fc.boolean(),
    cpu: fc.integer({ min: 0, max: 3 }),
    clusters: fc.dictionary(fc.constantFrom(...names), fc.integer({ min: 1, max: 3 }), { maxKeys: 3 }),
    remove: fc.boolean(),
    // What is read after the change: nothing (changes pile up until the order is next asked), the order, some clusters.
    reads: fc.subarray([...names, 'order', 'amounts']),
  });

  it('stay what a fresh snapshot of the same bindings reads, and in rank order, through upserts and removals (with what victims free, binding priority and preemption (000))', () => {
    fc.assert(
      fc.property(fc.array(change, { maxLength: 40 }), (changes) => {
        const snapshot = new SchedulingSnapshot(names.map((name) => cluster(name, { allocatable: { cpu: 100 } })), []);
        for (const c of changes) {
          const next = binding(c.name, { priority: c.priority, preemptible: c.preemptible, request: { cpu: c.cpu }, clusters: c.clusters });
          if (c.remove) snapshot.remove(bindingKeyOf(next));
          else snapshot.upsert(next);
          // Read between changes too, so that later changes meet caches: of this order, of the one it
          // was merged from, or older.
          for (const read of c.reads) {
            if (read === 'order') snapshot.priorityOrder().requests('cpu');
            else if (read === 'amounts') for (const name of names) snapshot.victimAmounts(snapshot.clusters.get(name)!, 'cpu');
            else snapshot.rankedResidents(snapshot.clusters.get(read)!);
          }
        }
        const fresh = new SchedulingSnapshot(names.map((name) => cluster(name, { allocatable: { cpu: 100 } })), [...snapshot.bindings.values()].map((s) => s.binding));
        const view = (of: SchedulingSnapshot) => {
          const order = of.priorityOrder();
          return {
            keys: order.states.map((state) => state.key),
            priorities: [...order.priorities],
            mayBeVictim: [...order.mayBeVictim],
            cpu: [...order.requests('cpu')],
            residents: names.map((name) => {
              const { ranks, replicas } = of.rankedResidents(of.clusters.get(name)!);
              return [...ranks].map((rank, i) => [order.states[rank]!.key, replicas[i]] as const).sort();
            }),
            // What the residents that may be victims free, by priority (victim-amounts.ts): kept until they change.
            amounts: names.map((name) => of.victimAmounts(of.clusters.get(name)!, 'cpu')),
          };
        };
        expect(view(snapshot)).toEqual(view(fresh));
        // Ascending, so that preemption can read a cluster's lowest ranks first.
        for (const name of names) {
          const { ranks } = snapshot.rankedResidents(snapshot.clusters.get(name)!);
          expect([...ranks]).toEqual([...ranks].sort((a, b) => a - b));
          expect(new Set(ranks).size).toBe(ranks.length);
        }
      }),
      { numRuns: 1_000 },
    );
  });
});

describe('SchedulingSnapshot residents by rank through many changes unread', () => {
  it('reads as a fresh snapshot after more bindings moved onto a cluster than it held, none read between', () => {
    // 150 bindings in the order, on m2; m1's residents read once (none), then every binding moves to
    // m1 and half of them back, without m1 being read between: more changes than m1 holds residents.
    const names = Array.from({ length: 150 }, (_, at) => `b${at}`);
    const clusters = ['m1', 'm2'].map((name) => cluster(name, { allocatable: { cpu: 1000 } }));
    const snapshot = new SchedulingSnapshot(clusters, names.map((name) => binding(name, { priority: 1, clusters: { m2: 1 } })));
    const residentsOf = (of: SchedulingSnapshot, name: string) => {
      const order = of.priorityOrder();
      const { ranks, replicas } = of.rankedResidents(of.clusters.get(name)!);
      return [...ranks].map((rank, at) => [order.states[rank]!.key, replicas[at]] as const);
    };
    expect(residentsOf(snapshot, 'm1')).toEqual([]);
    names.forEach((name, at) => snapshot.upsert(binding(name, { priority: 1, clusters: { m1: 1 + (at % 3) } })));
    names.slice(0, 75).forEach((name) => snapshot.upsert(binding(name, { priority: 1, clusters: { m2: 1 } })));
    const fresh = new SchedulingSnapshot(clusters, [...snapshot.bindings.values()].map((state) => state.binding));
    expect(residentsOf(snapshot, 'm1')).toEqual(residentsOf(fresh, 'm1'));
    expect(residentsOf(snapshot, 'm1')).toHaveLength(75);
    expect(residentsOf(snapshot, 'm2')).toEqual(residentsOf(fresh, 'm2'));
  });
});

describe('SchedulingSnapshot.free for a binding being rescheduled', () => {
  const m1 = cluster('m1', { allocatable: { cpu: '4' } });

  it('counts its own room as free', () => {
    const placed = binding('a', { request: { cpu: '1' }, clusters: { m1: 3 } });
    const snapshot = new SchedulingSnapshot([m1], [placed]);
    const state = snapshot.clusters.get('m1')!;
    expect(snapshot.free(state).cpu).toBe(1000);
    expect(snapshot.free(state, bindingState(placed)).cpu).toBe(4000);
    expect(snapshot.free(state, bindingState(binding('other'))).cpu).toBe(1000);
  });

  it('frees what was counted for it, even when its request has changed since', () => {
    const before = binding('a', { request: { cpu: '1' }, clusters: { m1: 2 } });
    const after: ResourceBinding = binding('a', { request: { cpu: '2' }, clusters: { m1: 2 } });
    const snapshot = new SchedulingSnapshot([m1], [before]);
    // 4 cores − 2 × 1 core placed, plus the 2 cores it holds: 4 free, not 6.
    expect(snapshot.free(snapshot.clusters.get('m1')!, bindingState(after)).cpu).toBe(4000);
  });
});

describe('SchedulingSnapshot.filtered', () => {
  const east = { labelSelector: { matchLabels: { region: 'east' } } };
  const names = (snapshot: SchedulingSnapshot, affinity = east, tolerations: Toleration[] = []) =>
    snapshot.filtered(affinity, tolerations).feasible.map((state) => state.name);

  it('answers from what the clusters are now after one is changed, added or removed', () => {
    const snapshot = new SchedulingSnapshot([cluster('m1', { labels: { region: 'east' } }), cluster('m2', { labels: { region: 'west' } })], []);
    expect(names(snapshot)).toEqual(['m1']);
    snapshot.upsertCluster(cluster('m2', { labels: { region: 'east' } }));
    expect(names(snapshot)).toEqual(['m1', 'm2']);
    snapshot.upsertCluster(cluster('m3', { labels: { region: 'east' }, taints: [{ key: 'gpu', effect: 'NoSchedule' }] }));
    expect(names(snapshot)).toEqual(['m1', 'm2']);
    expect(snapshot.filtered(east, []).failures).toEqual(new Map([['taint', 1]]));
    expect(names(snapshot, east, [{ key: 'gpu', operator: 'Exists' }])).toEqual(['m1', 'm2', 'm3']);
    snapshot.removeCluster('m1');
    expect(names(snapshot)).toEqual(['m2']);
  });

  it('tells affinities apart by what they say, not by which object says it', () => {
    const snapshot = new SchedulingSnapshot([cluster('m1', { labels: { region: 'east' } }), cluster('m2', { labels: { region: 'west' } })], []);
    expect(names(snapshot, { labelSelector: { matchLabels: { region: 'east' } } })).toEqual(['m1']);
    expect(names(snapshot, { labelSelector: { matchLabels: { region: 'west' } } })).toEqual(['m2']);
    expect(names(snapshot, { labelSelector: { matchLabels: { region: 'east' } } })).toEqual(['m1']);
  });
});
