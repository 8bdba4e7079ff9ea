/**
 * A binding's identity as Karmada and Kubernetes give it: its own uid, its template as controller owner
 * (ownerReferences), and a generation that follows its spec as kube-apiserver moves it. A binding whose
 * controller no longer exists is removed, as Kubernetes' garbage collector removes it.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { ResourceTemplate } from '../../../lib/api/resource-template';
import {
  applyAll,
  bindingOf,
  cluster,
  conditionOf,
  deployment,
  expectAllocationsMatchBindings,
  findBinding,
  newSystem,
  placementOf,
  propagationPolicy,
  refs,
  ALL_DEPLOYMENTS,
} from './support';

const policy = propagationPolicy('all', { resourceSelectors: ALL_DEPLOYMENTS });

async function templateOf(system: ReturnType<typeof newSystem>, name: string): Promise<ResourceTemplate> {
  return (await system.store.get<ResourceTemplate>(refs.deployment(name)))!;
}

describe("a binding's owner: its template, as controller (Karmada's detector: BuildResourceBinding, metav1.NewControllerRef)", () => {
  it('every binding made names its template by apiVersion, kind, name and uid, as controller blocking its deletion', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web')]);
    const template = await templateOf(system, 'web');
    const binding = await bindingOf(system, 'web');
    expect(binding.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: template.metadata.uid, controller: true, blockOwnerDeletion: true }]);
    expect(binding.metadata.uid).not.toBe(template.metadata.uid);
  });

  it('a template deleted takes its binding with it, and the room it held is given back', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web', { replicas: 2 })]);
    await system.objects.delete(refs.deployment('web'));
    await system.runUntilIdle();
    expect(await findBinding(system, 'web')).toBeUndefined();
    await expectAllocationsMatchBindings(system);
  });

  it("a template deleted and created again under its name before any controller looked is another template: the old binding goes (issue 2090 in Karmada's detector), a new one is made for it and placed afresh", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web', { replicas: 2 })]);
    const old = await bindingOf(system, 'web');
    await system.objects.delete(refs.deployment('web'));
    await system.objects.apply(deployment('web', { replicas: 2 }));
    await system.runUntilIdle();
    const template = await templateOf(system, 'web');
    const made = await bindingOf(system, 'web');
    expect(made.metadata.uid).not.toBe(old.metadata.uid);
    expect(made.metadata.ownerReferences?.[0]?.uid).toBe(template.metadata.uid);
    expect(made.spec.resource.uid).toBe(template.metadata.uid);
    expect(made.metadata.generation).toBe(2);
    expect(placementOf(made)).toEqual({ m1: 2 });
    await expectAllocationsMatchBindings(system);
  });

  it('a binding stored before bindings had owner references is given them by the template resync, without a new generation or an attempt', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web')]);
    const stored = await bindingOf(system, 'web');
    const { ownerReferences: _, ...metadata } = stored.metadata;
    await system.store.transact([{ op: 'put', object: { ...stored, metadata } as ResourceBinding, expectedVersion: stored.metadata.resourceVersion ?? null }]);
    const attempts = system.metrics.counter('SchedulingAttempts', { result: 'scheduled' });
    expect(await system.reconcile.resync()).toBe(1);
    await system.runUntilIdle();
    const resynced = await bindingOf(system, 'web');
    expect(resynced.metadata.ownerReferences).toHaveLength(1);
    expect(resynced.metadata.generation).toBe(stored.metadata.generation);
    expect(system.metrics.counter('SchedulingAttempts', { result: 'scheduled' })).toBe(attempts);
  });
});

describe('generation follows the spec as kube-apiserver moves it: on every change of spec, never of metadata or status', () => {
  it("a new binding is generation 1; its placement is a change of spec (2), which the scheduler observes as it writes it", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web')]);
    const placed = await bindingOf(system, 'web');
    expect(placed.metadata.generation).toBe(2);
    expect(placed.status?.schedulerObservedGeneration).toBe(2);
    expect(conditionOf(placed, 'Scheduled')).toMatchObject({ status: 'True' });
  });

  it('a change of the template moves it once, and the scheduler observes it once placed again', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), policy, deployment('web')]);
    await applyAll(system, [deployment('web', { replicas: 3 })]);
    const scaled = await bindingOf(system, 'web');
    // 3: the new replicas; 4: their placement.
    expect(scaled.metadata.generation).toBe(4);
    expect(scaled.status?.schedulerObservedGeneration).toBe(4);
    expect(placementOf(scaled)).toEqual({ m1: 3 });
  });

  it("a user's change of spec.suspension moves it; the conditions outrank writes in reply do not", async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), propagationPolicy('all', { resourceSelectors: ALL_DEPLOYMENTS, suspension: { scheduling: true } }), deployment('web')]);
    const suspended = await bindingOf(system, 'web');
    expect(suspended.metadata.generation).toBe(1);
    expect(conditionOf(suspended, 'SchedulingSuspended')).toMatchObject({ status: 'True' });
    await system.objects.patch(refs.binding('web'), { spec: { suspension: { scheduling: false } } });
    const resumed = (await system.store.get<ResourceBinding>(refs.binding('web')))!;
    expect(resumed.metadata.generation).toBe(2);
    await system.runUntilIdle();
    const placed = await bindingOf(system, 'web');
    expect(placed.metadata.generation).toBe(3);
    expect(placed.status?.schedulerObservedGeneration).toBe(3);
  });
});
