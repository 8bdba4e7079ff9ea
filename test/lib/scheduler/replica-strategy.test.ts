import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { placementSchema, type Placement, type StaticClusterWeight } from '../../../lib/api/propagation-policy';
import type { ClusterCapacity } from '../../../lib/scheduler/divide/division';
import { divide, replicaStrategy, requirementOf, staticWeightOf, type DivisionBasis, type ReplicaStrategy } from '../../../lib/scheduler/replica-strategy';
import { cluster } from './support';

function placement(replicaScheduling?: Record<string, unknown>): Placement {
  return placementSchema.parse(replicaScheduling ? { replicaScheduling } : {});
}

const weights: StaticClusterWeight[] = [
  { targetCluster: { clusterNames: ['m1'] }, weight: 2 },
  { targetCluster: { labelSelector: { matchLabels: { tier: 'gold' } } }, weight: 3 },
  { targetCluster: { clusterNames: ['m2'] }, weight: 1 },
];

const clusters = new Map<string, Cluster>([
  ['m1', cluster('m1', { labels: { tier: 'gold' } })],
  ['m2', cluster('m2')],
  ['m3', cluster('m3', { labels: { tier: 'silver' } })],
]);

describe('replicaStrategy (Karmada replicaScheduling)', () => {
  it.each<[string, Placement | undefined, ReplicaStrategy]>([
    ['no placement: Duplicated', undefined, { type: 'duplicated' }],
    ['no replicaScheduling: Duplicated', placement(), { type: 'duplicated' }],
    ['Duplicated', placement({ replicaSchedulingType: 'Duplicated' }), { type: 'duplicated' }],
    ['Duplicated ignores a division preference', placement({ replicaSchedulingType: 'Duplicated', replicaDivisionPreference: 'Aggregated' }), { type: 'duplicated' }],
    ['Divided without preference weighs clusters equally', placement({ replicaSchedulingType: 'Divided' }), { type: 'static-weight', weights: [] }],
    ['Divided Weighted with static weights', placement({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: weights } }), { type: 'static-weight', weights }],
    ['Divided Weighted by available replicas', placement({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } }), { type: 'available-replicas' }],
    ['Divided Aggregated', placement({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }), { type: 'aggregated' }],
    // Karmada's CRD defaults replicaSchedulingType to Divided when replicaScheduling is given without it.
    ['replicaScheduling without a type is Divided (Aggregated)', placement({ replicaDivisionPreference: 'Aggregated' }), { type: 'aggregated' }],
    ['replicaScheduling without a type is Divided (dynamic)', placement({ weightPreference: { dynamicWeight: 'AvailableReplicas' } }), { type: 'available-replicas' }],
    ['an empty replicaScheduling is Divided', placement({}), { type: 'static-weight', weights: [] }],
  ])('%s', (_, value, expected) => {
    expect(replicaStrategy(value)).toEqual(expected);
  });
});

describe('staticWeightOf (Karmada getStaticWeightInfoList: the largest matching weight)', () => {
  it.each([
    ['m1', 3],
    ['m2', 1],
    ['m3', 0],
  ])('%s weighs %i', (name, weight) => {
    expect(staticWeightOf(weights, clusters.get(name)!)).toBe(weight);
  });
});

/** A fresh division, ties by name ascending (Karmada's order for a workload without a UID). */
const FRESH: DivisionBasis = { kept: [], ties: 'name-ascending' };

describe('divide', () => {
  const capacities: ClusterCapacity[] = [
    { name: 'm1', availableReplicas: 10 },
    { name: 'm2', availableReplicas: 4 },
    { name: 'm3', availableReplicas: 1 },
  ];

  it.each<[string, ReplicaStrategy, number, unknown]>([
    ['Duplicated needs room for all replicas in every cluster', { type: 'duplicated' }, 2, { ok: false }],
    ['Duplicated with room everywhere', { type: 'duplicated' }, 1, { ok: true, targets: [{ name: 'm1', replicas: 1 }, { name: 'm2', replicas: 1 }, { name: 'm3', replicas: 1 }] }],
    ['static weights 3:1:0', { type: 'static-weight', weights }, 4, { ok: true, targets: [{ name: 'm1', replicas: 3 }, { name: 'm2', replicas: 1 }] }],
    ['static weights do not shift a share that does not fit', { type: 'static-weight', weights }, 20, { ok: false }],
    ['no static weight list: equal weights', { type: 'static-weight', weights: [] }, 3, { ok: true, targets: [{ name: 'm1', replicas: 1 }, { name: 'm2', replicas: 1 }, { name: 'm3', replicas: 1 }] }],
    ['by available replicas', { type: 'available-replicas' }, 15, { ok: true, targets: [{ name: 'm1', replicas: 10 }, { name: 'm2', replicas: 4 }, { name: 'm3', replicas: 1 }] }],
    ['by available replicas beyond the total room', { type: 'available-replicas' }, 16, { ok: false, shortfall: 1 }],
    ['aggregated onto the fewest clusters', { type: 'aggregated' }, 10, { ok: true, targets: [{ name: 'm1', replicas: 10 }] }],
  ])('%s', (_, strategy, replicas, expected) => {
    expect(divide(strategy, replicas, capacities, clusters, FRESH)).toMatchObject(expected as object);
  });

  // Karmada's Steady mode (assignment.go, assignByDynamicStrategy): only the dynamic strategies keep replicas.
  const kept: DivisionBasis = { kept: [{ name: 'm3', replicas: 2 }], ties: 'name-ascending' };
  it.each<[string, ReplicaStrategy, number, unknown]>([
    ['by available replicas adds to what is kept', { type: 'available-replicas' }, 7, { ok: true, targets: [{ name: 'm1', replicas: 4 }, { name: 'm2', replicas: 1 }, { name: 'm3', replicas: 2 }] }],
    ['aggregated adds to the cluster in use first', { type: 'aggregated' }, 3, { ok: true, targets: [{ name: 'm3', replicas: 3 }] }],
    ['static weights divide every replica afresh', { type: 'static-weight', weights }, 4, { ok: true, targets: [{ name: 'm1', replicas: 3 }, { name: 'm2', replicas: 1 }] }],
    ['Duplicated places every replica on every cluster afresh', { type: 'duplicated' }, 1, { ok: true, targets: [{ name: 'm1', replicas: 1 }, { name: 'm2', replicas: 1 }, { name: 'm3', replicas: 1 }] }],
  ])('with replicas kept: %s', (_, strategy, replicas, expected) => {
    expect(divide(strategy, replicas, capacities, clusters, kept)).toEqual(expected);
  });

  it('breaks Webster ties in the order given', () => {
    const even = [{ name: 'm1', availableReplicas: 5 }, { name: 'm2', availableReplicas: 5 }];
    expect(divide({ type: 'available-replicas' }, 1, even, clusters, FRESH)).toEqual({ ok: true, targets: [{ name: 'm1', replicas: 1 }] });
    expect(divide({ type: 'available-replicas' }, 1, even, clusters, { kept: [], ties: 'name-descending' })).toEqual({ ok: true, targets: [{ name: 'm2', replicas: 1 }] });
  });
});

describe('requirementOf', () => {
  const names = ['m1', 'm2', 'm3'];

  it.each<[string, ReplicaStrategy, number, unknown]>([
    ['Duplicated needs every replica on every cluster', { type: 'duplicated' }, 2, { type: 'per-cluster', need: new Map([['m1', 2], ['m2', 2], ['m3', 2]]) }],
    ['static weights fix each share', { type: 'static-weight', weights }, 8, { type: 'per-cluster', need: new Map([['m1', 6], ['m2', 2]]) }],
    ['by available replicas only needs room in total', { type: 'available-replicas' }, 8, { type: 'pooled', replicas: 8 }],
    ['aggregated only needs room in total', { type: 'aggregated' }, 3, { type: 'pooled', replicas: 3 }],
  ])('%s', (_, strategy, replicas, expected) => {
    expect(requirementOf(strategy, replicas, names, clusters, FRESH)).toEqual(expected);
  });

  it('the dynamic strategies need room only for the replicas added to those kept', () => {
    const kept: DivisionBasis = { kept: [{ name: 'm1', replicas: 3 }, { name: 'm2', replicas: 2 }], ties: 'name-ascending' };
    expect(requirementOf({ type: 'available-replicas' }, 8, names, clusters, kept)).toEqual({ type: 'pooled', replicas: 3 });
    expect(requirementOf({ type: 'aggregated' }, 4, names, clusters, kept)).toEqual({ type: 'pooled', replicas: 0 });
  });

  it("static weights' shares follow the tie order", () => {
    expect(requirementOf({ type: 'static-weight', weights: [] }, 1, ['m1', 'm2'], clusters, { kept: [], ties: 'name-descending' })).toEqual({
      type: 'per-cluster',
      need: new Map([['m2', 1]]),
    });
  });
});
