/**
 * Property: no valid object makes a poison message. Templates named with 1 to 253 characters in
 * namespaces of up to 63, of every template kind and 0 to 4 replicas, under Divided and Duplicated
 * placements onto clusters named with up to 48 (Karmada's longest), go through the real controllers (MemorySystem): every one is
 * taken and scheduled (placed, onto no cluster when it has nothing to place, or pending with a reason),
 * every message the controllers send is one its queue's consumer takes (functions/messages.ts, what
 * would otherwise go to the dead-letter queue), and `outrank check` finds nothing once the system settles
 * — after the workloads are scaled, one is deleted, and a cluster goes not ready.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { bindingRequestSchema, objectChangeSchema, queuedBindingSchema } from '../../../functions/messages';
import { bindingName } from '../../../lib/api/binding-name';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { isPlaced } from '../../../lib/api/resource-binding';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { isScheduledOntoNoCluster } from '../../../lib/controllers/scheduling-need';
import type { MemoryMessageQueue } from '../../../lib/memory/memory-message-queue';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { clusterNames, namespaceNames, objectNames } from '../../support/object-names';
import { outrankCheck } from '../check/support';
import { cluster, conditionOf, newSystem, type Manifest } from '../controllers/support';

const KINDS = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet' },
  { apiVersion: 'batch/v1', kind: 'Job' },
] as const;
type TemplateKind = (typeof KINDS)[number];

const PLACEMENTS = {
  Duplicated: () => ({ replicaSchedulingType: 'Duplicated' }),
  Aggregated: () => ({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }),
  DynamicWeight: () => ({ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } }),
  StaticWeight: (clusters: readonly string[]) => ({
    replicaSchedulingType: 'Divided',
    replicaDivisionPreference: 'Weighted',
    weightPreference: { staticWeightList: clusters.map((name, index) => ({ targetCluster: { clusterNames: [name] }, weight: index + 1 })) },
  }),
} as const;
type PlacementName = keyof typeof PLACEMENTS;

interface Workload {
  readonly name: string;
  readonly kind: TemplateKind;
  readonly replicas: number;
  readonly rescaled: number;
  readonly placement: PlacementName;
}

interface Scenario {
  readonly namespace: string;
  readonly clusters: readonly string[];
  readonly workloads: readonly Workload[];
}

const workload: fc.Arbitrary<Workload> = fc.record({
  name: objectNames,
  kind: fc.constantFrom(...KINDS),
  replicas: fc.integer({ min: 0, max: 4 }),
  rescaled: fc.integer({ min: 0, max: 4 }),
  placement: fc.constantFrom(...(Object.keys(PLACEMENTS) as PlacementName[])),
});

const scenario: fc.Arbitrary<Scenario> = fc.record({
  namespace: namespaceNames,
  clusters: fc.uniqueArray(clusterNames, { minLength: 2, maxLength: 2 }),
  // One template per name and kind: the same name of another kind is another template.
  workloads: fc.uniqueArray(workload, { minLength: 1, maxLength: 4, selector: (w) => `${w.kind.kind}/${w.name}` }),
});

function template(w: Workload, namespace: string, replicas: number): Manifest {
  const count = w.kind.kind === 'Job' ? { parallelism: replicas } : { replicas };
  return {
    apiVersion: w.kind.apiVersion,
    kind: w.kind.kind,
    metadata: { name: w.name, namespace },
    spec: {
      ...count,
      // apps/v1 requires the pods' selector; a Job's is made by the server.
      ...(w.kind.apiVersion === 'apps/v1' ? { selector: { matchLabels: { app: 'main' } } } : {}),
      template: { metadata: { labels: { app: 'main' } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '500m' } } }] } },
    },
  };
}

/** A policy of its own for each template, by name, so that each has the placement drawn for it. */
function policy(w: Workload, index: number, namespace: string, clusters: readonly string[]): Manifest {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: `p${index}`, namespace },
    spec: {
      resourceSelectors: [{ apiVersion: w.kind.apiVersion, kind: w.kind.kind, name: w.name }],
      placement: { replicaScheduling: PLACEMENTS[w.placement](clusters) },
    },
  };
}

/**
 * Checks every message sent to each queue as its consumer checks it, after the JSON it travels as: a
 * body refused there would be received again and again until the dead-letter queue took it.
 */
function checkEverySend(system: MemorySystem, refused: string[]): void {
  const watch = <T>(queue: MemoryMessageQueue<T>, schema: z.ZodType) => {
    const send = queue.send.bind(queue);
    queue.send = async (messages) => {
      for (const message of messages) {
        const result = schema.safeParse(JSON.parse(JSON.stringify(message.body)));
        if (!result.success) refused.push(`${queue.name}: ${result.error.message}`);
      }
      return send(messages);
    };
  };
  watch(system.policyChangeQueue, objectChangeSchema);
  watch(system.bindingEnqueueQueue, bindingRequestSchema);
  for (const band of system.bandQueues.values()) watch(band, queuedBindingSchema);
}

async function settle(system: MemorySystem): Promise<void> {
  await system.runUntilIdle();
  // The reconcile's next run and the unschedulable flush: nothing left behind.
  await system.advance(5 * 60_000);
  await system.runUntilIdle();
}

async function expectSettledAndClean(system: MemorySystem, live: readonly Workload[], namespace: string, refused: readonly string[]): Promise<void> {
  expect({ refused, handlerErrors: system.handlerErrors.map(String) }).toEqual({ refused: [], handlerErrors: [] });
  const bindings = await listBindings(system.context);
  expect(bindings.map((b) => b.metadata.name).sort()).toEqual(live.map((w) => bindingName(w.name, w.kind.kind)).sort());
  for (const binding of bindings) {
    expect(binding.metadata.namespace).toBe(namespace);
    expect(binding.metadata.name.length).toBeLessThanOrEqual(253);
    expect(scheduledOrPendingWithReason(binding), JSON.stringify({ clusters: binding.spec.clusters, status: binding.status })).toBe(true);
  }
  expect(await outrankCheck(system)).toEqual([]);
}

/** Scheduled (placed, or onto no cluster with nothing to place), or its last attempt failed with a reason and a message (a placed one keeps its placement). */
function scheduledOrPendingWithReason(binding: ResourceBinding): boolean {
  const scheduled = conditionOf(binding, 'Scheduled');
  if (scheduled?.status === 'True') return isPlaced(binding) || isScheduledOntoNoCluster(binding);
  return scheduled?.status === 'False' && Boolean(scheduled.reason) && Boolean(scheduled.message);
}

async function run({ namespace, clusters, workloads }: Scenario): Promise<void> {
  const system = newSystem();
  const refused: string[] = [];
  checkEverySend(system, refused);
  for (const name of clusters) await system.objects.apply(cluster(name, { cpu: '4', pods: '110' }));
  for (const [index, w] of workloads.entries()) await system.objects.apply(policy(w, index, namespace, clusters));
  for (const w of workloads) await system.objects.apply(template(w, namespace, w.replicas));
  await settle(system);
  await expectSettledAndClean(system, workloads, namespace, refused);

  // Scaled (0 to n and back), one deleted, a cluster not ready: causes that name the longest objects.
  for (const w of workloads) await system.objects.apply(template(w, namespace, w.rescaled));
  const [gone, ...live] = workloads;
  await system.objects.delete({ group: gone!.kind.apiVersion.split('/')[0]!, kind: gone!.kind.kind, namespace, name: gone!.name });
  await system.objects.apply(cluster(clusters[0]!, { cpu: '4', pods: '110' }, { ready: false }));
  await settle(system);
  await expectSettledAndClean(system, live, namespace, refused);
}

const DEPLOYMENT = KINDS[0];
const JOB = KINDS[3];

/**
 * Found by this property: a waiting Divided Job scaled to 0 is woken, when room is freed, for no cluster;
 * a request with an empty wokenFor was refused by binding-enqueue.
 */
const wokenForNoCluster: Scenario = {
  namespace: 'a',
  clusters: ['a'.repeat(48), 'a'],
  workloads: [
    { name: 'a', kind: DEPLOYMENT, replicas: 3, rescaled: 0, placement: 'Duplicated' },
    { name: 'i', kind: DEPLOYMENT, replicas: 4, rescaled: 0, placement: 'Duplicated' },
    { name: 'a', kind: JOB, replicas: 3, rescaled: 0, placement: 'StaticWeight' },
  ],
};

describe('valid objects of the longest names, every placement and 0 replicas', () => {
  it('are scheduled, every message is taken, and outrank check finds nothing when settled', async () => {
    await fc.assert(fc.asyncProperty(scenario, run), { numRuns: 150, examples: [[wokenForNoCluster]] });
  });
});
