/**
 * A plain binding — of a template without replicas: a Service, ConfigMap, Role, custom resource — is
 * placed as Karmada's scheduler places a non-workload's: on every cluster the filters and the spread
 * selection keep, whatever the replica scheduling, with no replicas and needing no room
 * (pkg/scheduler/core/common.go, AssignReplicas: "For non-workloads … propagate to all candidate
 * clusters"). It never preempts, is never a victim, and stays out of the snapshot's priority order.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { hasNothingToPlace, isPlainBinding } from '../../../lib/scheduler/replica-strategy';
import { scheduleBinding, type ScheduleDecision } from '../../../lib/scheduler/schedule-binding';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { bindingsToWake } from '../../../lib/scheduler/wake-up';
import { binding, cluster, divided, onClusters, type BindingOptions } from './support';

const ON = { preemption: true, victimSearchBudget: 20_000 };

/** A binding as the claims make one for a template without replicas: no spec.replicas, no request. */
function plain(name: string, options: Omit<BindingOptions, 'replicas' | 'request'> = {}): ResourceBinding {
  const made = binding(name, { ...options, request: {} });
  const { replicas: _none, ...spec } = made.spec;
  return { ...made, spec: { ...spec, resource: { ...spec.resource, apiVersion: 'v1', kind: 'ConfigMap' } } };
}

function targets(decision: ScheduleDecision): string[] | string {
  return decision.result === 'scheduled' ? decision.targets.map((t) => `${t.name}:${t.replicas}`) : decision.reason;
}

function schedule(clusters: Cluster[], pending: ResourceBinding, running: ResourceBinding[] = []): ScheduleDecision {
  return scheduleBinding(pending, new SchedulingSnapshot(clusters, [...running, pending]), ON);
}

const three = () => [cluster('m1', { allocatable: { cpu: 4 } }), cluster('m2', { allocatable: { cpu: 4 } }), cluster('m3', { allocatable: { cpu: 4 } })];

describe('a plain binding is placed on every selected cluster, with no replicas', () => {
  it('common_test.go, TestAssignReplicas, "Non-workload scenario (zero replicas)": both clusters, no replicas', () => {
    const decision = schedule([cluster('member1', { allocatable: { cpu: 1 } }), cluster('member2', { allocatable: { cpu: 1 } })], plain('config'));
    expect(targets(decision)).toEqual(['member1:0', 'member2:0']);
  });

  it.each([
    ['Duplicated', { replicaScheduling: { replicaSchedulingType: 'Duplicated' } }],
    ['Divided by static weights', { replicaScheduling: divided({ replicaDivisionPreference: 'Weighted', weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 1 }] } }) }],
    ['Divided by available replicas', { replicaScheduling: divided({ replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } }) }],
    ['Aggregated', { replicaScheduling: divided({ replicaDivisionPreference: 'Aggregated' }) }],
  ])('whatever the replica scheduling: %s', (_, placement) => {
    expect(targets(schedule(three(), plain('config', { placement })))).toEqual(['m1:0', 'm2:0', 'm3:0']);
  });

  it('needs no room: a full cluster and one that reports no pods take it too', () => {
    const clusters = [cluster('full', { allocatable: { cpu: 1 } }), cluster('no-pods', { allocatable: { cpu: 8 }, reportsPods: false }), cluster('bare')];
    const filling = binding('filling', { clusters: { full: 1 } });
    expect(targets(schedule(clusters, plain('config'), [filling]))).toEqual(['bare:0', 'full:0', 'no-pods:0']);
  });

  it('keeps to the clusters the affinity admits and the taints let in', () => {
    const clusters = [...three(), cluster('tainted', { allocatable: { cpu: 4 }, taints: [{ key: 'gpu', effect: 'NoSchedule' }] })];
    expect(targets(schedule(clusters, plain('config', { placement: onClusters('m1', 'm3', 'tainted') })))).toEqual(['m1:0', 'm3:0']);
  });

  it('is NoClusterFit when no cluster passes the filters, and preempts nothing', () => {
    const decision = schedule(three(), plain('config', { placement: onClusters('elsewhere'), priority: 1_000 }));
    expect(decision).toMatchObject({ result: 'unschedulable', reason: 'NoClusterFit' });
  });

  it('is placed on the clusters a spread constraint selects, as many as maxGroups', () => {
    const placement = { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 1, maxGroups: 2 }] };
    expect(targets(schedule(three(), plain('config', { placement })))).toEqual(['m1:0', 'm2:0']);
  });

  it('is never a victim: a preemptor finds no room in it, and preempts the workload beside it', () => {
    const clusters = [cluster('m1', { allocatable: { cpu: 1 } })];
    const running = [plain('config', { clusters: { m1: 0 } }), binding('low', { clusters: { m1: 1 } })];
    const decision = schedule(clusters, binding('urgent', { priority: 100 }), running);
    expect(decision.result === 'scheduled' && decision.victims.map((victim) => victim.binding.metadata.name)).toEqual(['low']);
  });
});

describe('plain bindings in the scheduling snapshot', () => {
  it('stay out of the priority order: adding, changing or removing one keeps the order built', () => {
    const snapshot = new SchedulingSnapshot(three(), [binding('web', { clusters: { m1: 1 } })]);
    const order = snapshot.priorityOrder();
    snapshot.upsert(plain('config'));
    snapshot.upsert(plain('config', { clusters: { m1: 0, m2: 0 } }));
    expect(snapshot.priorityOrder()).toBe(order);
    expect(order.states.map((state) => state.binding.metadata.name)).toEqual(['web']);
    expect(snapshot.bindings.size).toBe(2);
    expect(snapshot.clusters.get('m1')!.residents.size).toBe(1);
    snapshot.remove([...snapshot.bindings.keys()].find((key) => key.endsWith('/config'))!);
    expect(snapshot.priorityOrder()).toBe(order);
  });

  it('is never a binding with nothing to place: it is placed on every selected cluster', () => {
    expect(isPlainBinding(plain('config'))).toBe(true);
    expect(isPlainBinding(binding('web', { replicas: 0, request: {} }))).toBe(false);
    expect(hasNothingToPlace(plain('config', { placement: { replicaScheduling: divided() } }))).toBe(false);
  });

  it('is woken by a cluster that admits it, room or not', () => {
    const waiting = plain('config', { placement: onClusters('m1') });
    const woken = bindingsToWake([waiting], [{ cluster: cluster('m1', { allocatable: { cpu: 1 }, reportsPods: false }), room: {} }], 0);
    expect(woken.map(({ binding: b, clusters }) => [b.metadata.name, clusters])).toEqual([['config', ['m1']]]);
  });
});
