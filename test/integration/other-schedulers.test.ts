/**
 * outrank beside another scheduler, through the real handlers, queues and tables: the other scheduler's
 * binding is placed by it through the API (its allocation moved in the same DynamoDB transaction), is
 * never preempted by outrank's higher-priority work, and when it moves away outrank's waiting binding
 * is placed. Each step agrees with outrank simulate, and `outrank check`'s invariants hold throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../lib/api/cluster';
import { checkInvariants } from '../../lib/check/invariants';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { listBindings } from '../../lib/controllers/binding-requests';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { ScenarioStep } from '../../lib/simulate/scenario';
import { comparable, Pipeline } from './pipeline';

const CLUSTER = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1' }, status: { resourceSummary: { allocatable: { cpu: '4', pods: '110' } } } };
const CLASSES = [
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 },
  { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'urgent' }, value: 1_000 },
];
const policy = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'default' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }], ...spec },
});
const deployment = (name: string, cpu: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu } } }] } } },
});
const placeBatch = (clusters: Array<{ name: string; replicas: number }> | null): ScenarioStep => ({
  patch: [{ apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', namespace: 'default', name: 'batch-deployment', patch: { spec: { clusters } } }],
});

const STEPS: Array<{ step: ScenarioStep; placed: Record<string, string[]>; refused?: number }> = [
  { step: { apply: [CLUSTER, ...CLASSES, policy('batch', { schedulerName: 'my-custom-scheduler', schedulePriority: { priorityClassName: 'low' } }), deployment('batch', '3')] }, placed: { batch: [] } },
  { step: placeBatch([{ name: 'member1', replicas: 1 }]), placed: { batch: ['member1'] } },
  { step: { apply: [policy('urgent', { schedulePriority: { priorityClassName: 'urgent' } }), deployment('urgent', '2')] }, placed: { batch: ['member1'], urgent: [] } },
  // A second replica would need 6 cpu of member1's 4: refused (403), nothing written, urgent still waits.
  { step: placeBatch([{ name: 'member1', replicas: 2 }]), placed: { batch: ['member1'], urgent: [] }, refused: 403 },
  { step: placeBatch(null), placed: { batch: [], urgent: ['member1'] } },
];

describe('another scheduler beside outrank on the local AWS endpoint (binding priority and preemption (000), "Preemption in multi-scheduler")', { timeout: 120_000 }, () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
  });
  afterAll(() => pipeline.stop());

  it("places the other scheduler's binding as it writes it, never preempts it, and places outrank's once it moves away", async () => {
    for (const [index, expected] of STEPS.entries()) {
      const refused = await pipeline.step(expected.step);
      expect(refused.map((r) => r.status)).toEqual(expected.refused === undefined ? [] : [expected.refused]);
      await pipeline.settle();
      const bindings = await pipeline.bindings();
      const placed = Object.fromEntries(bindings.map((b) => [b.name.replace(/-deployment$/, ''), b.clusters.map((c) => c.name)]));
      expect({ step: index, placed }).toEqual({ step: index, placed: expected.placed });
      const report = checkInvariants(
        {
          clusters: await pipeline.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
          bindings: await listBindings({ store: pipeline.store }),
          allocations: await pipeline.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation'),
          events: [],
        },
        ['default-scheduler'],
      );
      expect(report.violations).toEqual([]);
      const simulated = await runScenario({ steps: STEPS.slice(0, index + 1).map((s) => s.step) });
      expect(comparable(await pipeline.bindings())).toEqual(comparable(simulated.bindings));
    }
    expect(pipeline.errors).toEqual([]);
  });
});
