import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { PriorityClass } from '../../../lib/api/priority-class';
import type { AnyPropagationPolicy } from '../../../lib/api/propagation-policy';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { ResourceTemplate, WorkloadTemplate } from '../../../lib/api/resource-template';
import { checkLostWork, defaultMaxWaitMs, type WorkState } from '../../../lib/check/lost-work';
import { withConfig } from '../../../lib/config';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { MemorySystem } from '../../../lib/runtime/memory-system';

const config = withConfig();
const MAX_WAIT = defaultMaxWaitMs(config);

const deployment = (name: string, options: { replicas?: number; cpu?: string; labels?: Record<string, string> } = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default', ...(options.labels ? { labels: options.labels } : {}) },
  spec: { replicas: options.replicas ?? 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: options.cpu ?? '1' } } }] } } },
});

const policy = (name: string, template: string) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace: 'default' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: template }], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
});

const CLUSTER = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1' },
  status: { resourceSummary: { allocatable: { cpu: '4', pods: '110' } } },
};

/** A settled system: "web" placed, "huge" (more than member1 holds) Unschedulable, "paused" never attempted. */
async function settled(): Promise<MemorySystem> {
  const system = new MemorySystem();
  for (const object of [CLUSTER, policy('web', 'web'), deployment('web'), policy('huge', 'huge'), deployment('huge', { cpu: '64' })]) {
    await system.objects.apply(object);
  }
  await system.runUntilIdle();
  return system;
}

async function stateOf(system: MemorySystem, deadLettered: WorkState['deadLettered'] = []): Promise<WorkState> {
  const { store } = system;
  return {
    templates: await store.list<ResourceTemplate>('apps', 'Deployment'),
    policies: [
      ...(await store.list<AnyPropagationPolicy>('policy.karmada.io', 'PropagationPolicy')),
      ...(await store.list<AnyPropagationPolicy>('policy.karmada.io', 'ClusterPropagationPolicy')),
    ],
    priorityClasses: await store.list<PriorityClass>('scheduling.k8s.io', 'PriorityClass'),
    clusters: await store.list<Cluster>('cluster.karmada.io', 'Cluster'),
    bindings: await listBindings(system),
    deadLettered,
  };
}

const bindingRef = (name: string) => ({ group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: `${name}-deployment` });
const templateRef = (name: string) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });

async function check(system: MemorySystem, deadLettered: WorkState['deadLettered'] = []) {
  return checkLostWork(await stateOf(system, deadLettered), { now: system.clock.now(), config, maxWaitMs: MAX_WAIT });
}

describe('outrank check: work lost on the way', () => {
  it('finds nothing on a settled system, an Unschedulable binding attempted within the flush included', async () => {
    expect(await check(await settled())).toEqual([]);
  });

  describe('PropagationPolicy priority and preemption (002): every template a policy claims has its binding, as its spec and policy make it', () => {
    it.each([
      {
        change: 'a binding lost (deleted past the controllers)',
        lose: async (system: MemorySystem) => {
          const binding = (await system.store.get<ResourceBinding>(bindingRef('web')))!;
          await system.store.transact([{ op: 'delete', ref: bindingRef('web'), expectedVersion: binding.metadata.resourceVersion! }]);
        },
        found: { object: 'Deployment default/web', message: 'claimed by PropagationPolicy default/web but has no binding' },
      },
      {
        change: "a template's spec change never handled",
        lose: async (system: MemorySystem) => {
          const template = (await system.store.get<WorkloadTemplate>(templateRef('web')))!;
          const scaled: WorkloadTemplate = { ...template, spec: { ...template.spec, replicas: 3 } };
          await system.store.transact([{ op: 'put', object: scaled, expectedVersion: template.metadata.resourceVersion! }]);
        },
        found: { object: 'Deployment default/web', message: 'ResourceBinding default/web-deployment does not follow its current spec and PropagationPolicy default/web' },
      },
      {
        change: "a template's deletion never handled",
        lose: async (system: MemorySystem) => {
          const template = (await system.store.get<ResourceTemplate>(templateRef('web')))!;
          await system.store.transact([{ op: 'delete', ref: templateRef('web'), expectedVersion: template.metadata.resourceVersion! }]);
        },
        found: { object: 'ResourceBinding default/web-deployment', message: 'its template Deployment default/web does not exist' },
      },
      {
        change: "its policy's deletion never handled",
        lose: async (system: MemorySystem) => {
          const ref = { group: 'policy.karmada.io', kind: 'PropagationPolicy', namespace: 'default', name: 'web' };
          const held = (await system.store.get<AnyPropagationPolicy>(ref))!;
          await system.store.transact([{ op: 'delete', ref, expectedVersion: held.metadata.resourceVersion! }]);
        },
        found: { object: 'Deployment default/web', message: 'no policy claims it, yet ResourceBinding default/web-deployment exists' },
      },
    ])('finds $change', async ({ lose, found }) => {
      const system = await settled();
      await lose(system);
      expect(await check(system)).toEqual([{ rule: 'template-bound-as-claimed', ...found }]);
    });
  });

  describe('binding priority and preemption (000), queue: a binding that needs scheduling is attempted, an unschedulable one again at the latest at the flush', () => {
    it('an Unschedulable binding that would be placed now, last attempted longer ago than the flush and a reconcile period, is reported', async () => {
      const system = await settled();
      // Room no controller heard of: the flush should have found it.
      const member1 = (await system.store.get<Cluster>({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name: 'member1' }))!;
      const grown = { ...member1, status: { resourceSummary: { allocatable: { cpu: '128', pods: '110' } } } };
      await system.store.transact([{ op: 'put', object: grown, expectedVersion: member1.metadata.resourceVersion ?? null }]);
      system.clock.advance(MAX_WAIT + 1_000);
      expect(await check(system)).toEqual([
        {
          rule: 'binding-attempted-within-flush',
          object: 'ResourceBinding default/huge-deployment',
          message: `waiting ${MAX_WAIT / 1000 + 1} s since its last scheduling attempt (at most ${MAX_WAIT / 1000} s), though it would be placed now`,
        },
      ]);
    });

    it('one that would not be placed now is waiting for room, not lost: the flush looks at it without an attempt', async () => {
      const system = await settled();
      system.clock.advance(MAX_WAIT + 1_000);
      expect(await check(system)).toEqual([]);
    });

    it('one the reconcile tried again within the flush is not', async () => {
      const system = await settled();
      await system.advance(config.unschedulableRequeueMs);
      await system.runUntilIdle();
      system.clock.advance(MAX_WAIT - config.unschedulableRequeueMs);
      expect(await check(system)).toEqual([]);
    });

    it('a binding never attempted is judged from its creation; a suspended one (scheduling suspension (003)) is not judged', async () => {
      const system = new MemorySystem();
      for (const object of [CLUSTER, policy('web', 'web'), deployment('web'), policy('paused', 'paused'), deployment('paused')]) await system.objects.apply(object);
      // The bindings are made and queued in their band, but no schedule cycle runs: as if the band's messages were lost.
      for (let deliveries = await system.policyChangeQueue.receive(10); deliveries.length > 0; deliveries = await system.policyChangeQueue.receive(10)) {
        for (const delivery of deliveries) await system.policyChange.handle(delivery.body);
        await system.policyChangeQueue.delete(deliveries.map((delivery) => delivery.receipt));
      }
      const paused = (await system.store.get<ResourceBinding>(bindingRef('paused')))!;
      const suspended = { ...paused, spec: { ...paused.spec, suspension: { scheduling: true } } };
      await system.store.transact([{ op: 'put', object: suspended, expectedVersion: paused.metadata.resourceVersion! }]);
      system.clock.advance(MAX_WAIT + 1_000);
      expect(await check(system)).toEqual([
        { rule: 'binding-attempted-within-flush', object: 'ResourceBinding default/web-deployment', message: `waiting ${MAX_WAIT / 1000 + 1} s since it was created, never attempted (at most ${MAX_WAIT / 1000} s)` },
      ]);
    });
  });

  it('a message given up on (in a dead-letter queue) is reported per queue', async () => {
    const system = await settled();
    expect(await check(system, [{ queue: 'policy-change', messages: 0 }, { queue: 'schedule-default', messages: 2 }])).toEqual([
      { rule: 'dead-letter-queue-empty', object: 'Queue schedule-default', message: '2 message(s) given up on' },
    ]);
  });
});
