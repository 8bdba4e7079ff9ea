/**
 * The unschedulable flush at fleet size: the scale scenario's running fleet (10,000 workloads on 100
 * clusters), then a crowd of Deployments that find no room and wait. Each flush (the reconcile five
 * minutes after their last attempt) is timed and its messages counted, first with nothing changed, then
 * after room appeared on one cluster without any notification (the safety net's case).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Cluster } from '../../lib/api/cluster';
import { MemorySystem } from '../../lib/runtime/memory-system';
import { scaleScenario } from './scale-scenario';
import { fmt, table } from './stats';

const CLUSTERS = 100;
const WORKLOADS = 10_000;
const WAITING = 1_250;
const FLUSH_MS = 5 * 60_000;
const CALIBRATE = fileURLToPath(new URL('../../../shared/bench/calibrate.mjs', import.meta.url));

/** The host's reference time (../shared/bench/calibrate.mjs), or undefined where the script is not beside the project. */
export function referenceSeconds(): number | undefined {
  try {
    return Number(execFileSync(process.execPath, [CALIBRATE], { encoding: 'utf8' }).trim());
  } catch {
    return undefined;
  }
}

function waitingDeployment(index: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `waiting-${index}`, namespace: 'fleet' },
    spec: {
      replicas: 1,
      template: { spec: { priorityClassName: 'batch-0', containers: [{ name: 'main', image: 'registry.example/app:1', resources: { requests: { cpu: '2', memory: '128Mi' } } }] } },
    },
  };
}

function waitingPolicy(index: number) {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: `waiting-${index}`, namespace: 'fleet' },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: `waiting-${index}` }],
      schedulePriority: { priorityClassSource: 'PodPriorityClass' },
      placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } },
    },
  };
}

interface FlushRun {
  readonly label: string;
  readonly considered: number;
  readonly placeable: number;
  readonly sent: number;
  readonly reconcileMs: number;
  readonly handlingMs: number;
}

async function flush(system: MemorySystem, label: string): Promise<FlushRun> {
  system.clock.advance(FLUSH_MS);
  const heldBefore = system.bindingEnqueueQueue.held();
  let started = performance.now();
  const report = await system.reconcile.run();
  const reconcileMs = performance.now() - started;
  const sent = system.bindingEnqueueQueue.held() - heldBefore;
  started = performance.now();
  await system.runUntilIdle();
  return { label, considered: report.flush.considered, placeable: report.flush.placeable, sent, reconcileMs, handlingMs: performance.now() - started };
}

/** Room for four waiting bindings on one cluster, written past the controllers (no policy-change message). */
async function growSilently(system: MemorySystem): Promise<void> {
  const ref = { group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name: 'member-000' };
  const cluster = (await system.store.get<Cluster>(ref))!;
  const allocatable = cluster.status!.resourceSummary!.allocatable!;
  const grown: Cluster = { ...cluster, status: { resourceSummary: { allocatable: { ...allocatable, cpu: `${Number.parseInt(String(allocatable.cpu), 10) + 8_000}m` } } } };
  await system.store.transact([{ op: 'put', object: grown, expectedVersion: cluster.metadata.resourceVersion ?? null }]);
  await system.policyChangeQueue.delete((await system.policyChangeQueue.receive(10)).map((delivery) => delivery.receipt));
}

export async function flushBenchmark(log: (line: string) => void): Promise<string> {
  const system = new MemorySystem();
  log(`flush: placing ${WORKLOADS} workloads on ${CLUSTERS} clusters`);
  const [fleet] = scaleScenario({ clusters: CLUSTERS, workloads: WORKLOADS, preemptors: 0 }).steps;
  for (const manifest of 'apply' in fleet! ? fleet.apply : []) await system.objects.apply(manifest);
  await system.runUntilIdle();
  log(`flush: ${WAITING} Deployments that find no room`);
  for (let index = 0; index < WAITING; index += 1) {
    await system.objects.apply(waitingPolicy(index));
    await system.objects.apply(waitingDeployment(index));
  }
  await system.runUntilIdle();
  const waiting = system.metrics.counter('SchedulingAttempts', { result: 'unschedulable' });
  if (system.handlerErrors.length > 0) throw new Error(`flush: handler errors: ${system.handlerErrors[0]!.message}`);

  const runs: FlushRun[] = [];
  for (let round = 1; round <= 2; round += 1) {
    log(`flush: round ${round}, nothing changed`);
    runs.push(await flush(system, `${round === 1 ? 'first' : 'second'} flush, nothing changed`));
  }
  await growSilently(system);
  log('flush: after room for four appeared unannounced');
  runs.push(await flush(system, 'room for 4 appeared on one cluster, unannounced'));
  const reference = referenceSeconds();
  const ratio = (ms: number) => (reference ? fmt(ms / 1000 / reference) : '–');

  return [
    `The scale scenario's running fleet (${WORKLOADS.toLocaleString('en-US')} workloads on ${CLUSTERS} clusters, test/bench/scale-scenario.ts), then`,
    `${WAITING.toLocaleString('en-US')} Deployments of 2 cpu (priority 0, preemption Never) that find no room: ${waiting.toLocaleString('en-US')} unschedulable after their first`,
    'attempt. Each flush is the reconcile 5 minutes after the last attempts, on the in-memory system: its run (the pass',
    'over the live snapshot that decides which waiting bindings the scheduler would place now), then the handling of',
    `what it sent. Reference time of this host (../shared/bench/calibrate.mjs, same run): ${reference ? `${fmt(reference)} s` : 'not available'}.`,
    '',
    table(
      ['flush', 'waiting looked at', 'would be placed', 'messages sent', 'messages per waiting binding', 'reconcile ms', '÷ reference', 'handling what it sent ms'],
      runs.map((run) => [run.label, run.considered, run.placeable, run.sent, fmt(run.sent / waiting), fmt(run.reconcileMs), ratio(run.reconcileMs), fmt(run.handlingMs)]),
    ),
    '',
    'Before the flush decided on the snapshot, every due waiting binding was sent again at each flush (1 message per',
    'waiting binding, then an attempt each in binding-enqueue and schedule-cycle); target ≤ 0.05 when nothing changed.',
  ].join('\n');
}
