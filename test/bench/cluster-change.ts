/**
 * What one cluster change costs at fleet size, in store calls: the scale scenario's running fleet (its
 * policies select clusters by a region label) on 100 clusters, then changes to one cluster, each counted
 * per function through CountingStore (every function with a store and informers of its own, warm from the
 * fleet's creation, as warm Lambda execution environments are), from the API write to the last commit.
 */
import type { ObjectRef } from '../../lib/api/kinds';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { withConfig } from '../../lib/config';
import { listBindings } from '../../lib/controllers/binding-requests';
import { MemorySystem, type FunctionName } from '../../lib/runtime/memory-system';
import { CountingStore, emptyCounts, type StoreCounts } from '../support/counting-store';
import { scaleScenario } from './scale-scenario';
import { fmt, table } from './stats';

const CLUSTERS = 100;
const SIZES = [1_000, 10_000];
const FUNCTIONS: readonly FunctionName[] = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'];

interface Change {
  readonly label: string;
  readonly cluster: string;
  readonly patch: object;
}

/** Clusters member-000, member-003, … are in region eu (scale-scenario.ts), each holding about 1/100 of the bindings. */
const CHANGES: readonly Change[] = [
  { label: 'a label no policy reads', cluster: 'member-000', patch: { metadata: { labels: { team: 'platform' } } } },
  { label: 'its region label changed (eu → us)', cluster: 'member-000', patch: { metadata: { labels: { region: 'us' } } } },
  { label: 'a NoExecute taint none tolerates', cluster: 'member-003', patch: { spec: { taints: [{ key: 'maintenance', effect: 'NoExecute' }] } } },
];

interface ChangeCost {
  readonly workloads: number;
  readonly change: Change;
  /** Bindings placed on the cluster before the change. */
  readonly onCluster: number;
  /** Of those, the ones the change made leave (scheduled again). */
  readonly affected: number;
  readonly counts: Record<FunctionName, StoreCounts>;
}

const clusterRef = (name: string): ObjectRef => ({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name });

function placedOn(bindings: readonly ResourceBinding[], cluster: string): Set<string> {
  return new Set(bindings.filter((binding) => binding.spec.clusters?.some((target) => target.name === cluster)).map((binding) => binding.metadata.name));
}

async function costsAt(workloads: number, log: (line: string) => void): Promise<ChangeCost[]> {
  const counts = Object.fromEntries(FUNCTIONS.map((fn) => [fn, emptyCounts()])) as Record<FunctionName, StoreCounts>;
  const stores = new Map<FunctionName, CountingStore>();
  const system = new MemorySystem(withConfig(), (fn, store) => {
    const counting = new CountingStore(store, counts[fn]);
    stores.set(fn, counting);
    return counting;
  });
  log(`cluster-change: placing ${workloads} workloads on ${CLUSTERS} clusters`);
  for (const step of scaleScenario({ clusters: CLUSTERS, workloads, preemptors: 0 }).steps) {
    if (!('apply' in step)) continue;
    for (const manifest of step.apply) await system.objects.apply(manifest);
    await system.runUntilIdle();
  }
  // The reconcile's informers warm too, as its every-minute schedule keeps them; then a change that
  // concerns nothing, so that every function's informers have read what the fleet's creation wrote.
  await system.reconcile.run();
  await system.runUntilIdle();
  await system.objects.patch(clusterRef(`member-${String(CLUSTERS - 1).padStart(3, '0')}`), { metadata: { labels: { warm: 'yes' } } });
  await system.runUntilIdle();

  const costs: ChangeCost[] = [];
  for (const change of CHANGES) {
    log(`cluster-change: ${workloads} workloads, ${change.label}`);
    const before = placedOn(await listBindings({ store: system.store }), change.cluster);
    const attempts = system.metrics.counter('SchedulingAttempts', { result: 'scheduled' }) + system.metrics.counter('SchedulingAttempts', { result: 'unschedulable' });
    for (const store of stores.values()) store.reset();
    await system.objects.patch(clusterRef(change.cluster), change.patch);
    await system.runUntilIdle();
    const counted = Object.fromEntries(FUNCTIONS.map((fn) => [fn, { ...counts[fn], byMethod: { ...counts[fn].byMethod } }])) as Record<FunctionName, StoreCounts>;
    const affected = system.metrics.counter('SchedulingAttempts', { result: 'scheduled' }) + system.metrics.counter('SchedulingAttempts', { result: 'unschedulable' }) - attempts;
    costs.push({ workloads, change, onCluster: before.size, affected, counts: counted });
  }
  if (system.handlerErrors.length > 0) throw new Error(`cluster-change: handler errors: ${system.handlerErrors[0]!.message}`);
  return costs;
}

export async function clusterChangeBenchmark(log: (line: string) => void): Promise<string> {
  const costs: ChangeCost[] = [];
  for (const workloads of SIZES) costs.push(...(await costsAt(workloads, log)));
  const rows = costs.map((cost) => {
    const total = FUNCTIONS.reduce((sum, fn) => sum + cost.counts[fn].calls, 0);
    const byFunction = FUNCTIONS.filter((fn) => cost.counts[fn].calls > 0)
      .map((fn) => `${fn} ${cost.counts[fn].calls}`)
      .join(', ');
    const read = FUNCTIONS.reduce((sum, fn) => sum + cost.counts[fn].itemsRead, 0);
    const written = FUNCTIONS.reduce((sum, fn) => sum + cost.counts[fn].itemsWritten, 0);
    return [
      cost.workloads.toLocaleString('en-US'),
      cost.change.label,
      cost.onCluster,
      cost.affected,
      total,
      byFunction,
      read,
      written,
      cost.affected > 0 ? fmt(total / cost.affected) : '–',
    ];
  });
  return [
    `The scale scenario's running fleet (test/bench/scale-scenario.ts: one policy per Deployment selecting clusters by its`,
    `region label, replicas onto the fewest clusters) on ${CLUSTERS} clusters at ${SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} workloads, then one change`,
    'to one cluster through the API, handled until no work is left, each function with a store and informers of its own',
    '(test/support/counting-store.ts; the fleet leaves each cluster 600m cpu to spare, so most bindings that leave find no',
    'room and wait, an evicted one keeping the cluster for its grace period). "Attempts" are the scheduling attempts the',
    'change caused (one per binding that must leave). The reconcile is not part of a change: it runs every minute whatever',
    'happens.',
    '',
    table(['workloads', 'change', 'bindings on the cluster', 'attempts', 'store calls', 'by function', 'items read', 'items written', 'calls per attempt'], rows),
    '',
    'A change that makes no binding leave costs the same at every fleet size; one that does costs a few calls per binding',
    'it makes leave, whatever the fleet holds besides.',
  ].join('\n');
}
