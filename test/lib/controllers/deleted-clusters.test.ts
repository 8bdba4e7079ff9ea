/**
 * A deleted cluster takes its placements with it: the bindings placed there wait (Scheduled False,
 * ClusterDeleted) and fail over when room appears, the cluster's allocation goes, and a cluster created
 * again under the same name starts empty. Keeping a placement is checked against the cluster as it is now.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { checkInvariants } from '../../../lib/check/invariants';
import type { Cluster } from '../../../lib/api/cluster';
import type { KubeEvent } from '../../../lib/api/event';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  AGGREGATED,
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventsWithReason,
  expectAllocationsMatchBindings,
  newSystem,
  placementOfDeployment,
  podPriorityPolicy,
  refs,
  SPEC,
} from './support';

const DUPLICATED_ON_ALL = { placement: {} };

async function allocationNames(system: MemorySystem): Promise<string[]> {
  return (await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation')).map((a) => a.metadata.name);
}

async function invariants(system: MemorySystem) {
  return checkInvariants({
    clusters: await system.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
    bindings: await listBindings(system.context),
    allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
    events: (await system.events.list()) as KubeEvent[],
  });
}

async function fleet(policy: Record<string, unknown>, ...clusters: ReturnType<typeof cluster>[]): Promise<MemorySystem> {
  const system = newSystem();
  await applyAll(system, [...clusters, podPriorityPolicy('by-pod-priority', policy)]);
  return system;
}

describe(`a deleted cluster takes its placements with it (${SPEC.priority}: queue, failover; ${SPEC.affinity})`, () => {
  it('with no room elsewhere: the binding is no longer placed, waits with reason ClusterDeleted, and the allocation goes', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 1 });

    await system.objects.delete(refs.cluster('a'));
    await system.runUntilIdle();

    const binding = await bindingOf(system, 'web');
    expect(binding.spec.clusters).toBeUndefined();
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'False', reason: 'ClusterDeleted' });
    expect((await eventsWithReason(system, 'ClusterDeleted')).map((event) => event.message)).toEqual([
      'no longer placed on a (1): the cluster was deleted since the binding was placed there',
    ]);
    expect(await allocationNames(system)).toEqual([]);
    expect((await invariants(system)).violations).toEqual([]);
    expect(system.handlerErrors).toEqual([]);
  });

  it('with room elsewhere: the binding moves there', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }), cluster('b', { cpu: '2' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    await system.objects.apply(cluster('b', { cpu: '4' }));
    await system.objects.delete(refs.cluster('a'));
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ b: 1 });
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    expect(await allocationNames(system)).toEqual(['b']);
    await expectAllocationsMatchBindings(system);
  });

  it('a Divided binding keeps its replicas on the clusters that exist, and waits for the ones it lost', async () => {
    const system = await fleet(
      { placement: { replicaScheduling: { replicaSchedulingType: 'Divided', weightPreference: { dynamicWeight: 'AvailableReplicas' } } } },
      cluster('a', { cpu: '2' }),
      cluster('b', { cpu: '2' }),
    );
    await applyAll(system, [deployment('web', { replicas: 4, requests: { cpu: '1' } })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 2, b: 2 });

    await system.objects.delete(refs.cluster('a'));
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'web');
    expect(await placementOfDeployment(system, 'web')).toEqual({ b: 2 });
    // Two of its four replicas are placed: it is not scheduled, whatever the clusters it is on.
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'False', reason: 'ClusterDeleted' });
    await expectAllocationsMatchBindings(system);

    // Room appears: the two replicas it lost are placed there, the two on b kept where they run
    // (Karmada's Steady mode, assignment.go: replicas of a cluster no longer a candidate are added anew).
    await applyAll(system, [cluster('c', { cpu: '4' })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ b: 2, c: 2 });
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'True' });
    await expectAllocationsMatchBindings(system);
  });

  it('a cluster created again starts empty, and a smaller one is never over-committed by what the old one held', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    await system.objects.delete(refs.cluster('a'));
    await system.runUntilIdle();

    await applyAll(system, [cluster('a', { cpu: '2' })]);
    const binding = await bindingOf(system, 'web');
    expect(binding.spec.clusters).toBeUndefined();
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'False', reason: 'ClusterDeleted' });
    expect(await allocationNames(system)).toEqual([]);
    expect((await invariants(system)).violations).toEqual([]);

    // Large enough again: the waiting binding is woken and placed.
    await applyAll(system, [cluster('a', { cpu: '4' })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 1 });
    await expectAllocationsMatchBindings(system);
  });

  it('deleted and created again smaller before anything looked: the placements on the old cluster are released, none is kept on the new one', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    system.clock.advance(1_000);
    await system.objects.delete(refs.cluster('a'));
    await system.objects.apply(cluster('a', { cpu: '2' }));
    await system.runUntilIdle();

    const binding = await bindingOf(system, 'web');
    expect(binding.spec.clusters).toBeUndefined();
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'False', reason: 'ClusterDeleted' });
    expect(await allocationNames(system)).toEqual([]);
    expect((await invariants(system)).violations).toEqual([]);
  });

  it('deleted and created again as large before anything looked: the binding is placed on the new cluster afresh', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    system.clock.advance(1_000);
    await system.objects.delete(refs.cluster('a'));
    await system.objects.apply(cluster('a', { cpu: '4' }));
    await system.runUntilIdle();
    const binding = await bindingOf(system, 'web');
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 1 });
    expect(Date.parse(binding.status!.lastScheduledTime!)).toBeGreaterThanOrEqual(Date.parse((await system.store.get<Cluster>(refs.cluster('a')))!.metadata.creationTimestamp!));
    await expectAllocationsMatchBindings(system);
    expect((await invariants(system)).violations).toEqual([]);
  });

  it(`a Duplicated binding on a deleted cluster and a ready one keeps the ready one while it waits (${SPEC.affinity})`, async () => {
    const system = await fleet(DUPLICATED_ON_ALL, cluster('a', { cpu: '4' }), cluster('b', { cpu: '4' }));
    await applyAll(system, [deployment('web', { replicas: 2, requests: { cpu: '1' } })]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 2, b: 2 });
    await system.objects.delete(refs.cluster('a'));
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ b: 2 });
    await expectAllocationsMatchBindings(system);
    expect((await invariants(system)).violations).toEqual([]);
  });
});

describe(`keeping a placement is a decision checked against the cluster as it is now (${SPEC.priority}: never over-commit)`, () => {
  it('a binding whose cluster went not ready and came back smaller than it needs is not declared Scheduled there', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    await system.objects.patch(refs.cluster('a'), { status: { conditions: [{ type: 'Ready', status: 'False' }] } });
    await system.runUntilIdle();
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False' });
    await system.objects.patch(refs.cluster('a'), { status: { conditions: [{ type: 'Ready', status: 'True' }], resourceSummary: { allocatable: { cpu: '2' } } } });
    await system.runUntilIdle();
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False' });
  });

  it('one that came back as large is kept where it is', async () => {
    const system = await fleet(AGGREGATED, cluster('a', { cpu: '4' }));
    await applyAll(system, [deployment('web', { requests: { cpu: '3' } })]);
    await system.objects.patch(refs.cluster('a'), { status: { conditions: [{ type: 'Ready', status: 'False' }] } });
    await system.runUntilIdle();
    await system.objects.patch(refs.cluster('a'), { status: { conditions: [{ type: 'Ready', status: 'True' }] } });
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ a: 1 });
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
  });
});
