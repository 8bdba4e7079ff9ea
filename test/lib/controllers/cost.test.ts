/**
 * What one change costs in store calls and items read, at two fleet sizes: the same, whatever the
 * number of workloads already running (each function has its own store and informers, warm from the
 * fleet's creation, as a warm Lambda execution environment would be).
 */
import { describe, expect, it } from 'vitest';
import { withConfig } from '../../../lib/config';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { INLINE_CLAIMS } from '../../../lib/controllers/template-claims';
import { MemorySystem, type FunctionName } from '../../../lib/runtime/memory-system';
import { CountingStore, type StoreCounts } from '../../support/counting-store';
import { applyAll, cluster, deployment, propagationPolicy, type Manifest } from './support';

const FUNCTIONS: readonly FunctionName[] = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'];

function byName(name: string): Manifest {
  return propagationPolicy(name, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }] });
}

function byLabel(name: string, app: string): Manifest {
  return propagationPolicy(name, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app } } }] });
}

type Change = (system: MemorySystem, instance: number) => Promise<void>;

/**
 * A fleet of `size` workloads, one policy each, then the counts of what `change` cost each function.
 * The change is made once before it is counted, so that every function's informers are warm and have
 * caught up with the fleet's creation: what is counted is the change alone.
 */
async function costOf(size: number, change: Change): Promise<Record<FunctionName, StoreCounts>> {
  const stores = new Map<FunctionName, CountingStore>();
  const system = new MemorySystem(withConfig(), (fn, store) => {
    const counting = new CountingStore(store);
    stores.set(fn, counting);
    return counting;
  });
  await system.objects.apply(cluster('m1', { cpu: '100000' }));
  for (let i = 0; i < size; i++) {
    await system.objects.apply(byName(`app-${i}`));
    await system.objects.apply(deployment(`app-${i}`, { labels: { app: `app-${i}` }, requests: { cpu: '10m' } }));
  }
  await system.runUntilIdle();
  await change(system, 1);
  await system.runUntilIdle();
  for (const store of stores.values()) store.reset();
  await change(system, 2);
  await system.runUntilIdle();
  expect(system.handlerErrors).toEqual([]);
  return Object.fromEntries(FUNCTIONS.map((fn) => [fn, stores.get(fn)!.counts])) as Record<FunctionName, StoreCounts>;
}

describe('the cost of a change does not grow with the fleet', () => {
  it.each([
    {
      change: 'a new Deployment with its own policy (selected by name)',
      run: async (system: MemorySystem, instance: number) => {
        await system.objects.apply(byName(`new-${instance}`));
        await system.objects.apply(deployment(`new-${instance}`, { requests: { cpu: '10m' } }));
      },
    },
    {
      change: 'a policy selecting one Deployment by label',
      run: async (system: MemorySystem, instance: number) => {
        await system.objects.apply(byLabel(`by-label-${instance}`, `app-${instance}`));
      },
    },
    {
      change: 'a Deployment deleted',
      run: async (system: MemorySystem, instance: number) => {
        await system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: 'default', name: `app-${instance}` });
      },
    },
    {
      // Its binding belongs to the template that went (ownerReferences): found by name, removed, and made anew.
      change: 'a Deployment deleted and created again under its name before any controller looked',
      run: async (system: MemorySystem, instance: number) => {
        await system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: 'default', name: `app-${instance}` });
        await system.objects.apply(deployment(`app-${instance}`, { labels: { app: `app-${instance}` }, requests: { cpu: '10m' } }));
      },
    },
    {
      change: 'a label no affinity reads, on the cluster every workload runs on (each placed binding is looked at in memory)',
      run: async (system: MemorySystem, instance: number) => {
        await system.objects.patch({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name: 'm1' }, { metadata: { labels: { revision: String(instance) } } });
      },
    },
  ])('$change: the same store calls and items read with 20 and with 200 workloads running', async ({ run }) => {
    const small = await costOf(20, run);
    const large = await costOf(200, run);
    for (const fn of FUNCTIONS) {
      expect({ fn, calls: large[fn].calls, read: large[fn].itemsRead }).toEqual({ fn, calls: small[fn].calls, read: small[fn].itemsRead });
    }
    expect(large['policy-change'].calls).toBeGreaterThan(0);
  });
});

describe('a batch with both a template and its policy claims the template once', () => {
  it('reads each feed once for the batch (policies, PriorityClasses, templates, bindings), the template and its binding from them: no read per notice', async () => {
    let policyChange: CountingStore | undefined;
    const system = new MemorySystem(withConfig(), (fn, store) => {
      const counting = new CountingStore(store);
      if (fn === 'policy-change') policyChange = counting;
      return counting;
    });
    await system.objects.apply(cluster('m1', { cpu: '100' }));
    await system.runUntilIdle();
    policyChange!.reset();
    // Both notices land in the same batch of the policy-change queue.
    await system.objects.apply(byName('web'));
    await system.objects.apply(deployment('web', { requests: { cpu: '10m' } }));
    await system.runUntilIdle();
    expect(system.handlerErrors).toEqual([]);
    // Two policy kinds, PriorityClasses, Deployments and two binding kinds: one feed read each; one write.
    expect(policyChange!.counts.byMethod).toEqual({ changes: 6, transact: 1 });
    expect(await system.store.get({ group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: 'web-deployment' })).toBeDefined();
  });
});

describe('a policy write over many templates claims a bounded number of them in its invocation', () => {
  it(`claims the first ${INLINE_CLAIMS} itself and hands the rest to the policy-change queue; every template gets its binding`, async () => {
    const system = new MemorySystem();
    const count = INLINE_CLAIMS + 30;
    await system.objects.apply(cluster('m1', { cpu: '1000' }));
    for (let index = 0; index < count; index += 1) await system.objects.apply(deployment(`web-${index}`, { labels: { app: 'web' }, requests: { cpu: '1' } }));
    await system.runUntilIdle();

    await system.objects.apply(byLabel('all-web', 'web'));
    const [notice] = await system.policyChangeQueue.receive(1);
    await system.policyChange.handle(notice!.body);
    await system.policyChangeQueue.delete([notice!.receipt]);
    expect(system.policyChangeQueue.held()).toBe(count - INLINE_CLAIMS);
    expect((await listBindings(system.context)).length).toBe(INLINE_CLAIMS);

    await system.runUntilIdle();
    expect(system.handlerErrors).toEqual([]);
    expect((await listBindings(system.context)).length).toBe(count);
  });
});

describe('a template without replicas costs the scheduling cycle its placement only (whole application bundles)', () => {
  const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { mode: 'fast' } });
  const claimingConfigMap = (name: string) => propagationPolicy(name, { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', name }] });

  /** The schedule cycle's store counts for `change`, on a fleet of `size` workloads and `size` bound ConfigMaps. */
  async function cycleCostOf(size: number, change: Change): Promise<StoreCounts> {
    const counts = await costOf(size, async (system, instance) => {
      if (instance === 1) for (let i = 0; i < size; i++) await applyAll(system, [claimingConfigMap(`config-${i}`), configMap(`config-${i}`)]);
      await change(system, instance);
    });
    return counts['schedule-cycle'];
  }

  const newConfigMap: Change = async (system, instance) => applyAll(system, [claimingConfigMap(`new-config-${instance}`), configMap(`new-config-${instance}`)]);
  const newDeployment: Change = async (system, instance) => {
    await system.objects.apply(byName(`new-${instance}`));
    await system.objects.apply(deployment(`new-${instance}`, { requests: { cpu: '10m' } }));
  };

  it('a ConfigMap claimed: no more store calls or reads than a Deployment claimed, and one item fewer written (no allocation record moves)', async () => {
    const plain = await cycleCostOf(20, newConfigMap);
    const workload = await cycleCostOf(20, newDeployment);
    expect(plain.calls).toBeLessThanOrEqual(workload.calls);
    expect(plain.itemsRead).toBeLessThanOrEqual(workload.itemsRead);
    expect(plain.itemsWritten).toBe(workload.itemsWritten - 1);
  });

  it.each([
    ['a ConfigMap claimed', newConfigMap],
    ['a Deployment claimed', newDeployment],
  ])('%s: the same schedule-cycle store calls and items read with 20 and with 200 ConfigMaps bound beside the workloads', async (_, change) => {
    const small = await cycleCostOf(20, change);
    const large = await cycleCostOf(200, change);
    expect({ calls: large.calls, read: large.itemsRead, written: large.itemsWritten }).toEqual({ calls: small.calls, read: small.itemsRead, written: small.itemsWritten });
  });
});
