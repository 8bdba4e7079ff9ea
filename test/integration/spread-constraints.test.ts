/**
 * Spread by region across three regions through the real handlers, queues and tables: fillers chosen
 * by a field selector fill one region; an urgent workload spread over every region preempts one of them
 * there (the fewest victims) and lands one replica per region, on the roomiest cluster of each. Each
 * step agrees with outrank simulate, and outrank check's invariants hold; so does the end with every
 * message delivered twice.
 */
import type { Context } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../lib/api/cluster';
import { checkInvariants } from '../../lib/check/invariants';
import type { ClusterAllocation } from '../../lib/controllers/allocations';
import { listBindings } from '../../lib/controllers/binding-requests';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { ScenarioStep } from '../../lib/simulate/scenario';
import { comparable, Pipeline } from './pipeline';

const cluster = (name: string, region: string, cpu: string) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  spec: { provider: 'aws', region },
  status: { resourceSummary: { allocatable: { cpu, pods: '110' } } },
});
const priorityClass = (name: string, value: number) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value });
const policy = (name: string, role: string, placement: Record<string, unknown>) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'default' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { role } } }],
    schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    placement,
  },
});
const deployment = (name: string, role: string, priorityClassName: string, cpu: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', labels: { role } },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { priorityClassName, containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu } } }] } } },
});

const REGION_OF: Record<string, string> = { a1: 'r1', a2: 'r1', b1: 'r2', b2: 'r2', c1: 'r3', c2: 'r3' };
const STEPS: ScenarioStep[] = [
  {
    apply: [
      ...Object.entries({ a1: '4', a2: '2', b1: '3', b2: '3', c1: '2', c2: '2' }).map(([name, cpu]) => cluster(name, REGION_OF[name]!, cpu)),
      { ...priorityClass('low', 0), preemptionPolicy: 'Never' },
      priorityClass('urgent', 10),
      policy('fill-r3', 'filler', {
        clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['r3'] }] } },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      }),
      policy('every-region', 'web', {
        spreadConstraints: [
          { spreadByField: 'region', minGroups: 3, maxGroups: 3 },
          { spreadByField: 'cluster', minGroups: 3, maxGroups: 3 },
        ],
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      }),
      deployment('filler-1', 'filler', 'low', '2'),
      deployment('filler-2', 'filler', 'low', '2'),
    ],
  },
  { apply: [deployment('web', 'web', 'urgent', '1')] },
];

describe('spread by region on the local AWS endpoint (Karmada spread constraints; binding priority and preemption (000))', { timeout: 120_000 }, () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
  });
  afterAll(() => pipeline.stop());

  it('places the fillers in r3 only, then the urgent workload in every region, preempting one filler', async () => {
    for (const [index, step] of STEPS.entries()) {
      expect(await pipeline.step(step)).toEqual([]);
      await pipeline.settle();
      const simulated = await runScenario({ steps: STEPS.slice(0, index + 1) });
      expect(comparable(await pipeline.bindings())).toEqual(comparable(simulated.bindings));
      const allocations = await pipeline.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation');
      const report = checkInvariants({ clusters: await pipeline.store.list<Cluster>('cluster.karmada.io', 'Cluster'), bindings: await listBindings({ store: pipeline.store }), allocations, events: [] });
      expect(report.violations).toEqual([]);
    }

    const bindings = Object.fromEntries((await pipeline.bindings()).map((binding) => [binding.name, binding]));
    const web = bindings['web-deployment']!;
    expect(web.clusters.map((target) => REGION_OF[target.name]).sort()).toEqual(['r1', 'r2', 'r3']);
    expect(web.clusters.filter((target) => target.name.startsWith('a') || target.name.startsWith('b')).map((target) => target.name)).toEqual(['a1', 'b1']);
    const fillers = [bindings['filler-1-deployment']!, bindings['filler-2-deployment']!];
    expect(fillers.map((filler) => filler.conditions.find((c) => c.type === 'Scheduled')?.status).sort()).toEqual(['False', 'True']);
    const kept = fillers.find((filler) => filler.clusters.length > 0)!;
    expect(kept.clusters.map((target) => REGION_OF[target.name])).toEqual(['r3']);
    expect(web.clusters.map((target) => target.name)).not.toContain(kept.clusters[0]!.name);
    expect(pipeline.errors).toEqual([]);
  });
});

/** Delivers every batch to the handler twice before the poller moves on, as an at-least-once queue or stream may. */
const twice = <E>(handler: (event: E, context: Context) => Promise<unknown>) => async (event: E, context: Context) => {
  await handler(event, context);
  return handler(event, context);
};

describe('spread by region with every message delivered twice', { timeout: 120_000 }, () => {
  it('ends as outrank simulate does', async () => {
    const pipeline = await Pipeline.start({ wrap: { queue: twice, stream: twice } });
    try {
      for (const step of STEPS) {
        expect(await pipeline.step(step)).toEqual([]);
        await pipeline.settle();
      }
      expect(comparable(await pipeline.bindings())).toEqual(comparable((await runScenario({ steps: STEPS })).bindings));
      expect(pipeline.errors).toEqual([]);
    } finally {
      await pipeline.stop();
    }
  });
});
