/**
 * What-if on a copy of the live state: the same decisions and victims `outrank simulate` reaches for the
 * same writes (binding priority and preemption (000)), and nothing live is written.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { PolicyChangeController } from '../../../lib/controllers/policy-change';
import { EVENT, SYSTEM_KINDS, TEMPLATE_KINDS } from '../../../lib/api/kinds';
import { apiGroupOf } from '../../../lib/api/resource-template';
import { loadScenario } from '../../../lib/simulate/load-scenario';
import { runScenario } from '../../../lib/simulate/run-scenario';
import { whatIf } from '../../../lib/simulate/what-if';
import type { StoredObject } from '../../../lib/ports/object-store';
import { MemorySystem } from '../../../lib/runtime/memory-system';

const example = loadScenario(readFileSync('examples/000-binding-preemption.yaml', 'utf8'));
const [setUp, arrival] = example.steps as [{ apply: unknown[] }, { apply: unknown[] }];

async function liveObjects(system: MemorySystem): Promise<StoredObject[]> {
  const kinds = [...SYSTEM_KINDS.filter((kind) => kind !== EVENT), ...TEMPLATE_KINDS];
  return (await Promise.all(kinds.map((kind) => system.store.list(apiGroupOf(kind.apiVersion), kind.kind)))).flat();
}

async function liveSystem(): Promise<MemorySystem> {
  const system = new MemorySystem();
  for (const object of setUp.apply) await system.objects.apply(object);
  await system.runUntilIdle();
  return system;
}

describe('what-if', () => {
  it('finds the victims simulate finds for the same arrival (binding priority and preemption (000): the fewest victims)', async () => {
    const system = await liveSystem();
    const simulated = await runScenario(example);
    const simulatedVictims = simulated.events.filter((event) => event.reason === 'Preempted').map((event) => `${event.object.namespace}/${event.object.name}`);
    const result = await whatIf(await liveObjects(system), arrival.apply, system.context.config, system.clock.now());
    expect(result.victims).toEqual(simulatedVictims);
    expect(result.victims).toEqual(['default/batch-p2-deployment']);
    expect(result.placements).toContainEqual({ binding: 'default/urgent-deployment', before: null, after: [{ name: 'member1', replicas: 1 }] });
    expect(result.placements).toContainEqual({ binding: 'default/batch-p2-deployment', before: [{ name: 'member1', replicas: 1 }], after: [] });
    expect(result.decisions.map((event) => event.reason)).toContain('Preempted');
  });

  it('starts from the live state as it is: only what the manifests announce is decided, not every template again', async () => {
    const system = await liveSystem();
    const live = await liveObjects(system);
    const handled = vi.spyOn(PolicyChangeController.prototype, 'handle');
    try {
      const result = await whatIf(live, arrival.apply, system.context.config, system.clock.now());
      expect(result.victims).toEqual(['default/batch-p2-deployment']);
      // The arrival's template and policy, not the live state's templates, policies and clusters.
      expect(handled.mock.calls.map(([change]) => change.ref.name).sort()).toEqual(arrival.apply.map((object) => (object as { metadata: { name: string } }).metadata.name).sort());
      expect(live.length).toBeGreaterThan(arrival.apply.length * 4);
    } finally {
      handled.mockRestore();
    }
  });

  it('writes nothing to the live state', async () => {
    const system = await liveSystem();
    const before = await liveObjects(system);
    await whatIf(before, arrival.apply, system.context.config, system.clock.now());
    expect(await liveObjects(system)).toEqual(before);
  });

  it('reports a manifest that would be refused, and decides nothing for it', async () => {
    const system = await liveSystem();
    const bad = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'typo', namespace: 'default' }, spec: { replica: 1 } };
    const result = await whatIf(await liveObjects(system), [bad], system.context.config, system.clock.now());
    expect(result.rejections).toEqual([{ object: 'Deployment/typo', message: expect.stringContaining('spec.replica: unknown field') }]);
    expect(result.victims).toEqual([]);
    expect(result.placements).toEqual([]);
  });

  it('applies none of the manifests the caller could not write, reporting each with its rule; the rest decide as they would alone', async () => {
    const system = await liveSystem();
    const live = await liveObjects(system);
    const [urgent] = arrival.apply as [{ metadata: { name: string } }];
    const late = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'late', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'late' } }, template: { metadata: { labels: { app: 'late' } }, spec: { priorityClassName: 'p3', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } } } };
    const refusalOf = async (manifest: unknown) => (manifest === urgent ? 'PriorityClass "urgent" is restricted' : undefined);
    const refused = await whatIf(live, [urgent, late], system.context.config, system.clock.now(), { refusalOf });
    const alone = await whatIf(live, [late], system.context.config, system.clock.now());
    expect(refused.rejections).toEqual([{ object: 'Deployment/urgent', message: 'PriorityClass "urgent" is restricted' }]);
    expect({ ...refused, rejections: [] }).toEqual(alone);
    expect(refused.victims).toEqual([]);
  });

  it('stops at its next step once its signal is aborted, rejecting with the signal\'s reason and deciding nothing more', async () => {
    const system = await liveSystem();
    const answered = new AbortController();
    const handle = PolicyChangeController.prototype.handle;
    const handled = vi.spyOn(PolicyChangeController.prototype, 'handle').mockImplementation(async function (this: PolicyChangeController, change) {
      await handle.call(this, change);
      answered.abort(new Error('answered already'));
    });
    try {
      await expect(whatIf(await liveObjects(system), arrival.apply, system.context.config, system.clock.now(), { signal: answered.signal })).rejects.toThrow('answered already');
      expect(handled).toHaveBeenCalledTimes(1);
    } finally {
      handled.mockRestore();
    }
  });

  it('copies a live state of several slices whole: the same victims, and only what the manifests announce is decided', async () => {
    const system = await liveSystem();
    const fillers = Array.from({ length: 600 }, (_, index) => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `filler-${index}`, namespace: 'fill' },
      spec: { replicas: 1, selector: { matchLabels: { app: `filler-${index}` } }, template: { metadata: { labels: { app: `filler-${index}` } }, spec: { priorityClassName: 'p0', containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '10m' } } }] } } },
    }));
    await system.objects.apply({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member2' }, status: { resourceSummary: { allocatable: { cpu: '100', memory: '64Gi', pods: '1000' } } } });
    await system.objects.apply({
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'fill', namespace: 'fill' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], schedulePriority: { priorityClassSource: 'PodPriorityClass' }, placement: { clusterAffinity: { clusterNames: ['member2'] } } },
    });
    for (const filler of fillers) await system.objects.apply(filler);
    await system.runUntilIdle();
    const live = await liveObjects(system);
    expect(live.length).toBeGreaterThan(1_000);
    const handled = vi.spyOn(PolicyChangeController.prototype, 'handle');
    try {
      const result = await whatIf(live, arrival.apply, system.context.config, system.clock.now());
      expect(result.victims).toEqual(['default/batch-p2-deployment']);
      expect(result.placements.map((change) => change.binding).sort()).toEqual(['default/batch-p2-deployment', 'default/urgent-deployment']);
      expect(handled.mock.calls.map(([change]) => change.ref.name)).toEqual(['urgent']);
    } finally {
      handled.mockRestore();
    }
  });
});
