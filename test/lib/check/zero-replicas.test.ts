import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { checkInvariants } from '../../../lib/check/invariants';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { isScheduledOntoNoCluster, schedulingNeed } from '../../../lib/controllers/scheduling-need';
import { ALL_DEPLOYMENTS, applyAll, bindingOf, cluster, conditionOf, deployment, newSystem, propagationPolicy, SPEC } from '../controllers/support';
import { outrankCheck } from './support';

const onBoth = { clusterAffinity: { clusterNames: ['m1', 'm2'] } };
const staticWeights = {
  replicaSchedulingType: 'Divided',
  replicaDivisionPreference: 'Weighted',
  weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 1 }, { targetCluster: { clusterNames: ['m2'] }, weight: 2 }] },
};

/**
 * A workload of 0 replicas that requests resources, as Karmada's scheduler assigns it: each Divided
 * division gives every cluster 0 (pkg/scheduler/core/assignment_test.go, "insufficient replica assignment
 * should get 0 replica") and the clusters given none are dropped (pkg/scheduler/core/common.go,
 * assignReplicasToClusters, removeZeroReplicasCluster), so it is scheduled onto no cluster. Duplicated
 * lists every cluster with 0.
 */
describe(`${SPEC.priority}: a binding of 0 replicas, as the scheduler places it and as \`outrank check\` judges it`, () => {
  it.each([
    ['Divided, Aggregated', { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }, []],
    ['Divided, dynamic weights (available replicas)', { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } }, []],
    ['Divided, static weights', staticWeights, []],
    ['Divided, weighted equally (no preference)', { replicaSchedulingType: 'Divided' }, []],
    [
      'Duplicated',
      { replicaSchedulingType: 'Duplicated' },
      [
        { name: 'm1', replicas: 0 },
        { name: 'm2', replicas: 0 },
      ],
    ],
  ])('%s: scheduled, placed as the rule says, left alone, and the check agrees', async (_, replicaScheduling, clusters) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      cluster('m2', { cpu: '4' }),
      propagationPolicy('p', { resourceSelectors: ALL_DEPLOYMENTS, placement: { ...onBoth, replicaScheduling } }),
      deployment('idle', { replicas: 0 }),
    ]);

    const binding = await bindingOf(system, 'idle');
    expect(binding.spec.clusters ?? []).toEqual(clusters);
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    expect(isScheduledOntoNoCluster(binding)).toBe(clusters.length === 0);
    const clusterObjects = await system.store.list<Cluster>('cluster.karmada.io', 'Cluster');
    expect(schedulingNeed(binding, (name) => clusterObjects.find((c) => c.metadata.name === name), Date.now(), system.context.config.schedulerNames)).toEqual({ needed: false, reason: 'PlacementCurrent' });

    const report = checkInvariants({
      clusters: clusterObjects,
      bindings: await listBindings(system.context),
      allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
      events: await system.events.list(),
    });
    expect(report.violations).toEqual([]);
    expect(report.summary).toMatchObject({ bindings: 1, placed: 1, pending: 0 });
    expect(await outrankCheck(system)).toEqual([]);

    // And when it is given replicas, it is placed as any other.
    await applyAll(system, [deployment('idle', { replicas: 2 })]);
    const grown = await bindingOf(system, 'idle');
    expect(grown.spec.clusters?.reduce((sum, target) => sum + target.replicas, 0)).toBe(clusters.length === 0 ? 2 : 4);
    expect(await outrankCheck(system)).toEqual([]);

    // And scaled back to 0, it is placed as first.
    await applyAll(system, [deployment('idle', { replicas: 0 })]);
    expect((await bindingOf(system, 'idle')).spec.clusters ?? []).toEqual(clusters);
    expect(await outrankCheck(system)).toEqual([]);
  });

  it('a binding not placed that has replicas to place is still reported, Scheduled True or not', () => {
    const base: ResourceBinding = {
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'odd-deployment', namespace: 'default', generation: 1 },
      spec: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'odd' },
        replicas: 2,
        placement: { replicaScheduling: { replicaSchedulingType: 'Divided' } },
      },
      status: { schedulerObservedGeneration: 1, conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success' }] },
    };
    const report = checkInvariants({ clusters: [], bindings: [base], allocations: [], events: [] });
    expect(report.violations).toEqual([
      { rule: 'binding-placed-or-pending-with-reason', object: 'ResourceBinding default/odd-deployment', message: 'not placed, but Scheduled is True' },
    ]);
  });
});
