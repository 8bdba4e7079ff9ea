/**
 * The template resync (lib/controllers/template-resync.ts): a write whose notice to policy-change was
 * lost — the API stored it, then failed before sending, and the client did not retry — still reaches its
 * binding at the next resync, and a resync over bindings that are as they should be writes nothing.
 */
import { describe, expect, it } from 'vitest';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  applyAll,
  cluster,
  deployment,
  findBinding,
  newSystem,
  placementOfDeployment,
  propagationPolicy,
  refs,
  storeContents,
  type Manifest,
} from './support';

const FLEET = ['member1', 'member2'].map((name) => cluster(name, { cpu: '8' }));
const POLICY = propagationPolicy('web', {
  resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
  placement: { clusterAffinity: { clusterNames: ['member1', 'member2'] } },
});

/** Drops what the API sent policy-change, as if the function had failed between its write and its notice. */
async function loseNotices(system: MemorySystem): Promise<number> {
  const deliveries = await system.context.queues.policyChange.receive(10);
  await system.context.queues.policyChange.delete(deliveries.map((delivery) => delivery.receipt));
  return deliveries.length;
}

async function writeWithoutNotice(system: MemorySystem, manifest: Manifest): Promise<void> {
  await system.objects.apply(manifest);
  expect(await loseNotices(system)).toBe(1);
  await system.runUntilIdle();
}

async function allocations(system: MemorySystem): Promise<unknown[]> {
  const contents = await storeContents(system);
  return Object.entries(contents).flatMap(([kind, objects]) => (kind.startsWith('ClusterAllocation.') ? objects : []));
}

async function resync(system: MemorySystem): Promise<number> {
  const sent = await system.reconcile.resync();
  await system.runUntilIdle();
  return sent;
}

describe('template resync', () => {
  it('binds and places a template whose notice was lost', async () => {
    const system = newSystem();
    await applyAll(system, [...FLEET, POLICY]);
    await writeWithoutNotice(system, deployment('web', { replicas: 2 }));
    expect(await findBinding(system, 'web')).toBeUndefined();

    expect(await resync(system)).toBe(1);
    // Duplicated (no replicaScheduling): every cluster runs both replicas.
    expect(await placementOfDeployment(system, 'web')).toEqual({ member1: 2, member2: 2 });
  });

  it('carries a change whose notice was lost to the binding, sending only that template', async () => {
    const system = newSystem();
    await applyAll(system, [...FLEET, POLICY, deployment('web', { replicas: 2 }), deployment('api')]);
    await writeWithoutNotice(system, deployment('web', { replicas: 5 }));
    expect((await findBinding(system, 'web'))?.spec.replicas).toBe(2);

    expect(await resync(system)).toBe(1);
    expect((await findBinding(system, 'web'))?.spec.replicas).toBe(5);
  });

  it('removes the binding of a template deleted without its notice, and frees its room', async () => {
    const system = newSystem();
    await applyAll(system, [...FLEET, POLICY, deployment('web', { replicas: 2 })]);
    expect(await allocations(system)).toHaveLength(2);
    await system.objects.delete(refs.deployment('web'));
    expect(await loseNotices(system)).toBe(1);
    await system.runUntilIdle();
    expect(await findBinding(system, 'web')).toBeDefined();

    expect(await resync(system)).toBe(1);
    expect(await findBinding(system, 'web')).toBeUndefined();
    expect(await allocations(system)).toEqual([]);
  });

  it('sends nothing and writes nothing when every binding is as it should be', async () => {
    const system = newSystem();
    const unselected = deployment('tools', { namespace: 'ops' });
    await applyAll(system, [...FLEET, POLICY, deployment('web'), deployment('api'), unselected]);
    const before = await storeContents(system);

    expect(await resync(system)).toBe(0);
    expect(await storeContents(system)).toEqual(before);
    expect(system.handlerErrors).toEqual([]);
  });
});
