/**
 * Everyday cluster changes through the real handlers, queues and tables on the local AWS endpoint: a
 * cluster whose labels no longer match a binding's affinity is left for one that does, and a NoExecute
 * taint tolerated for a second evicts the binding once the second is over and the reconcile has run
 * (its schedule, every minute on the stack, is called here). Each placement agrees with outrank simulate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../lib/api/cluster';
import type { KubeEvent } from '../../lib/api/event';
import { checkInvariants } from '../../lib/check/invariants';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { listBindings } from '../../lib/controllers/binding-requests';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { ScenarioStep } from '../../lib/simulate/scenario';
import { comparable, Pipeline } from './pipeline';

const cluster = (name: string, labels: Record<string, string>, cpu: string) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name, labels },
  status: { resourceSummary: { allocatable: { cpu, pods: '110' } } },
});
const policy = (name: string, placement: Record<string, unknown>) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'default' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }], placement: { ...placement, replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } } },
});
const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1' } } }] } } },
});
const member = (name: string) => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name });

const SET_UP: ScenarioStep = {
  apply: [
    cluster('member1', { env: 'prod' }, '8'),
    cluster('member2', { env: 'prod' }, '4'),
    // Placed on member1, the roomier (Aggregated), by label.
    policy('by-label', { clusterAffinity: { labelSelector: { matchLabels: { env: 'prod' } } } }),
    deployment('by-label'),
    // On member1 too, tolerating the drain taint for a second.
    policy('tolerating', { clusterAffinity: { clusterNames: ['member1', 'member2'] }, clusterTolerations: [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 1 }] }),
    deployment('tolerating'),
  ],
};
const RELABEL: ScenarioStep = { patch: [{ ...member('member1'), patch: { metadata: { labels: { env: 'test' } } } }] };
const TAINT: ScenarioStep = { patch: [{ ...member('member1'), patch: { spec: { taints: [{ key: 'drain', effect: 'NoExecute' }] } } }] };

function placementOf(bindings: Awaited<ReturnType<Pipeline['bindings']>>, name: string) {
  return bindings.find((binding) => binding.name === `${name}-deployment`)?.clusters;
}

describe('cluster label and taint changes on the local AWS endpoint (Karmada updateCluster and taint manager)', { timeout: 120_000 }, () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
  });
  afterAll(() => pipeline.stop());

  async function expectConsistent(steps: readonly ScenarioStep[]): Promise<void> {
    const report = checkInvariants({
      clusters: await pipeline.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
      bindings: await listBindings({ store: pipeline.store }),
      allocations: await pipeline.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
      events: [],
    });
    expect(report.violations).toEqual([]);
    const simulated = await runScenario({ steps: [...steps] });
    expect(comparable(await pipeline.bindings())).toEqual(comparable(simulated.bindings));
  }

  it('a label change moves the binding its affinity no longer admits; a NoExecute taint evicts once its toleration is over', async () => {
    expect(await pipeline.step(SET_UP)).toEqual([]);
    await pipeline.settle();
    expect(placementOf(await pipeline.bindings(), 'by-label')).toEqual([{ name: 'member1', replicas: 1 }]);
    expect(placementOf(await pipeline.bindings(), 'tolerating')).toEqual([{ name: 'member1', replicas: 1 }]);

    expect(await pipeline.step(RELABEL)).toEqual([]);
    await pipeline.settle();
    expect(placementOf(await pipeline.bindings(), 'by-label')).toEqual([{ name: 'member2', replicas: 1 }]);
    await expectConsistent([SET_UP, RELABEL]);

    expect(await pipeline.step(TAINT)).toEqual([]);
    await pipeline.settle();
    // Tolerated for a second from the taint's timeAdded, which the API set when it wrote the taint.
    const member1 = (await pipeline.store.get<Cluster>({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name: 'member1' }))!;
    const added = Date.parse(member1.spec?.taints?.[0]?.timeAdded ?? '');
    expect(Number.isNaN(added)).toBe(false);
    while (Date.now() <= added + 1_000) await new Promise((resolve) => setTimeout(resolve, added + 1_050 - Date.now()));
    await pipeline.functions.reconcile();
    await pipeline.settle();
    expect(placementOf(await pipeline.bindings(), 'tolerating')).toEqual([{ name: 'member2', replicas: 1 }]);
    await expectConsistent([SET_UP, RELABEL, TAINT, { wait: 1_000 }]);

    const events = (await pipeline.request('GET', '/api/v1/namespaces/default/events')).body.items as KubeEvent[];
    expect(events.filter((event) => event.reason === 'EvictWorkloadFromClusterSucceed').map((event) => [event.involvedObject.name, event.message])).toEqual([
      ['tolerating-deployment', 'Evict from cluster member1 succeed: the toleration of the NoExecute taint drain:NoExecute ran out; placed elsewhere'],
    ]);
    expect(pipeline.errors).toEqual([]);
  });
});
