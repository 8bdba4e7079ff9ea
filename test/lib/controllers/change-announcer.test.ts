import { describe, expect, it } from 'vitest';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { ALL_DEPLOYMENTS, applyAll, cluster, deployment, findBinding, newSystem, placementOfDeployment, propagationPolicy } from './support';

/** Runs `write` with the policy-change queue unreachable: the object is stored, its notice lost. */
async function withNoticeLost(system: MemorySystem, write: () => Promise<unknown>): Promise<void> {
  const queue = system.policyChangeQueue;
  const send = queue.send.bind(queue);
  queue.send = async () => {
    throw new Error('queue unreachable');
  };
  try {
    await write();
  } finally {
    queue.send = send;
  }
}

describe('every write policy-change must hear of is announced, even when the API\'s notice is lost', () => {
  async function fleet(): Promise<MemorySystem> {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), propagationPolicy('all', { resourceSelectors: ALL_DEPLOYMENTS }), deployment('first')]);
    // The reconcile's first run reads the feeds: from then on it announces what changes.
    await system.advance(60_000);
    await system.runUntilIdle();
    return system;
  }

  it('a Deployment whose notice was lost gets its binding after the next reconcile run', async () => {
    const system = await fleet();
    await withNoticeLost(system, () => system.objects.apply(deployment('lost')));
    await system.runUntilIdle();
    expect(system.metrics.counter('AnnouncementsFailed', { kind: 'Deployment' })).toBe(1);
    expect(await findBinding(system, 'lost')).toBeUndefined();

    await system.advance(60_000);
    await system.runUntilIdle();
    expect(await placementOfDeployment(system, 'lost')).toEqual({ m1: 1 });
  });

  it('a deletion whose notice was lost removes the binding after the next reconcile run', async () => {
    const system = await fleet();
    await withNoticeLost(system, () => system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'first' }));
    await system.runUntilIdle();
    expect(await findBinding(system, 'first')).toBeDefined();

    await system.advance(60_000);
    await system.runUntilIdle();
    expect(await findBinding(system, 'first')).toBeUndefined();
  });

  it('a write whose notice went out is not handled twice: the second notice is dropped as a duplicate', async () => {
    const system = await fleet();
    await system.objects.apply(deployment('second'));
    await system.runUntilIdle();
    await system.advance(60_000);
    expect(system.policyChangeQueue.held()).toBe(0);
  });
});
