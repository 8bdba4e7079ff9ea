import { describe, expect, it } from 'vitest';
import type { Taint } from '../../../lib/api/cluster';
import type { ClusterAffinity, Toleration } from '../../../lib/api/propagation-policy';
import {
  describeFilterFailures,
  filterCluster,
  matchesClusterAffinity,
  tolerates,
  untoleratedTaint,
  type FilterFailure,
} from '../../../lib/scheduler/cluster-filter';
import { cluster } from './support';

const gpuTaint: Taint = { key: 'dedicated', value: 'gpu', effect: 'NoSchedule' };

describe('tolerates (Kubernetes ToleratesTaint)', () => {
  it.each<[string, Toleration, Taint, boolean]>([
    ['Equal with key, value and effect', { key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, gpuTaint, true],
    ['Equal is the default operator', { key: 'dedicated', value: 'gpu' }, gpuTaint, true],
    ['a different value', { key: 'dedicated', value: 'cpu' }, gpuTaint, false],
    ['a different key', { key: 'team', value: 'gpu' }, gpuTaint, false],
    ['a different effect', { key: 'dedicated', value: 'gpu', effect: 'NoExecute' }, gpuTaint, false],
    ['an empty effect matches every effect', { key: 'dedicated', value: 'gpu', effect: '' }, { ...gpuTaint, effect: 'NoExecute' }, true],
    ['Exists ignores the value', { key: 'dedicated', operator: 'Exists' }, gpuTaint, true],
    ['Exists with an empty key tolerates everything', { operator: 'Exists' }, { key: 'anything', effect: 'NoExecute' }, true],
    ['Exists with an empty key still checks the effect', { operator: 'Exists', effect: 'NoExecute' }, gpuTaint, false],
    ['Equal without value tolerates a taint without value', { key: 'maintenance' }, { key: 'maintenance', effect: 'NoSchedule' }, true],
    ['Equal without value does not tolerate a taint with one', { key: 'dedicated' }, gpuTaint, false],
  ])('%s → %s', (_, toleration, taint, expected) => {
    expect(tolerates(toleration, taint)).toBe(expected);
  });
});

describe('untoleratedTaint (issue 2 rule 5: NoSchedule and NoExecute taints against clusterTolerations)', () => {
  const tainted = cluster('m1', {
    taints: [gpuTaint, { key: 'maintenance', effect: 'NoExecute' }, { key: 'soft', effect: 'PreferNoSchedule' }],
  });

  it.each<[string, Toleration[], string | undefined]>([
    ['no tolerations: the first hard taint', [], 'dedicated'],
    ['one of two hard taints tolerated', [{ key: 'dedicated', operator: 'Exists' }], 'maintenance'],
    ['both hard taints tolerated; PreferNoSchedule is ignored', [{ key: 'dedicated', value: 'gpu' }, { key: 'maintenance', operator: 'Exists', effect: 'NoExecute' }], undefined],
    ['a blanket Exists toleration', [{ operator: 'Exists' }], undefined],
  ])('%s', (_, tolerations, key) => {
    expect(untoleratedTaint(tainted, tolerations)?.key).toBe(key);
  });

  it('a cluster without taints has nothing to tolerate', () => {
    expect(untoleratedTaint(cluster('m1'), [])).toBeUndefined();
  });

  it('a PreferNoSchedule taint alone never filters', () => {
    expect(untoleratedTaint(cluster('m1', { taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }), [])).toBeUndefined();
  });
});

describe('matchesClusterAffinity (ordered cluster-affinity groups (004): ClusterAffinity terms; Karmada ClusterMatches)', () => {
  const eu = cluster('m1', { labels: { region: 'eu', tier: 'gold' } });

  it.each<[string, ClusterAffinity | undefined, boolean]>([
    ['no affinity', undefined, true],
    ['empty affinity', {}, true],
    ['listed by name', { clusterNames: ['m0', 'm1'] }, true],
    ['not listed', { clusterNames: ['m2'] }, false],
    ['an empty list selects every cluster', { clusterNames: [] }, true],
    ['excluded', { exclude: ['m1'] }, false],
    ['excluded though listed', { clusterNames: ['m1'], exclude: ['m1'] }, false],
    ['matchLabels hit', { labelSelector: { matchLabels: { region: 'eu' } } }, true],
    ['matchLabels miss', { labelSelector: { matchLabels: { region: 'us' } } }, false],
    ['matchExpressions In', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['gold', 'silver'] }] } }, true],
    ['matchExpressions NotIn', { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['gold'] }] } }, false],
    ['matchExpressions DoesNotExist', { labelSelector: { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] } }, true],
    ['listed but labels do not match', { clusterNames: ['m1'], labelSelector: { matchLabels: { region: 'us' } } }, false],
  ])('%s → %s', (_, affinity, expected) => {
    expect(matchesClusterAffinity(affinity, eu)).toBe(expected);
  });
});

describe('filterCluster (issue 2 rule 5)', () => {
  it.each<[string, ReturnType<typeof cluster>, ClusterAffinity | undefined, Toleration[], FilterFailure | undefined]>([
    ['a plain cluster passes', cluster('m1'), undefined, [], undefined],
    ['a missing Ready condition counts as ready', cluster('m1'), { clusterNames: ['m1'] }, [], undefined],
    ['Ready True passes', cluster('m1', { ready: 'True' }), undefined, [], undefined],
    ['Ready False fails', cluster('m1', { ready: 'False' }), undefined, [], 'not-ready'],
    ['Ready Unknown fails', cluster('m1', { ready: 'Unknown' }), undefined, [], 'not-ready'],
    ['an untolerated taint fails', cluster('m1', { taints: [gpuTaint] }), undefined, [], 'taint'],
    ['a tolerated taint passes', cluster('m1', { taints: [gpuTaint] }), undefined, [{ key: 'dedicated', operator: 'Exists' }], undefined],
    ['affinity is reported first', cluster('m1', { taints: [gpuTaint], ready: 'False' }), { clusterNames: ['m2'] }, [], 'affinity'],
    ['then taints', cluster('m1', { taints: [gpuTaint], ready: 'False' }), undefined, [], 'taint'],
  ])('%s', (_, object, affinity, tolerations, expected) => {
    expect(filterCluster(object, affinity, tolerations)).toBe(expected);
  });

  it('describes the failures in a stable order', () => {
    const failures = new Map<FilterFailure, number>([
      ['taint', 1],
      ['affinity', 2],
      ['not-ready', 1],
    ]);
    expect(describeFilterFailures(4, failures)).toBe(
      '0/4 clusters are available: 2 did not match the placement cluster affinity, 1 were not ready, 1 had untolerated taints',
    );
    expect(describeFilterFailures(0, new Map())).toBe('0/0 clusters are available');
  });
});
