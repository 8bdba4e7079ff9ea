import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { refusedTargets } from '../../../lib/scheduler/refused-targets';
import { binding, cluster } from './support';

const PLACED_AT = '2026-01-01T00:00:10.000Z';

describe('targets the affinity term a binding was placed by no longer admits (Karmada ClusterAffinity filter: the observed term alone)', () => {
  const fleet = new Map<string, Cluster>([
    ['prod', cluster('prod', { labels: { env: 'prod' } })],
    ['test', cluster('test', { labels: { env: 'test' } })],
  ]);
  const clusterOf = (name: string) => fleet.get(name);

  it.each<[string, Record<string, unknown>, string | undefined, string[]]>([
    ['a label selector that still matches both', { clusterAffinity: { labelSelector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'test'] }] } } }, undefined, []],
    ['a label selector that no longer matches one of them', { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } }, undefined, ['test']],
    ['an excluded cluster', { clusterAffinity: { exclude: ['test'] } }, undefined, ['test']],
    ['no affinity: every cluster is admitted', {}, undefined, []],
    [
      'the observed term only, though a later one would admit it',
      { clusterAffinities: [{ affinityName: 'first', clusterNames: ['prod'] }, { affinityName: 'second', clusterNames: ['test'] }] },
      'first',
      ['test'],
    ],
    [
      'the observed term admits it, though an earlier one would not',
      { clusterAffinities: [{ affinityName: 'first', clusterNames: ['prod'] }, { affinityName: 'second', clusterNames: ['prod', 'test'] }] },
      'second',
      [],
    ],
  ])('%s', (_, placement, observedAffinity, refused) => {
    const subject = binding('web', { clusters: { prod: 1, test: 1 }, placement, ...(observedAffinity ? { observedAffinity } : {}) });
    expect(refusedTargets(subject, clusterOf).map((target) => target.name)).toEqual(refused);
  });

  it('a cluster that is gone, or created again since, is lost rather than refused', () => {
    const subject = binding('web', { clusters: { prod: 1, gone: 1 }, placement: { clusterAffinity: { clusterNames: ['nowhere'] } } });
    const placed = { ...subject, status: { ...subject.status, lastScheduledTime: PLACED_AT } };
    const recreated = cluster('prod');
    const clusters = new Map([['prod', { ...recreated, metadata: { ...recreated.metadata, creationTimestamp: '2026-01-01T00:00:11.000Z' } }]]);
    expect(refusedTargets(placed, (name) => clusters.get(name))).toEqual([]);
  });
});
