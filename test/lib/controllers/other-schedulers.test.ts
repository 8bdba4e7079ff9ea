/**
 * Two schedulers side by side, as Karmada lets several run against one control plane: outrank takes the
 * bindings whose spec.schedulerName is one of its names (default-scheduler by default) and leaves the
 * others to their scheduler — never queued, placed or preempted — while their placements, which that
 * scheduler writes through the API, occupy room as outrank's own do.
 */
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import { checkInvariants } from '../../../lib/check/invariants';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  eventsWithReason,
  expectAllocationsMatchBindings,
  newSystem,
  placementOf,
  priorityClass,
  propagationPolicy,
  queueDepths,
  refs,
  rejectionOf,
  SPEC,
  type Manifest,
} from './support';

const OTHER = 'my-custom-scheduler';
const DIVIDED = { replicaScheduling: { replicaSchedulingType: 'Divided', weightPreference: { dynamicWeight: 'AvailableReplicas' } } };

/** A policy for Deployment `name` alone, by name (so that a policy preempting it may take it). */
function policyFor(policyName: string, name: string, spec: Manifest = {}): Manifest {
  return propagationPolicy(policyName, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }], placement: DIVIDED, ...spec });
}

/** What another scheduler writes, as Karmada's scheduler does: spec.clusters by merge patch, then the Scheduled condition in the status. */
async function placeAsOther(system: MemorySystem, name: string, clusters: Record<string, number>): Promise<void> {
  await system.objects.patch(refs.binding(name), { spec: { clusters: Object.entries(clusters).map(([clusterName, replicas]) => ({ name: clusterName, replicas })) } });
  const placed = await bindingOf(system, name);
  await system.objects.patch(refs.binding(name), {
    status: { schedulerObservedGeneration: placed.metadata.generation, conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success', message: 'Binding has been scheduled' }] },
  });
  await system.runUntilIdle();
}

async function invariantsOf(system: MemorySystem) {
  return checkInvariants(
    {
      clusters: await system.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
      bindings: await listBindings(system.context),
      allocations: await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
      events: await system.events.list(),
    },
    system.context.config.schedulerNames,
  );
}

const bandsHeld = (system: MemorySystem) => Object.entries(queueDepths(system)).filter(([queue]) => queue.startsWith('band:')).reduce((sum, [, held]) => sum + held, 0);

describe("bindings of another scheduler (Karmada's schedulerNameFilter: a scheduler takes only the bindings of its name)", () => {
  it("a policy naming another scheduler: its binding carries the name, and outrank never queues, places or touches it, whatever happens", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '8' }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 2 })]);
    const written = await bindingOf(system, 'batch');
    expect(written.spec.schedulerName).toBe(OTHER);
    expect(written.spec.clusters).toBeUndefined();
    expect(written).not.toHaveProperty('status');
    expect(bandsHeld(system)).toBe(0);
    expect(system.metrics.counter('SchedulingNeeds', { controller: 'template-claims', reason: 'OtherScheduler' })).toBe(1);

    // The flush, a cluster that comes and grows, a binding request: nothing moves it.
    await system.advance(6 * 60_000);
    await applyAll(system, [cluster('m2', { cpu: '8' })]);
    await system.objects.patch(refs.binding('batch'), { spec: { rescheduleTriggeredAt: '2020-01-01T00:00:00Z' } });
    await system.runUntilIdle();
    const after = await bindingOf(system, 'batch');
    expect(after.spec.clusters).toBeUndefined();
    expect(after).not.toHaveProperty('status');
    expect(await eventsWithReason(system, 'ScheduleBindingSucceed')).toEqual([]);
    expect(await eventsWithReason(system, 'ScheduleBindingFailed')).toEqual([]);
  });

  it("a policy that names none, or the default scheduler, is outrank's: its binding says default-scheduler and is placed", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '8' }), policyFor('plain', 'web'), policyFor('named', 'api', { schedulerName: 'default-scheduler' }), deployment('web'), deployment('api')]);
    for (const name of ['web', 'api']) {
      const binding = await bindingOf(system, name);
      expect(binding.spec.schedulerName).toBe('default-scheduler');
      expect(placementOf(binding)).toEqual({ m1: 1 });
    }
  });

  it(`${SPEC.priority}: another scheduler's placement occupies its room; outrank's work waits rather than preempt it, however low its priority ("each scheduler preempts only the bindings it manages")`, async () => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4' }),
      priorityClass('urgent', 1_000),
      priorityClass('filler', 1, { preemptionPolicy: 'Never' }),
      policyFor('theirs', 'batch', { schedulerName: OTHER, schedulePriority: { priorityClassName: 'filler' } }),
      deployment('batch', { replicas: 3 }),
    ]);
    await placeAsOther(system, 'batch', { m1: 3 });
    expect((await bindingOf(system, 'batch')).spec.schedulePriority).toEqual({ priority: 1, preemptionPolicy: 'Never' });
    await expectAllocationsMatchBindings(system);

    await applyAll(system, [policyFor('ours', 'urgent', { schedulePriority: { priorityClassName: 'urgent' } }), deployment('urgent', { replicas: 2 })]);
    const urgent = await bindingOf(system, 'urgent');
    expect(urgent.spec.clusters).toBeUndefined();
    expect(conditionOf(urgent, 'Scheduled')).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(await eventsWithReason(system, 'Preempted')).toEqual([]);
    expect(placementOf(await bindingOf(system, 'batch'))).toEqual({ m1: 3 });
    expect((await invariantsOf(system)).violations).toEqual([]);

    // One replica of room is left: outrank places what fits there, beside the other scheduler's.
    await applyAll(system, [policyFor('small', 'small'), deployment('small')]);
    expect(placementOf(await bindingOf(system, 'small'))).toEqual({ m1: 1 });
    await expectAllocationsMatchBindings(system);
  });

  it("no placement over-commits a cluster, whoever makes it: another scheduler's beyond the room is refused (403, as a quota), on a cluster that does not exist 422, and nothing is written", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policyFor('ours', 'web'), deployment('web', { replicas: 2 }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 3 })]);
    const before = await bindingOf(system, 'batch');
    const tooMuch = await rejectionOf(() => system.objects.patch(refs.binding('batch'), { spec: { clusters: [{ name: 'm1', replicas: 3 }] } }));
    expect(tooMuch.name).toBe('NoRoomError');
    expect(tooMuch.message).toBe('exceeded room on cluster m1: requested: cpu=3,pods=3, placed: cpu=2,pods=2, capacity: cpu=4,pods=10000');
    const nowhere = await rejectionOf(() => system.objects.patch(refs.binding('batch'), { spec: { clusters: [{ name: 'm1', replicas: 1 }, { name: 'gone', replicas: 1 }] } }));
    expect(nowhere.message).toContain('spec.clusters[1].name: cluster "gone" does not exist');
    expect(await bindingOf(system, 'batch')).toEqual(before);
    await expectAllocationsMatchBindings(system);

    await placeAsOther(system, 'batch', { m1: 2 });
    expect((await invariantsOf(system)).violations).toEqual([]);
  });

  it(`${SPEC.priority}, queue: another scheduler moving its binding away frees its room, and outrank's waiting work is woken and placed at once`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 4 })]);
    await placeAsOther(system, 'batch', { m1: 4 });
    await applyAll(system, [policyFor('ours', 'web', { placement: { clusterAffinity: { clusterNames: ['m1'] }, ...DIVIDED } }), deployment('web', { replicas: 2 })]);
    expect((await bindingOf(system, 'web')).spec.clusters).toBeUndefined();

    await placeAsOther(system, 'batch', { m2: 4 });
    expect(placementOf(await bindingOf(system, 'web'))).toEqual({ m1: 2 });
    await expectAllocationsMatchBindings(system);
    expect((await invariantsOf(system)).violations).toEqual([]);
  });

  it(`${SPEC.priority}, queue: another scheduler's binding waiting for room (its own Scheduled False) is neither woken when room is freed nor flushed`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '2' }), policyFor('ours', 'web'), deployment('web', { replicas: 2 }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch')]);
    await system.objects.patch(refs.binding('batch'), { status: { conditions: [{ type: 'Scheduled', status: 'False', reason: 'Unschedulable', message: 'no room', lastTransitionTime: '2026-01-01T00:00:00Z' }] } });
    await system.runUntilIdle();
    const waiting = await bindingOf(system, 'batch');

    await system.objects.delete(refs.deployment('web'));
    await system.runUntilIdle();
    system.clock.advance(6 * 60_000);
    const report = await system.reconcile.run();
    expect(report).toMatchObject({ requeued: 0, flush: { considered: 0, placeable: 0 } });
    await system.runUntilIdle();
    expect(await bindingOf(system, 'batch')).toEqual(waiting);
    expect(system.metrics.counter('SchedulingNeeds', { controller: 'binding-enqueue', reason: 'OtherScheduler' })).toBe(1);
  });

  it("of another scheduler's binding, that scheduler may write the placement, the status and its applied-placement annotation; the rest stays outrank's", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch')]);
    await system.objects.patch(refs.binding('batch'), { metadata: { annotations: { 'policy.karmada.io/applied-placement': '{"clusterAffinity":{}}' } }, spec: { clusters: [{ name: 'm1', replicas: 1 }] } });
    const placed = await bindingOf(system, 'batch');
    expect(placementOf(placed)).toEqual({ m1: 1 });
    // kube-apiserver: a change of spec moves the generation, whoever makes it.
    expect(placed.metadata.generation).toBe(2);
    for (const patch of [{ spec: { replicas: 5 } }, { spec: { schedulerName: 'default-scheduler' } }, { metadata: { labels: { team: 'a' } } }]) {
      const refused = await rejectionOf(() => system.objects.patch(refs.binding('batch'), patch));
      expect(refused.message).toMatch(/only spec\.suspension, spec\.rescheduleTriggeredAt and, by its scheduler, spec\.clusters and the status may be changed/);
    }
  });

  it('an outrank configured with other scheduler names takes their bindings and leaves the default scheduler\'s', async () => {
    const system = newSystem({ schedulerNames: ['outrank'] });
    await applyAll(system, [cluster('m1', { cpu: '8' }), policyFor('plain', 'web'), policyFor('mine', 'api', { schedulerName: 'outrank' }), deployment('web'), deployment('api')]);
    expect((await bindingOf(system, 'web')).spec.clusters).toBeUndefined();
    expect(placementOf(await bindingOf(system, 'api'))).toEqual({ m1: 1 });
  });
});

describe('a binding handed from one scheduler to another (its template claimed by a policy of another scheduler)', () => {
  it(`${SPEC.policy}: from outrank to another: its placement stays as it was, now the other scheduler's to move; outrank neither moves nor preempts it`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), priorityClass('urgent', 1_000), policyFor('ours', 'batch'), deployment('batch', { replicas: 3 })]);
    const placed = await bindingOf(system, 'batch');
    expect(placementOf(placed)).toEqual({ m1: 3 });

    await applyAll(system, [policyFor('theirs', 'batch', { schedulerName: OTHER, priority: 10, preemption: 'Always' })]);
    const handed = await bindingOf(system, 'batch');
    expect(handed.spec.schedulerName).toBe(OTHER);
    expect(handed.spec.clusters).toEqual(placed.spec.clusters);
    expect(handed.metadata.generation).toBe((placed.metadata.generation ?? 0) + 1);
    expect(handed.status).toEqual(placed.status);

    // An urgent workload that would have preempted it while it was outrank's now waits.
    await applyAll(system, [policyFor('urgent', 'urgent', { schedulePriority: { priorityClassName: 'urgent' } }), deployment('urgent', { replicas: 2 })]);
    expect((await bindingOf(system, 'urgent')).spec.clusters).toBeUndefined();
    expect(await eventsWithReason(system, 'Preempted')).toEqual([]);
    expect(await bindingOf(system, 'batch')).toEqual(handed);

    await placeAsOther(system, 'batch', { m1: 1 });
    expect(placementOf(await bindingOf(system, 'urgent'))).toEqual({ m1: 2 });
    await expectAllocationsMatchBindings(system);
    expect((await invariantsOf(system)).violations).toEqual([]);
  });

  it(`${SPEC.policy}: from another to outrank: taken as it is, its placement kept where it fits and its room already counted`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 3 })]);
    await placeAsOther(system, 'batch', { m2: 3 });

    await applyAll(system, [policyFor('ours', 'batch', { priority: 10, preemption: 'Always' })]);
    const taken = await bindingOf(system, 'batch');
    expect(taken.spec.schedulerName).toBe('default-scheduler');
    expect(placementOf(taken)).toEqual({ m2: 3 });
    expect(conditionOf(taken, 'Scheduled')).toMatchObject({ status: 'True', reason: 'Success' });
    expect(taken.status?.schedulerObservedGeneration).toBe(taken.metadata.generation);
    await expectAllocationsMatchBindings(system);
    expect((await invariantsOf(system)).violations).toEqual([]);
  });

  it(`${SPEC.policy}: from another to outrank: a placement that no longer stands (its cluster not ready) is scheduled again`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 3 })]);
    await placeAsOther(system, 'batch', { m2: 3 });
    await applyAll(system, [cluster('m2', { cpu: '4' }, { ready: false })]);
    // Not outrank's: left where its scheduler put it.
    expect(placementOf(await bindingOf(system, 'batch'))).toEqual({ m2: 3 });

    await applyAll(system, [policyFor('ours', 'batch', { priority: 10, preemption: 'Always' })]);
    expect(placementOf(await bindingOf(system, 'batch'))).toEqual({ m1: 3 });
    await expectAllocationsMatchBindings(system);
  });
});

describe("a policy's scheduler is fixed when it is created (Karmada's webhook: pkg/webhook/propagationpolicy/validating.go, validateUpdate)", () => {
  it.each<[string, Manifest]>([
    ['PropagationPolicy', policyFor('p', 'web')],
    ['ClusterPropagationPolicy', { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', metadata: { name: 'p' }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] } }],
  ])('validating_test.go, TestValidatingAdmission_Handle, "Handle_SchedulerNameUpdated_DeniesAdmission": a %s\'s schedulerName changed is refused, nothing written', async (_, manifest) => {
    const system = newSystem();
    await applyAll(system, [manifest]);
    const spec = manifest.spec as Manifest;
    const error = await rejectionOf(() => system.objects.apply({ ...manifest, spec: { ...spec, schedulerName: 'new-scheduler' } }));
    expect(error.message).toContain('spec.schedulerName: the schedulerName should not be updated: it is "default-scheduler"');
  });

  it('validating_test.go, "Handle_ValidationSucceeds_AllowsAdmission": a policy created naming the default scheduler; naming it where it named none changes nothing (the CRD default)', async () => {
    const system = newSystem();
    await applyAll(system, [policyFor('p', 'web')]);
    await system.objects.apply(policyFor('p', 'web', { schedulerName: 'default-scheduler' }));
    await system.objects.apply(policyFor('q', 'api', { schedulerName: OTHER }));
    await expect(system.objects.apply(policyFor('q', 'api', { schedulerName: OTHER, priority: 3 }))).resolves.toBeDefined();
  });
});

describe("a deleted cluster and another scheduler's placements on it", () => {
  it("outrank releases its own bindings' replicas there; another scheduler's stay as that scheduler wrote them, and their room stays counted until it moves them", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), policyFor('ours', 'web', { placement: { clusterAffinity: { clusterNames: ['m1'] }, ...DIVIDED } }), deployment('web', { replicas: 1 }), policyFor('theirs', 'batch', { schedulerName: OTHER }), deployment('batch', { replicas: 2 })]);
    await placeAsOther(system, 'batch', { m1: 2 });
    await system.objects.delete(refs.cluster('m1'));
    await system.runUntilIdle();
    expect((await bindingOf(system, 'web')).spec.clusters).toBeUndefined();
    expect(placementOf(await bindingOf(system, 'batch'))).toEqual({ m1: 2 });
    await expectAllocationsMatchBindings(system);
    expect((await invariantsOf(system)).violations).toEqual([]);

    await placeAsOther(system, 'batch', { m2: 2 });
    expect(await system.store.get<ClusterAllocation>({ group: 'scheduling.outrank.io', kind: 'ClusterAllocation', namespace: '', name: 'm1' })).toBeUndefined();
    expect((await invariantsOf(system)).violations).toEqual([]);
  });
});

