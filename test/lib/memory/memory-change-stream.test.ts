import { describe, expect, it } from 'vitest';
import type { ObjectRef } from '../../../lib/api/kinds';
import type { ObjectChange } from '../../../lib/controllers/messages';
import { streamChangesTo } from '../../../lib/memory/memory-change-stream';
import { ManualClock } from '../../../lib/memory/manual-clock';
import { MemoryMessageQueue } from '../../../lib/memory/memory-message-queue';
import { MemoryObjectStore } from '../../../lib/memory/memory-store';
import { ConflictError, type StoredObject } from '../../../lib/ports/object-store';
import { ALL_DEPLOYMENTS, applyAll, cluster, deployment, findBinding, newSystem, placementOfDeployment, propagationPolicy } from '../controllers/support';

const deploymentRef = (name: string): ObjectRef => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });

function streamed() {
  const clock = new ManualClock();
  const store = new MemoryObjectStore();
  const queue = new MemoryMessageQueue<ObjectChange>('policy-change', clock);
  streamChangesTo(store, queue);
  const announced = async () => {
    const deliveries = await queue.receive(100);
    await queue.delete(deliveries.map((delivery) => delivery.receipt));
    return deliveries.map((delivery) => delivery.body.ref.kind);
  };
  return { store, announced };
}

const object = (apiVersion: string, kind: string, name: string, namespace?: string) => ({ apiVersion, kind, metadata: { name, ...(namespace ? { namespace } : {}) } });

describe('every committed write policy-change must hear of is announced by the store, whoever wrote it', () => {
  it.each([
    ['a Deployment', object('apps/v1', 'Deployment', 'web', 'default'), 1],
    ['a PropagationPolicy', object('policy.karmada.io/v1alpha1', 'PropagationPolicy', 'p', 'default'), 1],
    ['a Cluster', object('cluster.karmada.io/v1alpha1', 'Cluster', 'm1'), 1],
    ['a ResourceBinding (binding-enqueue follows bindings)', object('work.karmada.io/v1alpha2', 'ResourceBinding', 'web-deployment', 'default'), 0],
    ['a PriorityClass (binding priority and preemption (000): class changes do not update bindings)', object('scheduling.k8s.io/v1', 'PriorityClass', 'high'), 0],
    ['an allocation record', object('scheduling.outrank.io/v1alpha1', 'ClusterAllocation', 'm1'), 0],
  ])('%s', async (_name, written, expected) => {
    const { store, announced } = streamed();
    await store.transact([{ op: 'put', object: written, expectedVersion: null }]);
    expect(await announced()).toHaveLength(expected);
  });

  it('a deletion is announced; a failed transaction announces nothing', async () => {
    const { store, announced } = streamed();
    const [stored] = await store.transact([{ op: 'put', object: object('apps/v1', 'Deployment', 'web', 'default'), expectedVersion: null }]);
    await announced();
    await expect(store.transact([{ op: 'delete', ref: deploymentRef('web'), expectedVersion: 'stale' }])).rejects.toBeInstanceOf(ConflictError);
    expect(await announced()).toEqual([]);
    await store.transact([{ op: 'delete', ref: deploymentRef('web'), expectedVersion: stored!.metadata.resourceVersion! }]);
    expect(await announced()).toEqual(['Deployment']);
  });

  it('a Deployment written by a process that died before telling anyone gets its binding', async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), propagationPolicy('all', { resourceSelectors: ALL_DEPLOYMENTS })]);
    // Straight into the store, as an API process that stored the object and was killed at once.
    await system.store.transact([{ op: 'put', object: deployment('orphan') as unknown as StoredObject, expectedVersion: null }]);
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'orphan')).toEqual({ m1: 1 });

    const [stored] = await system.store.getMany([deploymentRef('orphan')]);
    await system.store.transact([{ op: 'delete', ref: deploymentRef('orphan'), expectedVersion: stored!.metadata.resourceVersion! }]);
    await system.runUntilIdle();
    expect(await findBinding(system, 'orphan')).toBeUndefined();
  });
});
