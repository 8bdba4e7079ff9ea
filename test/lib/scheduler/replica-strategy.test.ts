import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { placementSchema, type Placement, type StaticClusterWeight } from '../../../lib/api/propagation-policy';
import type { ClusterCapacity } from '../../../lib/scheduler/divide/division';
import { divide, replicaStrategy, requirementOf, staticWeightOf, type ReplicaStrategy } from '../../../lib/scheduler/replica-strategy';
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
    expect(divide(strategy, replicas, capacities, clusters)).toMatchObject(expected as object);
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
    expect(requirementOf(strategy, replicas, names, clusters)).toEqual(expected);
  });
});
