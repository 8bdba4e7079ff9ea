import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { placementSchema } from '../../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { affinityTerms, scheduleBinding, type ScheduleDecision, type ScheduleOptions } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster, divided, onClusters } from './support';

const SPEC = {
  preemption: 'binding priority and preemption (000)',
  preemptibility: 'preemptibility separate from priority (001)',
  groups: 'ordered cluster-affinity groups (004)',
};

const ON: ScheduleOptions = { preemption: true, victimSearchBudget: 20_000 };
const OFF: ScheduleOptions = { preemption: false, victimSearchBudget: 20_000 };

function schedule(clusters: Cluster[], running: ResourceBinding[], pending: ResourceBinding, options: ScheduleOptions = ON): ScheduleDecision {
  return scheduleBinding(pending, new SchedulingSnapshot(clusters, [...running, pending]), options);
}

/** The decision in a comparable shape: targets as "name:replicas", victims by name. */
function outcome(decision: ScheduleDecision) {
  if (decision.result === 'unschedulable') return { result: decision.result, reason: decision.reason };
  return {
    result: decision.result,
    targets: decision.targets.map((t) => `${t.name}:${t.replicas}`),
    affinityName: decision.affinityName,
    victims: decision.victims.map((v) => v.binding.metadata.name).sort(),
  };
}

const scheduled = (targets: string[], victims: string[] = [], affinityName?: string) => ({ result: 'scheduled', targets, affinityName, victims });
const unschedulable = { result: 'unschedulable', reason: 'Unschedulable' };
const noClusterFit = { result: 'unschedulable', reason: 'NoClusterFit' };

/** A cluster of `cpu` cores, filled by one low-priority preemptible binding when `full`. */
function fleet(spec: Record<string, { cpu: number; full?: boolean }>) {
  const clusters = Object.entries(spec).map(([name, { cpu }]) => cluster(name, { allocatable: { cpu } }));
  const running = Object.entries(spec)
    .filter(([, { full }]) => full)
    .map(([name, { cpu }]) => binding(`filler-${name}`, { priority: 0, request: { cpu: String(cpu) }, clusters: { [name]: 1 } }));
  return { clusters, running };
}

describe(`the document's example (${SPEC.preemption}, "Preemption order")`, () => {
  it('capacity 10, running priorities 0,1,2,3 requesting 1,2,5,2, pending priority 10 requesting 5: only priority 2 is preempted', () => {
    const running = [
      binding('p0', { priority: 0, request: { cpu: '1' }, clusters: { m1: 1 } }),
      binding('p1', { priority: 1, request: { cpu: '2' }, clusters: { m1: 1 } }),
      binding('p2', { priority: 2, request: { cpu: '5' }, clusters: { m1: 1 } }),
      binding('p3', { priority: 3, request: { cpu: '2' }, clusters: { m1: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, request: { cpu: '5' } });
    const decision = schedule([cluster('m1', { allocatable: { cpu: '10' } })], running, pending);
    expect(outcome(decision)).toEqual(scheduled(['m1:1'], ['p2']));
    expect(decision.result === 'scheduled' && decision.exactVictims).toBe(true);
  });
});

describe(`when preemption happens (${SPEC.preemption}, "Preemption scenario")`, () => {
  const { clusters, running } = fleet({ m1: { cpu: 2, full: true }, m2: { cpu: 2 } });

  it.each<[string, Record<string, unknown>]>([
    ['an affinity that includes a cluster with room', onClusters('m1', 'm2')],
    ['a division that can use the cluster with room', { replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) }],
  ])('not with %s', (_, placement) => {
    const pending = binding('pending', { priority: 10, request: { cpu: '2' }, placement: { ...placement, replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m2:1']));
  });

  it.each<[string, ResourceBinding, ScheduleOptions, object]>([
    ['with room nowhere, a PreemptLowerPriority binding preempts', binding('pending', { priority: 10, request: { cpu: '2' }, placement: onClusters('m1') }), ON, scheduled(['m1:1'], ['filler-m1'])],
    ['preemptionPolicy Never never preempts', binding('pending', { priority: 10, preemptionPolicy: 'Never', request: { cpu: '2' }, placement: onClusters('m1') }), ON, unschedulable],
    ['the gate off never preempts', binding('pending', { priority: 10, request: { cpu: '2' }, placement: onClusters('m1') }), OFF, unschedulable],
    ['equal priority is not preempted', binding('pending', { priority: 0, request: { cpu: '2' }, placement: onClusters('m1') }), ON, unschedulable],
    ['a ClusterResourceBinding does not preempt', binding('pending', { kind: 'ClusterResourceBinding', priority: 10, request: { cpu: '2' }, placement: onClusters('m1') }), ON, unschedulable],
    ['not when preemption would not help', binding('pending', { priority: 10, request: { cpu: '3' }, placement: onClusters('m1') }), ON, unschedulable],
  ])('%s', (_, pending, options, expected) => {
    expect(outcome(schedule(clusters, running, pending, options))).toEqual(expected);
  });
});

describe(`who can be a victim (${SPEC.preemption}; ${SPEC.preemptibility})`, () => {
  const m1 = cluster('m1', { allocatable: { cpu: '2', pods: 2 } });
  const pending = binding('pending', { priority: 10, request: { cpu: '1' } });

  it.each<[string, ResourceBinding[], object]>([
    ['a strictly lower, preemptible ResourceBinding', [binding('v', { priority: 9, request: { cpu: '2' }, clusters: { m1: 1 } })], scheduled(['m1:1'], ['v'])],
    ['not a higher-priority binding', [binding('v', { priority: 11, request: { cpu: '2' }, clusters: { m1: 1 } })], unschedulable],
    ['not a non-preemptible binding, however low', [binding('v', { priority: -5, preemptible: false, request: { cpu: '2' }, clusters: { m1: 1 } })], unschedulable],
    ['not a ClusterResourceBinding', [binding('v', { kind: 'ClusterResourceBinding', priority: 0, request: { cpu: '2' }, clusters: { m1: 1 } })], unschedulable],
    [
      'not a binding that requests no resources (it only holds pods)',
      [binding('v', { priority: 0, request: {}, replicas: 2, clusters: { m1: 2 } })],
      unschedulable,
    ],
    [
      'only the ones that are enough, lowest set first',
      [
        binding('keep', { priority: 9, request: { cpu: '1' }, clusters: { m1: 1 } }),
        binding('evict', { priority: 1, request: { cpu: '1' }, clusters: { m1: 1 } }),
      ],
      scheduled(['m1:1'], ['evict']),
    ],
  ])('%s', (_, running, expected) => {
    expect(outcome(schedule([m1], running, pending))).toEqual(expected);
  });
});

describe(`ordered affinity terms (${SPEC.groups}; issue 2 rule 5)`, () => {
  const groups = placementSchema.parse({
    clusterAffinities: [
      { affinityName: 'primary', clusterNames: ['m1'] },
      { affinityName: 'secondary', clusterNames: ['m2'] },
      { affinityName: 'backup', clusterNames: ['m3'] },
    ],
  });

  it.each<[string, Record<string, { cpu: number; full?: boolean }>, string | undefined, object]>([
    ['the first term with room', { m1: { cpu: 1 }, m2: { cpu: 1 }, m3: { cpu: 1 } }, undefined, scheduled(['m1:1'], [], 'primary')],
    ['a later term without preemption beats an earlier one with it', { m1: { cpu: 1, full: true }, m2: { cpu: 1, full: true }, m3: { cpu: 1 } }, undefined, scheduled(['m3:1'], [], 'backup')],
    ['with room nowhere, preemption in the earliest term that it helps', { m1: { cpu: 1, full: true }, m2: { cpu: 1, full: true }, m3: { cpu: 1, full: true } }, undefined, scheduled(['m1:1'], ['filler-m1'], 'primary')],
    ['starts from status.schedulerObservingAffinityName', { m1: { cpu: 1 }, m2: { cpu: 1 }, m3: { cpu: 1 } }, 'secondary', scheduled(['m2:1'], [], 'secondary')],
    ['never goes back before the observed term', { m1: { cpu: 1 }, m2: { cpu: 1, full: true }, m3: { cpu: 1, full: true } }, 'secondary', scheduled(['m2:1'], ['filler-m2'], 'secondary')],
    ['an observed name that no longer exists starts from the first term', { m1: { cpu: 1 }, m2: { cpu: 1 }, m3: { cpu: 1 } }, 'gone', scheduled(['m1:1'], [], 'primary')],
  ])('%s', (_, spec, observedAffinity, expected) => {
    const { clusters, running } = fleet(spec);
    const pending = binding('pending', { priority: 10, placement: groups, ...(observedAffinity ? { observedAffinity } : {}) });
    expect(outcome(schedule(clusters, running, pending))).toEqual(expected);
  });

  it('preemption skips a term where it cannot help', () => {
    const clusters = [cluster('m1', { allocatable: { cpu: '1' } }), cluster('m2', { allocatable: { cpu: '1' } }), cluster('m3', { allocatable: { cpu: '1' } })];
    const running = [
      binding('guard', { priority: 50, clusters: { m1: 1 } }),
      binding('low', { priority: 0, clusters: { m2: 1 } }),
      binding('low-3', { priority: 0, clusters: { m3: 1 } }),
    ];
    expect(outcome(schedule(clusters, running, binding('pending', { priority: 10, placement: groups })))).toEqual(scheduled(['m2:1'], ['low'], 'secondary'));
  });

  it('a single clusterAffinity is one unnamed term', () => {
    expect(affinityTerms(placementSchema.parse(onClusters('m1')), 'anything')).toEqual([{ name: undefined, affinity: { clusterNames: ['m1'] } }]);
    expect(affinityTerms(undefined, undefined)).toEqual([{ name: undefined, affinity: undefined }]);
    const { clusters } = fleet({ m1: { cpu: 1 } });
    expect(outcome(schedule(clusters, [], binding('pending', { placement: onClusters('m1') })))).toEqual(scheduled(['m1:1']));
  });

  it('affinityTerms drops the terms before the observed one', () => {
    expect(affinityTerms(groups, 'secondary').map((term) => term.name)).toEqual(['secondary', 'backup']);
    expect(affinityTerms(groups, undefined).map((term) => term.name)).toEqual(['primary', 'secondary', 'backup']);
    expect(affinityTerms(groups, 'backup')[0]?.affinity).toEqual({ clusterNames: ['m3'] });
  });
});

describe('replica division (issue 2 rule 5)', () => {
  it.each<[string, Record<string, { cpu: number; full?: boolean }>, Record<string, unknown>, number, object]>([
    ['Duplicated puts all replicas on every selected cluster', { m1: { cpu: 4 }, m2: { cpu: 2 } }, { replicaSchedulingType: 'Duplicated' }, 2, scheduled(['m1:2', 'm2:2'])],
    ['a replicaScheduling without type is Divided (Karmada\'s default)', { m1: { cpu: 4 }, m2: { cpu: 2 } }, {}, 2, scheduled(['m1:1', 'm2:1'])],
    ['Duplicated needs room on every cluster', { m1: { cpu: 4 }, m2: { cpu: 1 } }, { replicaSchedulingType: 'Duplicated' }, 2, unschedulable],
    ['Divided by static weights (Webster)', { m1: { cpu: 10 }, m2: { cpu: 10 } }, divided({ replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }, { targetCluster: { clusterNames: ['m2'] }, weight: 1 }] } }), 6, scheduled(['m1:4', 'm2:2'])],
    ['static shares are not shifted to a cluster with room', { m1: { cpu: 3 }, m2: { cpu: 10 } }, divided({ weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }, { targetCluster: { clusterNames: ['m2'] }, weight: 1 }] } }), 6, unschedulable],
    ['Divided by available replicas', { m1: { cpu: 6 }, m2: { cpu: 3 } }, divided({ weightPreference: { dynamicWeight: 'AvailableReplicas' } }), 6, scheduled(['m1:4', 'm2:2'])],
    ['Divided by available replicas beyond the total room', { m1: { cpu: 6 }, m2: { cpu: 3 } }, divided({ weightPreference: { dynamicWeight: 'AvailableReplicas' } }), 10, unschedulable],
    ['Aggregated onto the fewest clusters', { m1: { cpu: 3 }, m2: { cpu: 10 } }, divided({ replicaDivisionPreference: 'Aggregated' }), 5, scheduled(['m2:5'])],
  ])('%s', (_, spec, replicaScheduling, replicas, expected) => {
    const { clusters, running } = fleet(spec);
    const pending = binding('pending', { replicas, placement: { replicaScheduling } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(expected);
  });

  it('no replicaScheduling at all is Duplicated', () => {
    const { clusters } = fleet({ m1: { cpu: 4 }, m2: { cpu: 2 } });
    expect(outcome(schedule(clusters, [], binding('pending', { replicas: 2 })))).toEqual(scheduled(['m1:2', 'm2:2']));
  });

  it(`Duplicated preempts on the cluster that lacks room (${SPEC.preemption})`, () => {
    const { clusters, running } = fleet({ m1: { cpu: 2 }, m2: { cpu: 2, full: true } });
    const pending = binding('pending', { priority: 10, replicas: 2 });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m1:2', 'm2:2'], ['filler-m2']));
  });

  it(`static weights preempt where a share does not fit (${SPEC.preemption})`, () => {
    const { clusters, running } = fleet({ m1: { cpu: 2, full: true }, m2: { cpu: 1 } });
    const weighted = divided({ weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }, { targetCluster: { clusterNames: ['m2'] }, weight: 1 }] } });
    const pending = binding('pending', { priority: 10, replicas: 3, placement: { replicaScheduling: weighted } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m1:2', 'm2:1'], ['filler-m1']));
  });

  it(`Divided preemption closes the gap summed over the clusters (${SPEC.preemption}, flowchart)`, () => {
    // 3 replicas of 1 core: 1 free on m1, 1 free on m2; evicting one 1-core binding closes the gap of 1.
    const clusters = [cluster('m1', { allocatable: { cpu: '2' } }), cluster('m2', { allocatable: { cpu: '3' } })];
    const running = [
      binding('a', { priority: 1, request: { cpu: '1' }, clusters: { m1: 1 } }),
      binding('b', { priority: 2, request: { cpu: '2' }, clusters: { m2: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, replicas: 3, placement: { replicaScheduling: divided({ weightPreference: { dynamicWeight: 'AvailableReplicas' } }) } });
    expect(outcome(schedule(clusters, running, pending))).toEqual(scheduled(['m1:2', 'm2:1'], ['a']));
  });
});

describe('filters and reasons (issue 2 rule 5; Karmada reasons NoClusterFit and Unschedulable)', () => {
  it.each<[string, Cluster[], Record<string, unknown> | undefined, object]>([
    ['a tainted cluster is skipped', [cluster('m1', { allocatable: { cpu: '4' }, taints: [{ key: 'gpu', effect: 'NoSchedule' }] }), cluster('m2', { allocatable: { cpu: '4' } })], undefined, scheduled(['m2:1'])],
    ['a tolerated taint is not', [cluster('m1', { allocatable: { cpu: '4' }, taints: [{ key: 'gpu', effect: 'NoExecute' }] })], { clusterTolerations: [{ key: 'gpu', operator: 'Exists' }] }, scheduled(['m1:1'])],
    ['a cluster that is not ready is skipped', [cluster('m1', { allocatable: { cpu: '4' }, ready: 'False' }), cluster('m2', { allocatable: { cpu: '4' }, ready: 'True' })], undefined, scheduled(['m2:1'])],
    ['a labelSelector selects', [cluster('m1', { allocatable: { cpu: '4' }, labels: { region: 'us' } }), cluster('m2', { allocatable: { cpu: '4' }, labels: { region: 'eu' } })], { clusterAffinity: { labelSelector: { matchLabels: { region: 'eu' } } } }, scheduled(['m2:1'])],
    ['exclude removes a cluster', [cluster('m1', { allocatable: { cpu: '4' } }), cluster('m2', { allocatable: { cpu: '4' } })], { clusterAffinity: { exclude: ['m1'] } }, scheduled(['m2:1'])],
    ['no cluster passes the filters: NoClusterFit', [cluster('m1', { allocatable: { cpu: '4' }, ready: 'False' })], undefined, noClusterFit],
    ['no cluster anywhere: NoClusterFit', [], undefined, noClusterFit],
    ['clusters pass but lack room: Unschedulable', [cluster('m1', { allocatable: { cpu: '0' } })], undefined, unschedulable],
    ['no cluster in one term, no room in the other: Unschedulable', [cluster('m1', { allocatable: { cpu: '0' } })], { clusterAffinities: [{ affinityName: 'a', clusterNames: ['m9'] }, { affinityName: 'b', clusterNames: ['m1'] }] }, unschedulable],
    ['no cluster in any term: NoClusterFit', [cluster('m1', { allocatable: { cpu: '4' } })], { clusterAffinities: [{ affinityName: 'a', clusterNames: ['m8'] }, { affinityName: 'b', clusterNames: ['m9'] }] }, noClusterFit],
  ])('%s', (_, clusters, placement, expected) => {
    expect(outcome(schedule(clusters, [], binding('pending', { priority: 10, ...(placement ? { placement } : {}) })))).toEqual(expected);
  });

  it('explains the failure per term', () => {
    const clusters = [cluster('m1', { allocatable: { cpu: '4' }, ready: 'False' }), cluster('m2', { allocatable: { cpu: '4' }, taints: [{ key: 'x', effect: 'NoSchedule' }] })];
    const pending = binding('pending', { placement: { clusterAffinities: [{ affinityName: 'a', clusterNames: ['m1'] }, { affinityName: 'b' }] } });
    const decision = schedule(clusters, [], pending);
    expect(decision).toEqual({
      result: 'unschedulable',
      reason: 'NoClusterFit',
      message:
        'affinity term "a": 0/2 clusters are available: 1 did not match the placement cluster affinity, 1 were not ready; ' +
        'affinity term "b": 0/2 clusters are available: 1 were not ready, 1 had untolerated taints',
    });
  });

  it('a binding being rescheduled counts its own room as free', () => {
    const placed = binding('pending', { replicas: 2, request: { cpu: '1' }, clusters: { m1: 2 } });
    expect(outcome(schedule([cluster('m1', { allocatable: { cpu: '2' } })], [], placed))).toEqual(scheduled(['m1:2']));
  });
});
