/**
 * Everyday cluster events, as Karmada handles them, through the real controllers (MemorySystem).
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { NO_PODS_ALLOCATABLE } from '../../../lib/controllers/missing-pods';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  applyAll,
  bindingOf,
  cluster,
  clusterPropagationPolicy,
  conditionOf,
  deployment,
  eventsWithReason,
  expectAllocationsMatchBindings,
  newSystem,
  placementOf,
  placementOfDeployment,
  propagationPolicy,
  refs,
  SPEC,
  type Manifest,
} from './support';

function needsCounted(system: MemorySystem, controller: string, reason: string): number {
  return system.metrics.counter('SchedulingNeeds', { controller, reason });
}

const WEB_POLICY = propagationPolicy('web', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] });

describe('a cluster whose resource summary names no pods has room for none (Karmada pkg/estimator/client/general.go, getAllowedPodNumber)', () => {
  it('no replica is placed there, and the cluster gets one Warning naming the missing entry', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '8' }, { reportsPods: false }), WEB_POLICY, deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({});
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    const warnings = await eventsWithReason(system, NO_PODS_ALLOCATABLE);
    expect(warnings.map((event) => [event.type, event.involvedObject.kind, event.involvedObject.name])).toEqual([['Warning', 'Cluster', 'm1']]);
    expect(warnings[0]!.message).toContain('status.resourceSummary.allocatable has no "pods" entry');

    // Another status update still without the entry: no second Warning.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { cpu: '9' } } } });
    await system.runUntilIdle();
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toHaveLength(1);

    // The entry reported: the waiting binding is woken and placed.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { pods: '110' } } } });
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ m1: 1 });

    // Losing it again warns again.
    await system.objects.patch(refs.cluster('m1'), { status: { resourceSummary: { allocatable: { pods: null } } } });
    await system.runUntilIdle();
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toHaveLength(2);
  });

  it('a cluster that reports no resource summary yet gets no Warning (it has no room either)', async () => {
    const system = newSystem();
    await applyAll(system, [{ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' } }, WEB_POLICY, deployment('web')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({});
    expect(await eventsWithReason(system, NO_PODS_ALLOCATABLE)).toEqual([]);
  });
});

const LABEL = 'location';

function byLabelPolicy(kind: 'PropagationPolicy' | 'ClusterPropagationPolicy', placement: Manifest = {}): Manifest {
  const spec = { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], placement: { clusterAffinity: { labelSelector: { matchLabels: { [LABEL]: 'ok' } } }, ...placement } };
  return kind === 'PropagationPolicy' ? propagationPolicy('web', spec) : clusterPropagationPolicy('web', spec);
}

async function label(system: MemorySystem, name: string, labels: Record<string, string | null>): Promise<void> {
  await system.objects.patch(refs.cluster(name), { metadata: { labels } });
  await system.runUntilIdle();
}

describe('a cluster whose labels change is left by the bindings its affinity no longer admits (Karmada event_handler.go updateCluster; e2e rescheduling_test.go)', () => {
  it.each(['PropagationPolicy', 'ClusterPropagationPolicy'] as const)(
    '"change labels to testing deployment reschedule(%s)": not_ok → gone from the cluster; ok again → back',
    async (kind) => {
      const system = newSystem();
      await applyAll(system, [cluster('member1', { cpu: '4' }, { labels: { [LABEL]: 'ok' } }), cluster('member2', { cpu: '4' }), byLabelPolicy(kind), deployment('web')]);
      expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 1 });

      await label(system, 'member1', { [LABEL]: 'not_ok' });
      const left = await bindingOf(system, 'web');
      expect(placementOf(left)).toEqual({});
      expect(conditionOf(left, 'Scheduled')).toMatchObject({ status: 'False', reason: 'NoClusterFit' });
      expect(conditionOf(left, 'Scheduled')?.message).toContain('no longer placed on member1 (1): the cluster affinity it was placed by no longer admits the cluster');
      await expectAllocationsMatchBindings(system);

      await label(system, 'member1', { [LABEL]: 'ok' });
      expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 1 });
      expect(system.handlerErrors).toEqual([]);
    },
  );

  it('with room on another cluster the label now matches, the binding moves there', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }, { labels: { [LABEL]: 'ok' } }), cluster('member2', { cpu: '4' }), byLabelPolicy('PropagationPolicy'), deployment('web')]);
    await label(system, 'member2', { [LABEL]: 'ok' });
    // A Duplicated binding placed and admitted where it is stays put (outrank does not spread it on a cluster change).
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 1 });
    await label(system, 'member1', { [LABEL]: null });
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 1 });
    await expectAllocationsMatchBindings(system);
  });

  it('a Divided binding keeps its replicas on the clusters still admitted and moves the others there', async () => {
    const system = newSystem();
    const divided = { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } };
    await applyAll(system, [
      cluster('member1', { cpu: '8' }, { labels: { [LABEL]: 'ok' } }),
      cluster('member2', { cpu: '8' }, { labels: { [LABEL]: 'ok' } }),
      byLabelPolicy('PropagationPolicy', divided),
      deployment('web', { replicas: 4 }),
    ]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 2, member2: 2 });
    await label(system, 'member1', { [LABEL]: 'not_ok' });
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 4 });
    await expectAllocationsMatchBindings(system);
  });

  it('a Divided binding that cannot move all its replicas gives up those on the refused cluster, keeps the rest, and waits for room', async () => {
    const system = newSystem();
    const divided = { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } };
    await applyAll(system, [
      cluster('member1', { cpu: '2' }, { labels: { [LABEL]: 'ok' } }),
      cluster('member2', { cpu: '2' }, { labels: { [LABEL]: 'ok' } }),
      byLabelPolicy('PropagationPolicy', divided),
      deployment('web', { replicas: 4 }),
    ]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 2, member2: 2 });
    await label(system, 'member1', { [LABEL]: 'not_ok' });
    const waiting = await bindingOf(system, 'web');
    expect(placementOf(waiting)).toEqual({ member2: 2 });
    expect(conditionOf(waiting, 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    await expectAllocationsMatchBindings(system);

    // Room where the affinity admits: member2 grows, and the binding is woken and placed in full.
    await system.objects.patch(refs.cluster('member2'), { status: { resourceSummary: { allocatable: { cpu: '4' } } } });
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 4 });
  });

  it('the reconcile finds a binding left on a refused cluster when the cluster change was never heard of', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }, { labels: { [LABEL]: 'ok' } }), cluster('member2', { cpu: '4' }, { labels: { [LABEL]: 'ok' } }), byLabelPolicy('PropagationPolicy', { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } }), deployment('web')]);
    const [placed] = Object.keys(await placementOfDeployment(system, 'web'));
    const current = (await system.store.get<Cluster>(refs.cluster(placed!)))!;
    const unlabelled: Cluster = { ...current, metadata: { ...current.metadata, labels: {} } };
    await system.store.transact([{ op: 'put', object: unlabelled, expectedVersion: current.metadata.resourceVersion ?? null }]);
    await system.policyChangeQueue.delete((await system.policyChangeQueue.receive(10)).map((delivery) => delivery.receipt));
    await system.advance(60_000);
    await system.runUntilIdle();
    const other = placed === 'member1' ? 'member2' : 'member1';
    expect(await placementOfDeployment(system, 'web')).toEqual({ [other]: 1 });
    expect(needsCounted(system, 'reconcile', 'ClusterRefused')).toBe(1);
  });
});

describe(`ordered cluster-affinity groups on a cluster label change (${SPEC.affinity}; e2e clusteraffinities_test.go)`, () => {
  const groups = (kind: 'PropagationPolicy' | 'ClusterPropagationPolicy'): Manifest => {
    const spec = {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      placement: {
        clusterAffinities: [
          { affinityName: 'group1', labelSelector: { matchLabels: { 'member1-key': 'ok' } } },
          { affinityName: 'group2', labelSelector: { matchLabels: { 'member2-key': 'ok' } } },
        ],
      },
    };
    return kind === 'PropagationPolicy' ? propagationPolicy('web', spec) : clusterPropagationPolicy('web', spec);
  };
  const fleet = [cluster('member1', { cpu: '4' }, { labels: { 'member1-key': 'ok' } }), cluster('member2', { cpu: '4' }, { labels: { 'member2-key': 'ok' } })];

  it.each(['PropagationPolicy', 'ClusterPropagationPolicy'] as const)(
    '"propagate deployment and then update the cluster label" (%s): group1 no longer admits member1, so group2 is used',
    async (kind) => {
      const system = newSystem();
      await applyAll(system, [...fleet, groups(kind), deployment('web')]);
      expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 1 });
      expect((await bindingOf(system, 'web')).status?.schedulerObservingAffinityName).toBe('group1');

      await label(system, 'member1', { 'member1-key': 'not-ok' });
      const moved = await bindingOf(system, 'web');
      expect(placementOf(moved)).toEqual({ member2: 1 });
      expect(moved.status?.schedulerObservingAffinityName).toBe('group2');
    },
  );

  it('"reschedule from the first cluster affinity", up to the rebalancer: member1 admitted by group1 again leaves the binding in group2, where rescheduling continues from', async () => {
    const system = newSystem();
    await applyAll(system, [...fleet, groups('PropagationPolicy'), deployment('web')]);
    await label(system, 'member1', { 'member1-key': 'not-ok' });
    await label(system, 'member1', { 'member1-key': 'ok' });
    await label(system, 'member2', { 'member2-sync': 'ok' });
    const binding = await bindingOf(system, 'web');
    expect(placementOf(binding)).toEqual({ member2: 1 });
    expect(binding.status?.schedulerObservingAffinityName).toBe('group2');
  });

  it('when no group admits anything, the binding leaves and waits; a group admitting a cluster again wakes it', async () => {
    const system = newSystem();
    await applyAll(system, [...fleet, groups('PropagationPolicy'), deployment('web')]);
    await label(system, 'member1', { 'member1-key': null });
    await label(system, 'member2', { 'member2-key': null });
    expect(await placementOfDeployment(system, 'web')).toEqual({});
    expect(conditionOf(await bindingOf(system, 'web'), 'Scheduled')).toMatchObject({ status: 'False', reason: 'NoClusterFit' });
    await label(system, 'member2', { 'member2-key': 'ok' });
    expect(await placementOfDeployment(system, 'web')).toEqual({ member2: 1 });
  });
});

async function taint(system: MemorySystem, name: string, taints: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  await system.objects.patch(refs.cluster(name), { spec: { taints } });
  await system.runUntilIdle();
}

/** Moves the virtual clock on and runs the reconcile, as its every-minute schedule would, then lets the work it queued run. */
async function wait(system: MemorySystem, ms: number): Promise<void> {
  await system.advance(ms);
  await system.runUntilIdle();
}

const ONE_REPLICA_SOMEWHERE = { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } };

function failoverPolicy(tolerations: ReadonlyArray<Record<string, unknown>>, clusterNames = ['member1', 'member2']): Manifest {
  return propagationPolicy('web', {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
    placement: { clusterAffinity: { clusterNames }, clusterTolerations: tolerations, ...ONE_REPLICA_SOMEWHERE },
  });
}

describe('taints as Karmada: NoSchedule filters new placements only (pkg/scheduler/framework/plugins/tainttoleration; e2e tainttoleration_test.go)', () => {
  it('"deployment with cluster tolerations testing": with every cluster tainted, only the tolerated one is used', async () => {
    const system = newSystem();
    const tainted = (name: string) => cluster(name, { cpu: '4' }, { taints: [{ key: 'cluster-toleration.karmada.io', value: name, effect: 'NoSchedule' }] });
    await applyAll(system, [
      tainted('member1'),
      tainted('member2'),
      propagationPolicy('web', {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
        placement: {
          clusterAffinity: { clusterNames: ['member1', 'member2'] },
          clusterTolerations: [{ key: 'cluster-toleration.karmada.io', operator: 'Equal', value: 'member1', effect: 'NoSchedule' }],
        },
      }),
      deployment('web'),
    ]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 1 });
  });

  it('a binding on a cluster that gains a NoSchedule taint stays and scales up there; a new binding is not placed there', async () => {
    const system = newSystem();
    const onMember1 = propagationPolicy('web', {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
      placement: { clusterAffinity: { clusterNames: ['member1'] }, ...ONE_REPLICA_SOMEWHERE },
    });
    await applyAll(system, [cluster('member1', { cpu: '8' }), onMember1, deployment('web', { replicas: 2 })]);
    await taint(system, 'member1', [{ key: 'maintenance', effect: 'NoSchedule' }]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 2 });

    await applyAll(system, [deployment('web', { replicas: 4 }), deployment('later')]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 4 });
    expect(await placementOfDeployment(system, 'later')).toEqual({});
    expect(conditionOf(await bindingOf(system, 'later'), 'Scheduled')?.message).toBe('0/1 clusters are available: 1 had untolerated taints');
  });
});

describe('NoExecute taints evict as Karmada\'s taint manager does, gracefully (pkg/controllers/cluster/taint_manager.go; e2e failover_test.go)', () => {
  it('"taint Cluster with NoExecute taint" (purgeMode gracefully): tolerated for 3 s, then moved to the other cluster, with EvictWorkloadFromClusterSucceed', async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('member1', { cpu: '4' }),
      cluster('member2', { cpu: '4' }),
      failoverPolicy([{ key: 'fail-test', effect: 'NoExecute', operator: 'Exists', tolerationSeconds: 3 }]),
      deployment('web'),
    ]);
    const [first] = Object.keys(await placementOfDeployment(system, 'web'));
    const other = first === 'member1' ? 'member2' : 'member1';
    await taint(system, first!, [{ key: 'fail-test', effect: 'NoExecute' }]);
    expect(await placementOfDeployment(system, 'web')).toEqual({ [first!]: 1 });

    await wait(system, 3_000);
    expect(await placementOfDeployment(system, 'web')).toEqual({ [other]: 1 });
    const binding = await bindingOf(system, 'web');
    expect(binding.spec.gracefulEvictionTasks).toBeUndefined();
    expect(conditionOf(binding, 'Scheduled')).toMatchObject({ status: 'True' });
    expect((await eventsWithReason(system, 'EvictWorkloadFromClusterSucceed')).map((event) => event.message)).toEqual([
      `Evict from cluster ${first} succeed: the toleration of the NoExecute taint fail-test:NoExecute ran out; placed elsewhere`,
    ]);
    await expectAllocationsMatchBindings(system);

    // "remove taint from the target clusters": nothing comes back.
    await taint(system, first!, []);
    expect(await placementOfDeployment(system, 'web')).toEqual({ [other]: 1 });
  });

  it('"deployment failover testing": the not-ready NoExecute taint, tolerated for 2 s, fails the binding over', async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('member1', { cpu: '4' }),
      cluster('member2', { cpu: '4' }),
      failoverPolicy([{ key: 'cluster.karmada.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 2 }]),
      deployment('web'),
    ]);
    const [first] = Object.keys(await placementOfDeployment(system, 'web'));
    await taint(system, first!, [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }]);
    await wait(system, 1_000);
    expect(Object.keys(await placementOfDeployment(system, 'web'))).toEqual([first]);
    await wait(system, 1_000);
    expect(Object.keys(await placementOfDeployment(system, 'web'))).not.toContain(first);
  });

  it('a taint it does not tolerate evicts at once, on the cluster change itself', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }), cluster('member2', { cpu: '4' }), failoverPolicy([]), deployment('web')]);
    const [first] = Object.keys(await placementOfDeployment(system, 'web'));
    await taint(system, first!, [{ key: 'cluster.karmada.io/not-ready', effect: 'NoExecute' }]);
    expect(Object.keys(await placementOfDeployment(system, 'web'))).not.toContain(first);
  });

  it('with nowhere else to go the binding keeps the cluster for the grace period, its eviction recorded; room elsewhere in time moves it', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }), failoverPolicy([]), deployment('web')]);
    const placedAt = system.clock.now();
    await taint(system, 'member1', [{ key: 'broken', effect: 'NoExecute' }]);
    const evicting = await bindingOf(system, 'web');
    expect(placementOf(evicting)).toEqual({ member1: 1 });
    expect(evicting.spec.gracefulEvictionTasks).toEqual([
      {
        fromCluster: 'member1',
        purgeMode: 'Gracefully',
        replicas: 1,
        reason: 'TaintUntolerated',
        message: 'the NoExecute taint broken:NoExecute is not tolerated',
        producer: 'TaintManager',
        gracePeriodSeconds: 600,
        creationTimestamp: new Date(placedAt).toISOString(),
      },
    ]);
    expect(conditionOf(evicting, 'Scheduled')).toMatchObject({ status: 'False', reason: 'NoClusterFit', message: '0/1 clusters are available: 1 had untolerated taints' });
    expect((await eventsWithReason(system, 'EvictWorkloadFromClusterSucceed')).map((event) => event.message)).toEqual([
      'Evict from cluster member1 succeed: the NoExecute taint broken:NoExecute is not tolerated; it keeps the cluster until it is placed elsewhere, for at most 600 s',
    ]);
    await expectAllocationsMatchBindings(system);

    await wait(system, 5 * 60_000);
    expect(placementOf(await bindingOf(system, 'web'))).toEqual({ member1: 1 });
    await applyAll(system, [cluster('member2', { cpu: '4' })]);
    const moved = await bindingOf(system, 'web');
    expect(placementOf(moved)).toEqual({ member2: 1 });
    expect(moved.spec.gracefulEvictionTasks).toBeUndefined();
    await expectAllocationsMatchBindings(system);
  });

  it('when the grace period ends without a replacement the cluster is given up, and the binding waits; the reconcile ends it within its minute', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }), failoverPolicy([]), deployment('web')]);
    await taint(system, 'member1', [{ key: 'broken', effect: 'NoExecute' }]);
    await wait(system, 9 * 60_000);
    expect(placementOf(await bindingOf(system, 'web'))).toEqual({ member1: 1 });
    await wait(system, 60_000);
    const left = await bindingOf(system, 'web');
    expect(placementOf(left)).toEqual({});
    expect(left.spec.gracefulEvictionTasks).toBeUndefined();
    expect(conditionOf(left, 'Scheduled')).toMatchObject({ status: 'False', reason: 'NoClusterFit' });
    expect(conditionOf(left, 'Scheduled')?.message).toContain('no longer placed on member1 (1): its graceful eviction from the cluster (a NoExecute taint it does not tolerate) ran out before it was placed elsewhere');
    await expectAllocationsMatchBindings(system);

    // The taint gone, the cluster takes the binding again.
    await taint(system, 'member1', []);
    expect(placementOf(await bindingOf(system, 'web'))).toEqual({ member1: 1 });
  });

  it('an eviction started is not undone by the taint going away (Karmada keeps the gracefulEvictionTask): the binding still leaves', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('member1', { cpu: '4' }), failoverPolicy([]), deployment('web')]);
    await taint(system, 'member1', [{ key: 'broken', effect: 'NoExecute' }]);
    await taint(system, 'member1', []);
    const evicting = await bindingOf(system, 'web');
    expect(placementOf(evicting)).toEqual({ member1: 1 });
    expect(evicting.spec.gracefulEvictionTasks?.map((task) => task.fromCluster)).toEqual(['member1']);
    await applyAll(system, [cluster('member2', { cpu: '4' })]);
    expect(placementOf(await bindingOf(system, 'web'))).toEqual({ member2: 1 });
  });

  it('a NoExecute taint written without timeAdded gets the time of the write (Karmada pkg/apis/cluster/mutation); writing the cluster again keeps it', async () => {
    const system = newSystem();
    const tainted = cluster('member1', { cpu: '4' }, { taints: [{ key: 'broken', effect: 'NoExecute' }, { key: 'soft', effect: 'NoSchedule' }] });
    await applyAll(system, [tainted]);
    const written = new Date(system.clock.now()).toISOString();
    const taintsOf = async () => (await system.store.get<Cluster>(refs.cluster('member1')))?.spec?.taints;
    expect(await taintsOf()).toEqual([{ key: 'broken', effect: 'NoExecute', timeAdded: written }, { key: 'soft', effect: 'NoSchedule' }]);
    system.clock.advance(60_000);
    await applyAll(system, [tainted]);
    expect(await taintsOf()).toEqual([{ key: 'broken', effect: 'NoExecute', timeAdded: written }, { key: 'soft', effect: 'NoSchedule' }]);
  });
});
