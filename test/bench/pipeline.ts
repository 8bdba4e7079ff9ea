/**
 * Benchmark 3: the deployed pipeline in this process on the local AWS endpoint (moto). Deployments go
 * in through the API; the queue-triggered handlers run as the local event source mappings drive them
 * (test/integration/pipeline.ts does the same) until every queue is quiet.
 */
import type { Server } from 'node:http';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { startAwsEndpoint } from '../../functions/local/aws-endpoint';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { loadLocalFunctions, type LocalFunctions } from '../../functions/local/local-functions';
import { provisionResources } from '../../functions/local/local-runtime';
import type { SqsHandler } from '../../functions/local/sqs-poller';
import { AwsRequestCounter, type RequestCount } from './aws-requests';
import { manifestPath } from '../support/api-paths';
import { Random } from './random';
import { fmt, summarize, table } from './stats';

const CLUSTERS = 10;
const DEPLOYMENTS = 200;
const PRIORITY_CLASSES = [
  { name: 'batch', value: 10 },
  { name: 'service', value: 500 },
  { name: 'critical', value: 5_000 },
];
const POLLER = 'event source mappings';

/** The fleet, the priority classes and two policies: Duplicated on two named clusters for labelled apps, else spread by available replicas. */
function setupManifests(): object[] {
  const clusters = Array.from({ length: CLUSTERS }, (_, i) => ({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: `member-${String(i).padStart(2, '0')}` },
    status: { resourceSummary: { allocatable: { cpu: '1000', memory: '4Ti', pods: '10000' } } },
  }));
  const classes = PRIORITY_CLASSES.map(({ name, value }) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value }));
  const policy = (name: string, priority: number, selector: object, placement: object) => ({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace: 'default' },
    spec: { priority, resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', ...selector }], schedulePriority: { priorityClassSource: 'PodPriorityClass' }, placement },
  });
  return [
    ...clusters,
    ...classes,
    policy('duplicated', 10, { labelSelector: { matchLabels: { spread: 'duplicated' } } }, { clusterAffinity: { clusterNames: ['member-00', 'member-01'] } }),
    policy('divided', 0, {}, { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } } }),
  ];
}

function deployment(random: Random, index: number): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: `app-${String(index).padStart(3, '0')}`, namespace: 'default', ...(random.chance(0.3) ? { labels: { spread: 'duplicated' } } : {}) },
    spec: {
      replicas: random.int(1, 4),
      template: {
        spec: {
          priorityClassName: random.pick(PRIORITY_CLASSES).name,
          containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: random.pick(['100m', '250m', '500m', '1']), memory: random.pick(['128Mi', '512Mi', '1Gi']) } } }],
        },
      },
    },
  };
}

class Harness {
  constructor(
    private readonly url: string,
    private readonly functions: LocalFunctions,
    private readonly counter: AwsRequestCounter,
  ) {}

  async create(manifest: object): Promise<void> {
    const response = await fetch(`${this.url}${manifestPath(manifest as never)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(manifest),
    });
    if (response.status >= 300) throw new Error(`POST ${manifestPath(manifest as never)}: ${response.status} ${await response.text()}`);
  }

  /** As test/integration/pipeline.ts: polls every queue-triggered function until two rounds in a row find nothing. */
  async settle(): Promise<void> {
    this.counter.caller = POLLER;
    for (let quiet = 0; quiet < 2; ) {
      let handled = 0;
      for (const poller of this.functions.pollers) handled += await poller.pollOnce(0);
      quiet = handled === 0 ? quiet + 1 : 0;
    }
  }

  async bindings(): Promise<ResourceBinding[]> {
    const response = await fetch(`${this.url}/apis/work.karmada.io/v1alpha2/resourcebindings`);
    return ((await response.json()) as { items: ResourceBinding[] }).items;
  }
}

/** Attributes the AWS requests a handler makes to its function. */
function attributing(counter: AwsRequestCounter): (handler: SqsHandler) => SqsHandler {
  return (handler) => async (event, context) => {
    counter.caller = context.functionName.replace(/^outrank-/, '');
    try {
      return await handler(event, context);
    } finally {
      counter.caller = POLLER;
    }
  };
}

function scheduledAt(binding: ResourceBinding): number | undefined {
  const condition = binding.status?.conditions?.find((c) => c.type === 'Scheduled' && c.status === 'True');
  return condition?.lastTransitionTime === undefined ? undefined : Date.parse(condition.lastTransitionTime);
}

function requestTables(counts: readonly RequestCount[], scheduled: number): string {
  const callers = [...new Set(counts.map((c) => c.caller))].sort();
  const operations = [...new Set(counts.map((c) => `${c.service} ${c.operation}`))].sort();
  const at = (caller: string, operation: string) => counts.find((c) => c.caller === caller && `${c.service} ${c.operation}` === operation)?.count ?? 0;
  const rows = operations.map((operation) => {
    const total = callers.reduce((sum, caller) => sum + at(caller, operation), 0);
    return [operation, ...callers.map((caller) => at(caller, operation) || ''), total, fmt(total / scheduled)];
  });
  return table(['request', ...callers, 'total', 'per binding'], rows);
}

export interface PipelineResult {
  readonly markdown: string;
}

export async function pipelineBenchmark(log: (line: string) => void): Promise<PipelineResult> {
  const counter = new AwsRequestCounter();
  const detach = counter.attach();
  const endpoint = await startAwsEndpoint();
  let server: Server | undefined;
  try {
    process.env.AWS_ENDPOINT_URL = endpoint.url;
    log(`pipeline: AWS endpoint ${endpoint.url}${endpoint.started ? ' (moto_server started for this run)' : ''}`);
    const { clients, resources } = await provisionResources(`bench${Date.now().toString(36)}`, undefined);
    for (const url of Object.values(resources.bandQueueUrls)) counter.bandQueueUrls.add(url);
    const errors: unknown[] = [];
    const functions = await loadLocalFunctions(clients, resources, undefined, (error) => errors.push(error), attributing(counter));
    server = await startHttpGateway(functions.api, 0);
    const address = server.address();
    const harness = new Harness(`http://localhost:${typeof address === 'object' && address ? address.port : 0}`, functions, counter);

    counter.caller = 'api';
    for (const manifest of setupManifests()) await harness.create(manifest);
    await harness.settle();

    log(`pipeline: ${DEPLOYMENTS} deployments`);
    counter.reset();
    const random = new Random(3);
    const started = performance.now();
    counter.caller = 'api';
    for (let i = 0; i < DEPLOYMENTS; i++) await harness.create(deployment(random, i));
    const applied = performance.now();
    await harness.settle();
    const settled = performance.now();

    const bindings = await harness.bindings();
    const latencies = bindings.flatMap((binding) => {
      const done = scheduledAt(binding);
      const enqueued = counter.firstEnqueued.get(`${binding.metadata.namespace ?? ''}/${binding.metadata.name}`);
      return done === undefined || enqueued === undefined ? [] : [done - enqueued];
    });
    const scheduled = latencies.length;
    const latency = summarize(latencies);
    const counts = counter.list();
    const total = (filter: (c: RequestCount) => boolean) => counts.filter(filter).reduce((sum, c) => sum + c.count, 0);
    const transactions = total((c) => c.operation === 'TransactWriteItems');
    const sqsByFunctions = total((c) => c.service === 'SQS' && c.caller !== POLLER);
    const sqsAll = total((c) => c.service === 'SQS');
    const seconds = (settled - started) / 1000;

    const markdown = [
      `${DEPLOYMENTS} Deployments (seed 3; priority classes ${PRIORITY_CLASSES.map((p) => `${p.name} ${p.value}`).join(', ')}; 1–4 replicas; 30 % Duplicated`,
      `on two named clusters, the rest Divided by available replicas over ${CLUSTERS} clusters with room for all) created one by one`,
      'through the HTTP API, then the queue-triggered functions polled in turn, as test/integration does, until every',
      'queue is quiet; everything in this process but moto. The clock starts at the first POST.',
      '',
      table(
        ['bindings scheduled', 'not scheduled', 'seconds', 'bindings/s', 'of which API (s)', 'enqueue → Scheduled p50 ms', 'p99 ms', 'handler errors'],
        [[scheduled, bindings.length - scheduled, fmt(seconds), fmt(scheduled / seconds), fmt((applied - started) / 1000), fmt(latency.p50Ms), fmt(latency.p99Ms), errors.length]],
      ),
      '',
      'Latency runs from the `enqueuedAt` of the binding\'s first message on a priority band (read by the middleware from',
      'the SendMessageBatch) to the `lastTransitionTime` of its `Scheduled=True` condition. Each band is drained by one',
      'schedule-cycle invocation at a time, after the API has written every Deployment, so latency is mostly queueing.',
      '',
      `AWS requests during the run, counted per HTTP request (retries included) by SDK middleware on every client:`,
      '',
      requestTables(counts, scheduled),
      '',
      `Per scheduled binding: **${fmt(transactions / scheduled)} TransactWriteItems** (target 1), **${fmt(sqsByFunctions / scheduled)} SQS requests by the functions**`,
      `(target ≤ 3), ${fmt(sqsAll / scheduled)} counting the event source mappings' ReceiveMessage and DeleteMessageBatch.`,
    ].join('\n');
    return { markdown };
  } finally {
    detach();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    await endpoint.stop();
  }
}
