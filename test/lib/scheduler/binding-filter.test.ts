/**
 * The filters as one binding meets them (binding-filter.ts), with Karmada's filter plugin tables ported as
 * facts: pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go,
 * pkg/scheduler/framework/plugins/clusteraffinity/cluster_affinity_test.go and the cluster-selector cases
 * of pkg/util/selector_test.go (TestClusterMatches without field selectors).
 */
import { describe, expect, it } from 'vitest';
import { decodeObject } from '../../../lib/api/decode';
import { InvalidObjectError } from '../../../lib/api/invalid-object-error';
import type { ClusterAffinity } from '../../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { bindingFilterFailure, filteredFor } from '../../../lib/scheduler/binding-filter';
import { matchesClusterAffinity, type FilterFailure } from '../../../lib/scheduler/cluster-filter';
import { affinityTerms, scheduleBinding } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, divided } from './support';

const withTasks = (subject: ResourceBinding, ...fromClusters: string[]): ResourceBinding => ({
  ...subject,
  spec: { ...subject.spec, gracefulEvictionTasks: fromClusters.map((fromCluster) => ({ fromCluster, reason: 'TaintUntolerated', producer: 'TaintManager' })) },
});

/** The failure of the binding's first affinity term (the observed one) on the cluster, as the scheduler's filters decide it. */
function failureOf(subject: ResourceBinding, target: ReturnType<typeof cluster>, now?: number): FilterFailure | undefined {
  const [term] = affinityTerms(subject.spec.placement, subject.status?.schedulerObservingAffinityName);
  return bindingFilterFailure(subject, target, term!.affinity, now);
}

describe('TaintToleration filter (taint_toleration_test.go, TestTaintToleration_Filter)', () => {
  const key1 = { key: 'key1', value: 'value1', effect: 'NoSchedule' };

  it.each<[string, ResourceBinding, ReturnType<typeof cluster>, FilterFailure | undefined]>([
    ['"cluster already in target clusters"', binding('b', { clusters: { cluster1: 1 } }), cluster('cluster1'), undefined],
    ['"no taints"', binding('b', { placement: {} }), cluster('cluster1'), undefined],
    [
      '"tolerated taint"',
      binding('b', { placement: { clusterTolerations: [{ key: 'key1', operator: 'Equal', value: 'value1', effect: 'NoSchedule' }] } }),
      cluster('cluster1', { taints: [key1] }),
      undefined,
    ],
    ['"untolerated taint" (Unschedulable: cluster(s) had untolerated taint {key1=value1:NoSchedule})', binding('b', { placement: {} }), cluster('cluster1', { taints: [key1] }), 'taint'],
    // Beyond the table: the case the first row stands for, with the taint it skips.
    ['already in target clusters, with a taint it does not tolerate', binding('b', { clusters: { cluster1: 1 } }), cluster('cluster1', { taints: [key1] }), undefined],
    ['already in target clusters, with a NoExecute taint it does not tolerate (the taint manager evicts it)', binding('b', { clusters: { cluster1: 1 } }), cluster('cluster1', { taints: [{ key: 'key1', effect: 'NoExecute' }] }), undefined],
    ['placed on another cluster: the taint applies here', binding('b', { clusters: { cluster2: 1 } }), cluster('cluster1', { taints: [key1] }), 'taint'],
  ])('%s', (_, subject, target, failure) => {
    expect(failureOf(subject, target)).toBe(failure);
  });
});

describe('ClusterEviction filter (pkg/scheduler/framework/plugins/clustereviction: "cluster(s) is in the process of eviction")', () => {
  it('a cluster in the binding\'s gracefulEvictionTasks is refused, though it is placed there and matches', () => {
    expect(failureOf(withTasks(binding('b', { clusters: { m1: 1 } }), 'm1'), cluster('m1'))).toBe('eviction');
  });

  it('other clusters are not', () => {
    expect(failureOf(withTasks(binding('b', { clusters: { m1: 1 } }), 'm1'), cluster('m2'))).toBeUndefined();
  });
});

describe('ClusterAffinity filter (cluster_affinity_test.go, TestClusterAffinity_Filter)', () => {
  it.each<[string, ResourceBinding, FilterFailure | undefined]>([
    ['"matching affinity"', binding('b', { placement: { clusterAffinity: { clusterNames: ['cluster1'] } } }), undefined],
    ['"non-matching affinity"', binding('b', { placement: { clusterAffinity: { clusterNames: ['cluster2'] } } }), 'affinity'],
    [
      '"matching affinity from ClusterAffinities"',
      binding('b', { placement: { clusterAffinities: [{ affinityName: 'affinity1', clusterNames: ['cluster1'] }] }, observedAffinity: 'affinity1' }),
      undefined,
    ],
    ['"no affinity specified"', binding('b', { placement: {} }), undefined],
    [
      'the observed term only: a later term that matches does not make it match',
      binding('b', {
        placement: { clusterAffinities: [{ affinityName: 'first', clusterNames: ['cluster2'] }, { affinityName: 'second', clusterNames: ['cluster1'] }] },
        observedAffinity: 'first',
      }),
      'affinity',
    ],
  ])('%s', (_, subject, failure) => {
    expect(failureOf(subject, cluster('cluster1'))).toBe(failure);
  });
});

describe('cluster selectors (selector_test.go, TestClusterMatches; the field-selector cases belong to fieldSelector)', () => {
  const cluster1 = cluster('cluster1', { labels: { foo: 'bar' } });

  it.each<[string, ClusterAffinity, boolean]>([
    ['"test cluster excluded and names"', { exclude: ['cluster1'], clusterNames: ['cluster1'] }, false],
    ['"test cluster excluded and label selector"', { exclude: ['cluster1'], labelSelector: { matchLabels: { foo: 'bar' } } }, false],
    ['"test cluster names"', { clusterNames: ['cluster1'] }, true],
    ['"test cluster names not matched"', { clusterNames: ['cluster2'] }, false],
    ['"test cluster names and label selector"', { labelSelector: { matchLabels: { foo: 'bar' } }, clusterNames: ['cluster1'] }, true],
    ['"test cluster names and label selector not matched"', { labelSelector: { matchLabels: { foo: 'unmatched' } }, clusterNames: ['cluster1'] }, false],
    ['"test label selector"', { labelSelector: { matchLabels: { foo: 'bar' } } }, true],
    ['"test label selector not matched"', { labelSelector: { matchLabels: { foo: 'unmatched' } } }, false],
    ['"test empty cluster affinity matched"', {}, true],
  ])('%s → %s', (_, affinity, matches) => {
    expect(matchesClusterAffinity(affinity, cluster1)).toBe(matches);
  });

  it('"test label selector error" (a selector Karmada cannot parse matches nothing): outrank refuses the policy when it is written, naming the field', () => {
    const policy = {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'p', namespace: 'default' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { labelSelector: { matchLabels: { '': 'bar' } } } } },
    };
    const error = (() => {
      try {
        decodeObject(policy);
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidObjectError);
    expect((error as InvalidObjectError).causes).toEqual([
      { field: 'spec.placement.clusterAffinity.labelSelector.matchLabels.', message: expect.stringContaining('key must be a qualified name') },
    ]);
  });
});

describe('the filter results a snapshot shares keep their value: only a binding placed on a tainted cluster or evicted from one gets its own', () => {
  const clusters = [
    cluster('m1', { allocatable: { cpu: 4 }, taints: [{ key: 'maintenance', effect: 'NoSchedule' }] }),
    cluster('m2', { allocatable: { cpu: 4 } }),
    cluster('m3', { allocatable: { cpu: 4 }, taints: [{ key: 'maintenance', effect: 'NoSchedule' }], ready: 'False' }),
  ];

  it('a binding placed nowhere tainted gets the shared result itself', () => {
    const snapshot = new SchedulingSnapshot(clusters, []);
    const shared = snapshot.filtered(undefined, []);
    expect(shared.taintedOnly.map((c) => c.name)).toEqual(['m1']);
    expect(filteredFor(binding('new'), shared)).toBe(shared);
    expect(filteredFor(binding('on-m2', { clusters: { m2: 1 } }), shared)).toBe(shared);
  });

  it('one placed on the tainted cluster passes it, and the failures no longer count it; a tainted cluster that is not ready stays refused', () => {
    const snapshot = new SchedulingSnapshot(clusters, []);
    const shared = snapshot.filtered(undefined, []);
    const own = filteredFor(binding('on-m1', { clusters: { m1: 1, m3: 1 } }), shared);
    expect(own.feasible.map((c) => c.name).sort()).toEqual(['m1', 'm2']);
    expect([...own.failures]).toEqual([['taint', 1]]);
    expect(snapshot.filtered(undefined, [])).toBe(shared);
  });

  it('one being evicted from a cluster loses it, and is told why', () => {
    const snapshot = new SchedulingSnapshot([cluster('m1', { allocatable: { cpu: 4 } })], []);
    const decision = scheduleBinding(withTasks(binding('b', { clusters: { m1: 1 } }), 'm1'), snapshot, { preemption: true, victimSearchBudget: 1_000 });
    expect(decision).toEqual({ result: 'unschedulable', reason: 'NoClusterFit', message: '0/1 clusters are available: 1 were in the process of eviction' });
  });

  it('a Divided binding placed on a cluster that gained a NoSchedule taint scales up there (Karmada TaintToleration)', () => {
    const subject = binding('b', { replicas: 4, clusters: { m1: 2 }, placement: { clusterAffinity: { clusterNames: ['m1'] }, replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) } });
    const snapshot = new SchedulingSnapshot(clusters, [subject]);
    expect(scheduleBinding(subject, snapshot, { preemption: true, victimSearchBudget: 1_000 })).toMatchObject({ result: 'scheduled', targets: [{ name: 'm1', replicas: 4 }] });
    const fresh = binding('fresh', { replicas: 1, placement: { clusterAffinity: { clusterNames: ['m1'] } } });
    expect(scheduleBinding(fresh, snapshot, { preemption: true, victimSearchBudget: 1_000 })).toMatchObject({ result: 'unschedulable', reason: 'NoClusterFit' });
  });
});

describe('a cluster whose NoExecute taints would evict the binding at once takes no placement of it (Karmada\'s filter ignores tolerationSeconds; its taint manager would evict it straight away)', () => {
  const NOW = Date.parse('2026-01-01T00:10:00Z');
  const draining = cluster('m1', { allocatable: { cpu: 4 }, taints: [{ key: 'drain', effect: 'NoExecute', timeAdded: '2026-01-01T00:00:00Z' }] });
  const tolerating = (seconds: number) => binding('b', { placement: { clusterTolerations: [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: seconds }] } });

  it.each<[string, number, FilterFailure | undefined]>([
    ['tolerated for an hour from the taint: still tolerated', 3_600, undefined],
    ['tolerated for a minute from the taint, ten minutes ago: refused', 60, 'taint'],
  ])('%s', (_, seconds, failure) => {
    expect(failureOf(tolerating(seconds), draining, NOW)).toBe(failure);
    const snapshot = new SchedulingSnapshot([draining], []);
    const decision = scheduleBinding(tolerating(seconds), snapshot, { preemption: true, victimSearchBudget: 1_000, now: NOW });
    expect(decision.result).toBe(failure ? 'unschedulable' : 'scheduled');
  });

  it('without the time of the decision, a toleration tolerates whatever its seconds (as Karmada\'s filter)', () => {
    expect(failureOf(tolerating(60), draining)).toBeUndefined();
  });
});
