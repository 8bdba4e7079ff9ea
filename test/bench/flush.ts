/**
 * The unschedulable flush at fleet size: the scale scenario's running fleet (10,000 workloads on 100
 * clusters), then a crowd of Deployments that find no room and wait. Each flush (the reconcile five
 * minutes after their last attempt) is timed and its messages counted, first with nothing changed, then
 * after room appeared on one cluster without any notification (the safety net's case).
 */
import type { Cluster } from '../../lib/api/cluster';
import { listBindings, requestScheduling } from '../../lib/controllers/binding-requests';
import { awaitsRoom } from '../../lib/controllers/unschedulable-flush';
import { MemorySystem } from '../../lib/runtime/memory-system';
import { referenceSeconds } from './reference';
import { scaleScenario } from './scale-scenario';
import { fmt, table } from './stats';

const CLUSTERS = 100;
const WORKLOADS = 10_000;
const WAITING = 1_250;
const FLUSH_MS = 5 * 60_000;
export function waitingDeployment(index: number) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `waiting-${index}`, namespace: 'fleet' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: `waiting-${index}` } },
      template: { metadata: { labels: { app: `waiting-${index}` } }, spec: { priorityClassName: 'batch-0', containers: [{ name: 'main', image: 'registry.example/app:1', resources: { requests: { cpu: '2', memory: '128Mi' } } }] } },
    },
  };
}

export function waitingPolicy(index: number) {
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

/** What the flush cost before it decided on the snapshot: every due waiting binding requested, each then attempted. */
async function sendEveryWaiting(system: MemorySystem): Promise<FlushRun> {
  system.clock.advance(FLUSH_MS);
  const waiting = (await listBindings(system.context)).filter(awaitsRoom);
  const started = performance.now();
  await requestScheduling(system.context, waiting, 'flush-before');
  const sendingMs = performance.now() - started;
  const handlingStarted = performance.now();
  await system.runUntilIdle();
  return { label: 'as before: every waiting binding sent', considered: waiting.length, placeable: 0, sent: waiting.length, reconcileMs: sendingMs, handlingMs: performance.now() - handlingStarted };
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
  for (const step of scaleScenario({ clusters: CLUSTERS, workloads: WORKLOADS, preemptors: 0 }).steps) {
    if (!('apply' in step)) continue;
    for (const manifest of step.apply) await system.objects.apply(manifest);
    await system.runUntilIdle();
  }
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
  log('flush: every waiting binding sent again, as the flush did before it decided on the snapshot');
  runs.push(await sendEveryWaiting(system));
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
      ['flush', 'waiting looked at', 'would be placed', 'messages sent', 'messages per waiting binding', 'reconcile ms', 'handling what it sent ms', 'both ÷ reference'],
      runs.map((run) => [run.label, run.considered, run.placeable, run.sent, fmt(run.sent / waiting), fmt(run.reconcileMs), fmt(run.handlingMs), ratio(run.reconcileMs + run.handlingMs)]),
    ),
    '',
    'The row "as before" sends every due waiting binding again, as the flush did before it decided on the snapshot (1',
    'message per waiting binding, then an attempt each in binding-enqueue and schedule-cycle; on the local endpoint each',
    'of those costs DynamoDB and SQS requests). Target: ≤ 0.05 messages per waiting binding per flush when nothing changed.',
  ].join('\n');
}

const LOCAL_CLUSTERS = 10;
const LOCAL_WAITING = 200;
const LOCAL_FLUSH_SECONDS = 5;

export function localManifest(kind: 'cluster' | 'policy' | 'deployment', name: string) {
  if (kind === 'cluster') {
    return { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name }, status: { resourceSummary: { allocatable: { cpu: '1', pods: '110' } } } };
  }
  if (kind === 'policy') {
    return {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name, namespace: 'default' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } } },
    };
  }
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'registry.example/app:1', resources: { requests: { cpu: '1' } } }] } },
    },
  };
}

/**
 * The same flush through the real handlers, queues and tables on the local AWS endpoint (what `npm
 * start` runs), with the flush interval set to a few seconds: the reconcile with nothing changed, then
 * every waiting binding sent again as the flush did before, each timed until the system settles.
 */
export async function localFlushBenchmark(log: (line: string) => void): Promise<string> {
  const { Pipeline } = await import('../integration/pipeline');
  const { awsControllerContext } = await import('../../functions/adapters/aws-context');
  const { parseSettings } = await import('../../functions/environment');
  const { systemClock } = await import('../../lib/ports/clock');
  const { MemoryMetrics } = await import('../../lib/memory/memory-metrics');
  const { AwsRequestCounter } = await import('./aws-requests');
  const { startAwsEndpoint, useEmulatorCredentials } = await import('../../functions/local/aws-endpoint');
  const settings = { unschedulableFlushSeconds: LOCAL_FLUSH_SECONDS };
  const counter = new AwsRequestCounter();
  const detach = counter.attach();
  const endpoint = await startAwsEndpoint();
  // The benchmarks after this one start their own endpoint when none is set: put back what was there.
  const endpointBefore = process.env.AWS_ENDPOINT_URL;
  process.env.AWS_ENDPOINT_URL = endpoint.url;
  const { provisionOn } = await import('../support/aws');
  useEmulatorCredentials();
  const pipeline = await Pipeline.start({ settings, provision: provisionOn });
  try {
    log(`flush (local endpoint): ${LOCAL_CLUSTERS} full clusters, ${LOCAL_WAITING} waiting Deployments`);
    const clusters = Array.from({ length: LOCAL_CLUSTERS }, (_, i) => localManifest('cluster', `member${i + 1}`));
    const holders = Array.from({ length: LOCAL_CLUSTERS }, (_, i) => localManifest('deployment', `holder-${i}`));
    const waiting = Array.from({ length: LOCAL_WAITING }, (_, i) => localManifest('deployment', `waiting-${i}`));
    await pipeline.step({ apply: [...clusters, localManifest('policy', 'all'), ...holders] });
    await pipeline.settle();
    await pipeline.step({ apply: waiting });
    await pipeline.settle();
    const unplaced = (await pipeline.bindings()).filter((binding) => binding.clusters.length === 0).length;
    await new Promise((resolve) => setTimeout(resolve, LOCAL_FLUSH_SECONDS * 1_000));

    const measure = async (label: string, cause: string, act: () => Promise<unknown>) => {
      counter.reset();
      const started = performance.now();
      await act();
      await pipeline.settle();
      const ms = performance.now() - started;
      const sent = counter.requestsByCause.get(cause) ?? 0;
      const requests = counter.list().reduce((sum, row) => sum + row.count, 0);
      return { label, sent, requests, ms };
    };
    const rows = [await measure('the reconcile, nothing changed', 'reconcile', () => pipeline.functions.reconcile())];
    const context = awsControllerContext(pipeline.aws.clients, pipeline.aws.resources, parseSettings(JSON.stringify(settings)).config, systemClock, new MemoryMetrics());
    const stored = await listBindings(context);
    rows.push(await measure('as before: every waiting binding sent', 'flush-before', () => requestScheduling(context, stored.filter(awaitsRoom), 'flush-before')));
    if (pipeline.errors.length > 0) throw new Error(`flush (local endpoint): handler errors: ${String(pipeline.errors[0])}`);
    const reference = referenceSeconds();
    return [
      `Through the real handlers, queues and tables on the local AWS endpoint (moto, as \`npm start\` runs them), flush interval`,
      `${LOCAL_FLUSH_SECONDS} s: ${LOCAL_CLUSTERS} clusters of 1 cpu, each full, and ${unplaced} Deployments of 1 cpu waiting for room. Each row runs until every`,
      'queue is empty again; AWS requests are every request the functions and their pollers made.',
      '',
      table(
        ['flush', 'messages sent', 'per waiting binding', 'AWS requests', 'runtime busy s', '÷ reference'],
        rows.map((row) => [row.label, row.sent, fmt(row.sent / unplaced), row.requests, fmt(row.ms / 1000), reference ? fmt(row.ms / 1000 / reference) : '–']),
      ),
    ].join('\n');
  } finally {
    detach();
    await pipeline.stop();
    await endpoint.stop();
    if (endpointBefore === undefined) delete process.env.AWS_ENDPOINT_URL;
    else process.env.AWS_ENDPOINT_URL = endpointBefore;
  }
}
