/**
 * Property test: random fleets whose clusters are relabelled and tainted under load, through the real
 * controllers. Once each step has settled, no binding is placed on a cluster the affinity term it was
 * placed by refuses, and none on a cluster whose NoExecute taints evict it but while it is being evicted
 * from it (its gracefulEvictionTask open); once the grace periods are over, on none at all. Allocations
 * stay what the bindings occupy throughout.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Cluster } from '../../../lib/api/cluster';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { listBindings } from '../../../lib/controllers/binding-requests';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import { evictingFrom } from '../../../lib/scheduler/binding-filter';
import { noExecuteVerdict } from '../../../lib/scheduler/no-execute';
import { refusedTargets } from '../../../lib/scheduler/refused-targets';
import { applyAll, cluster, deployment, expectAllocationsMatchBindings, newSystem, propagationPolicy, refs, SPEC, type Manifest } from '../controllers/support';

const CLUSTERS = ['m0', 'm1', 'm2', 'm3'] as const;
type ClusterName = (typeof CLUSTERS)[number];
const ZONES = ['a', 'b'] as const;
const TIERS = ['gold', 'silver'] as const;

interface Labels {
  readonly zone?: (typeof ZONES)[number];
  readonly tier?: (typeof TIERS)[number];
}

const labelsArb: fc.Arbitrary<Labels> = fc.record({ zone: fc.constantFrom(...ZONES), tier: fc.constantFrom(...TIERS) }, { requiredKeys: [] });

/** What a workload's placement selects: a label selector, ordered groups of them, or names. */
const affinityArb: fc.Arbitrary<Manifest> = fc.oneof(
  fc.constantFrom(...ZONES).map((zone) => ({ clusterAffinity: { labelSelector: { matchLabels: { zone } } } })),
  fc.constantFrom(...TIERS).map((tier) => ({ clusterAffinity: { labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: [tier] }] } } })),
  fc.tuple(fc.constantFrom(...ZONES), fc.constantFrom(...TIERS)).map(([zone, tier]) => ({
    clusterAffinities: [
      { affinityName: 'first', labelSelector: { matchLabels: { zone, tier } } },
      { affinityName: 'then', labelSelector: { matchLabels: { zone } } },
      { affinityName: 'last', labelSelector: { matchExpressions: [{ key: 'tier', operator: 'Exists' }] } },
    ],
  })),
  fc.constantFrom(...CLUSTERS).map((excluded) => ({ clusterAffinity: { exclude: [excluded], labelSelector: { matchExpressions: [{ key: 'zone', operator: 'Exists' }] } } })),
);

const strategyArb: fc.Arbitrary<Manifest> = fc.constantFrom(
  {},
  { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
  { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted' } },
  { replicaScheduling: { replicaSchedulingType: 'Divided', weightPreference: { dynamicWeight: 'AvailableReplicas' } } },
);

const tolerationsArb: fc.Arbitrary<Manifest[]> = fc.constantFrom(
  [],
  [{ key: 'drain', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
  [{ key: 'drain', operator: 'Exists', effect: 'NoExecute' }],
  [{ key: 'maintenance', operator: 'Exists' }],
);

interface Workload {
  readonly placement: Manifest;
  readonly replicas: number;
}

const workloadArb: fc.Arbitrary<Workload> = fc
  .record({ affinity: affinityArb, strategy: strategyArb, tolerations: tolerationsArb, replicas: fc.integer({ min: 1, max: 3 }) })
  .map(({ affinity, strategy, tolerations, replicas }) => ({ placement: { ...affinity, ...strategy, clusterTolerations: tolerations }, replicas }));

type Operation =
  | { readonly op: 'relabel'; readonly cluster: ClusterName; readonly labels: Labels }
  | { readonly op: 'taint'; readonly cluster: ClusterName; readonly taint: 'none' | 'maintenance' | 'drain' }
  | { readonly op: 'scale'; readonly workload: number; readonly replicas: number }
  | { readonly op: 'wait'; readonly ms: number };

const clusterArb = fc.constantFrom(...CLUSTERS);
const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('relabel' as const), cluster: clusterArb, labels: labelsArb }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('taint' as const), cluster: clusterArb, taint: fc.constantFrom('none' as const, 'maintenance' as const, 'drain' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('scale' as const), workload: fc.nat({ max: 5 }), replicas: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.constantFrom(30_000, 61_000, 5 * 60_000) }) },
);

const TAINTS = {
  none: [],
  maintenance: [{ key: 'maintenance', effect: 'NoSchedule' }],
  drain: [{ key: 'drain', effect: 'NoExecute' }],
} as const;

function clusterManifest(name: ClusterName, labels: Labels, cpu: number): Manifest {
  return cluster(name, { cpu: String(cpu) }, { labels: { ...labels } });
}

async function perform(system: MemorySystem, operation: Operation, workloads: readonly Workload[]): Promise<void> {
  switch (operation.op) {
    case 'relabel':
      // The labels as a whole: those not given are removed.
      await system.objects.patch(refs.cluster(operation.cluster), { metadata: { labels: { zone: operation.labels.zone ?? null, tier: operation.labels.tier ?? null } } });
      return;
    case 'taint':
      await system.objects.patch(refs.cluster(operation.cluster), { spec: { taints: TAINTS[operation.taint] } });
      return;
    case 'scale': {
      const index = operation.workload % workloads.length;
      await system.objects.apply(deployment(`w${index}`, { replicas: operation.replicas }));
      return;
    }
    case 'wait':
      await system.advance(operation.ms);
  }
}

/** Where bindings sit that they should not, once settled: on refused clusters, or evicted from without an open eviction. */
async function misplaced(system: MemorySystem, now: number, evictionsOver: boolean): Promise<string[]> {
  const clusters = new Map((await system.store.list<Cluster>('cluster.karmada.io', 'Cluster')).map((c) => [c.metadata.name, c]));
  const clusterOf = (name: string) => clusters.get(name);
  const found: string[] = [];
  for (const binding of await listBindings(system.context)) {
    for (const target of refusedTargets(binding, clusterOf)) found.push(`${binding.metadata.name} on ${target.name}: refused by its affinity`);
    found.push(...evictedButHeld(binding, clusterOf, now, evictionsOver));
  }
  return found;
}

function evictedButHeld(binding: ResourceBinding, clusterOf: (name: string) => Cluster | undefined, now: number, evictionsOver: boolean): string[] {
  const tolerations = binding.spec.placement?.clusterTolerations ?? [];
  const evicting = evictingFrom(binding);
  return (binding.spec.clusters ?? []).flatMap((target) => {
    const cluster = clusterOf(target.name);
    if (!cluster) return [];
    if (evicting.has(target.name)) return evictionsOver ? [`${binding.metadata.name} on ${target.name}: still held after its grace period`] : [];
    return noExecuteVerdict(cluster, tolerations, now).evict === 'now' ? [`${binding.metadata.name} on ${target.name}: evicted by a NoExecute taint, no eviction open`] : [];
  });
}

describe(`clusters relabelled and tainted under load: bindings leave what their placement refuses (${SPEC.affinity}; Karmada updateCluster and taint manager)`, () => {
  it('settled after every step: nothing on a refused cluster, nothing held on an evicting one but during its eviction; after the grace periods, nothing held at all', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ labels: labelsArb, cpu: fc.integer({ min: 2, max: 8 }) }), { minLength: CLUSTERS.length, maxLength: CLUSTERS.length }),
        fc.array(workloadArb, { minLength: 1, maxLength: 6 }),
        fc.array(operationArb, { minLength: 3, maxLength: 14 }),
        async (fleet, workloads, operations) => {
          const system = newSystem();
          await applyAll(system, [
            ...fleet.map(({ labels, cpu }, index) => clusterManifest(CLUSTERS[index]!, labels, cpu)),
            ...workloads.flatMap((workload, index) => [
              propagationPolicy(`w${index}`, { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: `w${index}` }], placement: workload.placement }),
              deployment(`w${index}`, { replicas: workload.replicas, requests: { cpu: '500m' } }),
            ]),
          ]);
          for (const operation of operations) {
            system.clock.advance(1);
            await perform(system, operation, workloads);
            await system.runUntilIdle();
            expect({ step: operation, misplaced: await misplaced(system, system.clock.now(), false) }).toEqual({ step: operation, misplaced: [] });
            await expectAllocationsMatchBindings(system);
          }
          // The reconcile every minute, as its schedule runs it, until every toleration (60 s) and then
          // every grace period (10 minutes) is over.
          for (let minute = 0; minute < 12; minute += 1) {
            await system.advance(60_000);
            await system.runUntilIdle();
          }
          expect(await misplaced(system, system.clock.now(), true)).toEqual([]);
          await expectAllocationsMatchBindings(system);
          expect(system.handlerErrors).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
