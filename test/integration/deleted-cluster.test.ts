/**
 * A deleted cluster takes its placements with it, through the real handlers, queues and tables: the
 * binding waits (ClusterDeleted), the cluster's allocation record goes, and the cluster created again
 * smaller starts empty, never holding more than it can; created again large enough, it takes the
 * binding. Each step agrees with outrank simulate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../lib/api/cluster';
import { checkInvariants } from '../../lib/check/invariants';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { listBindings } from '../../lib/controllers/binding-requests';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { ScenarioStep } from '../../lib/simulate/scenario';
import { comparable, Pipeline } from './pipeline';

const cluster = (cpu: string) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1' },
  status: { resourceSummary: { allocatable: { cpu, pods: '110' } } },
});
const POLICY = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } } },
};
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '3' } } }] } } },
};
const CLUSTER_LOCATOR = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1' };

const STEPS: Array<{ step: ScenarioStep; clusters: Array<{ name: string; replicas: number }>; scheduled: { status: string; reason: string }; allocations: string[] }> = [
  { step: { apply: [cluster('4'), POLICY, DEPLOYMENT] }, clusters: [{ name: 'member1', replicas: 1 }], scheduled: { status: 'True', reason: 'Success' }, allocations: ['member1'] },
  { step: { delete: [CLUSTER_LOCATOR] }, clusters: [], scheduled: { status: 'False', reason: 'ClusterDeleted' }, allocations: [] },
  { step: { apply: [cluster('2')] }, clusters: [], scheduled: { status: 'False', reason: 'ClusterDeleted' }, allocations: [] },
  { step: { apply: [cluster('4')] }, clusters: [{ name: 'member1', replicas: 1 }], scheduled: { status: 'True', reason: 'Success' }, allocations: ['member1'] },
];

describe('a deleted cluster on the local AWS endpoint (binding priority and preemption (000): never over-commit)', { timeout: 120_000 }, () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
  });
  afterAll(() => pipeline.stop());

  it('releases its placements and allocation; the cluster created again smaller starts empty; large enough, it takes the binding', async () => {
    for (const [index, expected] of STEPS.entries()) {
      expect(await pipeline.step(expected.step)).toEqual([]);
      await pipeline.settle();
      const [binding] = await pipeline.bindings();
      expect({ step: index, clusters: binding!.clusters, scheduled: binding!.conditions.find((c) => c.type === 'Scheduled') }).toMatchObject({
        step: index,
        clusters: expected.clusters,
        scheduled: expected.scheduled,
      });
      const allocations = await pipeline.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation');
      expect(allocations.map((a) => a.metadata.name)).toEqual(expected.allocations);
      const report = checkInvariants({
        clusters: await pipeline.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
        bindings: await listBindings({ store: pipeline.store }),
        allocations,
        events: [],
      });
      expect(report.violations).toEqual([]);
      const simulated = await runScenario({ steps: STEPS.slice(0, index + 1).map((s) => s.step) });
      expect(comparable(await pipeline.bindings())).toEqual(comparable(simulated.bindings));
    }
    expect(pipeline.errors).toEqual([]);
  });
});
