/**
 * The pipeline on the local AWS endpoint (moto), and the same on the in-memory ports. Deployments and
 * their policies go in through the HTTP API; policy-change and binding-enqueue run as the local event
 * source mappings drive them; schedule-cycle runs as four concurrent cycles, each with clients and
 * informers of its own as four Lambda execution environments would have. The fleet fills the clusters,
 * then high-priority workloads arrive and must preempt, so cycles conflict on the same clusters.
 */
import type { Server } from 'node:http';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { withConfig } from '../../lib/config';
import { ScheduleCycleController } from '../../lib/controllers/schedule-cycle';
import { MemoryMetrics } from '../../lib/memory/memory-metrics';
import { systemClock } from '../../lib/ports/clock';
import { MemorySystem } from '../../lib/runtime/memory-system';
import { awsClients, awsControllerContext } from '../../functions/adapters/aws-context';
import { withOutbox } from '../../functions/adapters/outbox';
import { startAwsEndpoint } from '../../functions/local/aws-endpoint';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { loadLocalFunctions, type HandlerWrappers, type LocalFunctions } from '../../functions/local/local-functions';
import { provisionResources } from '../../functions/local/local-runtime';
import type { Context, SQSEvent } from 'aws-lambda';
import { manifestPath } from '../support/api-paths';
import { AwsRequestCounter, type RequestCount } from './aws-requests';
import { ownPolicy } from './scale-scenario';
import { perReference } from './reference';
import { fmt, summarize, table } from './stats';

/** 2,000 workloads on 20 clusters: few clusters, so that concurrent cycles often decide on the same one. */
const CLUSTERS = 20;
const RUNNING = 1_800;
const ARRIVING = 200;
const CYCLES = 4;
const POLLER = 'event source mappings';
/**
 * Objects POSTed between two rounds of the functions, as clients and functions run side by side in a
 * deployment: the queues stay short (moto's FIFO queues slow down with their depth, SQS's do not).
 */
const CHUNK = 100;
/** Lambda memory the stack gives every function (cdk/handler-function.ts). */
const FUNCTION_GB = 0.5;

/**
 * us-east-1 list prices: Lambda arm64 per GB-second and per request; DynamoDB on demand per write and
 * read request unit; SQS FIFO per request (64 KB chunks).
 */
const PRICES = { lambdaGbSecond: 0.0000133334, lambdaRequest: 0.2e-6, writeUnit: 0.625e-6, readUnit: 0.125e-6, sqsFifoRequest: 0.5e-6 };

/** Clusters sized so that the running fleet fits with 1 cpu to spare on each: the arrivals must preempt. */
function setupManifests(): object[] {
  const perCluster = Math.ceil((RUNNING * 0.5) / CLUSTERS) + 1;
  return [
    ...Array.from({ length: CLUSTERS }, (_, i) => ({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: `member-${String(i).padStart(2, '0')}` },
      status: { resourceSummary: { allocatable: { cpu: String(perCluster), memory: '4Ti', pods: '10000' } } },
    })),
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'batch' }, value: 10 },
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'critical' }, value: 5_000 },
  ];
}

/** A Deployment and its own PropagationPolicy (by name, Divided onto the fewest clusters). */
function workload(name: string, priorityClassName: string, cpu: string): object[] {
  return [
    ownPolicy(name, 'default'),
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace: 'default' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { priorityClassName, containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu, memory: '128Mi' } } }] } },
      },
    },
  ];
}

function workloads(): { running: object[]; arriving: object[] } {
  return {
    running: Array.from({ length: RUNNING }, (_, i) => workload(`run-${String(i).padStart(4, '0')}`, 'batch', '500m')).flat(),
    arriving: Array.from({ length: ARRIVING }, (_, i) => workload(`urgent-${String(i).padStart(3, '0')}`, 'critical', '1')).flat(),
  };
}

/** Wall time each function spent in its handlers, for the Lambda GB-seconds of the cost line. */
class Durations {
  readonly ms = new Map<string, number>();
  /** The message groups of the schedule ticks delivered since last asked: a cycle runs for each, side by side. */
  readonly tickGroups = new Set<string>();
  add(caller: string, ms: number): void {
    this.ms.set(caller, (this.ms.get(caller) ?? 0) + ms);
  }
}

class Harness {
  private readonly cycles: ScheduleCycleController[];
  readonly cycleMetrics = Array.from({ length: CYCLES }, () => new MemoryMetrics());
  /** Per number of cycles run at once (index 1–4): the rounds, and the commits those rounds made. */
  readonly concurrency = Array.from({ length: CYCLES + 1 }, () => ({ rounds: 0, commits: 0 }));

  constructor(
    private readonly url: string,
    private readonly functions: LocalFunctions,
    private readonly counter: AwsRequestCounter,
    private readonly durations: Durations,
    resources: Parameters<typeof awsControllerContext>[1],
  ) {
    const config = withConfig();
    this.cycles = this.cycleMetrics.map((metrics) => new ScheduleCycleController(awsControllerContext(awsClients(), resources, config, systemClock, metrics)));
  }

  async create(manifests: readonly object[]): Promise<void> {
    this.counter.caller = 'api';
    const started = performance.now();
    for (const manifest of manifests) {
      const response = await fetch(`${this.url}${manifestPath(manifest as never)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(manifest),
      });
      if (response.status >= 300) throw new Error(`POST ${manifestPath(manifest as never)}: ${response.status} ${await response.text()}`);
    }
    this.durations.add('api', performance.now() - started);
  }

  /**
   * The event source mappings in turn, the tick queue's until it is empty (one tick to an invocation),
   * then a cycle for each message group the ticks came in, side by side (one tick of a group is in flight
   * at a time; one cycle when no tick came, as the schedule starts one every minute), until two rounds
   * in a row find nothing.
   */
  async settle(): Promise<void> {
    for (let quiet = 0; quiet < 2; ) {
      let handled = 0;
      this.counter.caller = POLLER;
      for (const poller of this.functions.pollers) handled += await poller.pollOnce(0);
      while (this.durations.tickGroups.size > 0 && (await this.functions.ticks.pollOnce(0)) > 0) handled += 1;
      this.counter.caller = 'schedule-cycle';
      const started = performance.now();
      const running = this.cycles.slice(0, Math.max(1, Math.min(CYCLES, this.durations.tickGroups.size)));
      this.durations.tickGroups.clear();
      const reports = await Promise.all(running.map((cycle) => withOutbox({ holdSends: false }, () => cycle.run())));
      this.durations.add('schedule-cycle', (performance.now() - started) * running.length);
      const round = this.concurrency[running.length]!;
      round.rounds += 1;
      round.commits += reports.reduce((sum, r) => sum + r.scheduled, 0);
      handled += reports.reduce((sum, r) => sum + r.scheduled + r.unschedulable + r.skipped + r.failed, 0);
      quiet = handled === 0 ? quiet + 1 : 0;
    }
  }

  async bindings(): Promise<ResourceBinding[]> {
    const response = await fetch(`${this.url}/apis/work.karmada.io/v1alpha2/resourcebindings`);
    return ((await response.json()) as { items: ResourceBinding[] }).items;
  }
}

/** Attributes the AWS requests and the time of a queue-triggered handler to its function; the tick queue's are acknowledged only. */
function attributing(counter: AwsRequestCounter, durations: Durations): HandlerWrappers {
  const wrap = <E extends { Records: unknown[] }>(handler: (event: E, context: Context) => Promise<unknown>) => async (event: E, context: Context) => {
    const caller = context.functionName.replace(/^outrank-/, '');
    // The harness's cycles stand for what the ticks start.
    if (caller === 'schedule-cycle') {
      for (const record of (event as SQSEvent).Records) durations.tickGroups.add(record.attributes.MessageGroupId ?? '');
      return {};
    }
    counter.caller = caller;
    const started = performance.now();
    try {
      return await handler(event, context);
    } finally {
      durations.add(caller, performance.now() - started);
      counter.caller = POLLER;
    }
  };
  return { queue: wrap, stream: wrap };
}

/** The cycles' counts at the end of a phase (from the start of the run). */
interface PhaseCounts {
  readonly phase: string;
  readonly commits: number;
  readonly conflicts: number;
  /** Decisions with victims: each is counted once, then commits or conflicts. */
  readonly evicting: number;
  readonly evictingConflicts: number;
  readonly victimConflicts: number;
}

/**
 * The target on the cycles side by side: at most 10 % of the attempts to commit a preemption conflict
 * (the arrivals' decisions that evict), besides the arrivals' commits as a whole.
 */
function preemptorConflicts(phases: readonly PhaseCounts[]): string {
  const [filling, arrivals] = phases;
  if (!filling || !arrivals) return '';
  const attempts = arrivals.evicting - filling.evicting;
  const conflicted = arrivals.evictingConflicts - filling.evictingConflicts;
  const rate = (100 * conflicted) / Math.max(1, attempts);
  const arrivalConflicts = arrivals.conflicts - filling.conflicts;
  const arrivalAttempts = arrivals.commits - filling.commits + arrivalConflicts;
  return [
    `Preemptor commits conflicting: **${conflicted} of ${attempts} attempts to commit a preemption (${fmt(rate)} %)**, target ≤ 10 %: ${rate <= 10 ? 'met' : 'missed'}.`,
    `Of all the arrivals' attempts to commit, those placed without eviction included: ${arrivalConflicts} of ${arrivalAttempts} (${fmt((100 * arrivalConflicts) / Math.max(1, arrivalAttempts))} %).`,
  ].join('\n');
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

/**
 * Request units from request counts, assuming every item is at most 2 KB (a binding as written here is
 * 1–2 KB) and a consistent read of one item or of a keys-only page costs one read unit: a transaction
 * item two write units per KB, a put one per KB; a get, a query and each item of a batch get one read unit.
 */
function requestUnits(counts: readonly RequestCount[], transactItems: number): { read: number; write: number } {
  const total = (operation: string) => counts.filter((c) => c.operation === operation).reduce((sum, c) => sum + c.count, 0);
  return {
    write: transactItems * 2 * 2 + total('PutItem') * 2 + total('DeleteItem') * 2,
    read: total('GetItem') + total('Query') + total('BatchGetItem') * 10,
  };
}

/** What the handlers threw, each distinct first line once with how often: a count alone does not say what went wrong. */
function handlerErrorLines(errors: readonly unknown[]): string[] {
  const counts = new Map<string, number>();
  for (const error of errors) {
    const line = (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).split('\n')[0]!;
    counts.set(line, (counts.get(line) ?? 0) + 1);
  }
  if (counts.size === 0) return [];
  return ['', 'Handler errors, by first line:', '', ...[...counts].map(([line, count]) => `- ${count} × ${line}`)];
}

export interface PipelineResult {
  readonly markdown: string;
}

export async function pipelineBenchmark(log: (line: string) => void): Promise<PipelineResult> {
  const counter = new AwsRequestCounter();
  const detach = counter.attach();
  const endpoint = await startAwsEndpoint();
  // The benchmarks after this one start their own endpoint when none is set: put back what was there.
  const endpointBefore = process.env.AWS_ENDPOINT_URL;
  let server: Server | undefined;
  try {
    process.env.AWS_ENDPOINT_URL = endpoint.url;
    log(`pipeline: AWS endpoint ${endpoint.url}${endpoint.started ? ' (moto_server started for this run)' : ''}`);
    const { clients, resources } = await provisionResources(`bench${Date.now().toString(36)}`, undefined);
    for (const url of Object.values(resources.bandQueueUrls)) counter.bandQueueUrls.add(url);
    const errors: unknown[] = [];
    const durations = new Durations();
    const functions = await loadLocalFunctions(clients, resources, undefined, (error) => errors.push(error), { wrap: attributing(counter, durations) });
    server = await startHttpGateway(functions.api, 0);
    const address = server.address();
    const harness = new Harness(`http://localhost:${typeof address === 'object' && address ? address.port : 0}`, functions, counter, durations, resources);
    const { running, arriving } = workloads();

    await harness.create(setupManifests());
    await harness.settle();
    counter.reset();
    durations.ms.clear();
    const started = performance.now();
    const cycleSum = (name: string, dimensions?: Record<string, string>) => harness.cycleMetrics.reduce((total, m) => total + m.counter(name, dimensions), 0);
    /** Commits and conflicts counted at the end of each phase; of them, the attempts to commit a preemption and their conflicts. */
    const phases: PhaseCounts[] = [];
    for (const [phase, manifests] of [['running', running], ['arriving', arriving]] as const) {
      log(`pipeline: ${manifests.length / 2} ${phase} workloads`);
      for (let start = 0; start < manifests.length; start += CHUNK) {
        await harness.create(manifests.slice(start, start + CHUNK));
        await harness.settle();
        if ((start / CHUNK) % 5 === 4) log(`pipeline: ${(start + CHUNK) / 2} ${phase} workloads written and settled`);
      }
      phases.push({
        phase,
        commits: cycleSum('SchedulingAttempts', { result: 'scheduled' }),
        conflicts: cycleSum('CommitConflicts'),
        // Every decision with victims is counted once as a victim search, then commits or conflicts.
        evicting: cycleSum('VictimSearches', { result: 'exact' }) + cycleSum('VictimSearches', { result: 'bounded' }),
        evictingConflicts: cycleSum('PreemptionConflicts', { on: 'victim' }) + cycleSum('PreemptionConflicts', { on: 'other' }),
        victimConflicts: cycleSum('PreemptionConflicts', { on: 'victim' }),
      });
    }
    const seconds = (performance.now() - started) / 1000;

    const bindings = await harness.bindings();
    const latencies = bindings.flatMap((binding) => {
      const done = scheduledAt(binding);
      const enqueued = counter.firstEnqueued.get(`${binding.metadata.namespace ?? ''}/${binding.metadata.name}`);
      return done === undefined || enqueued === undefined ? [] : [done - enqueued];
    });
    const latency = summarize(latencies);
    const commits = cycleSum('SchedulingAttempts', { result: 'scheduled' });
    const conflicts = cycleSum('CommitConflicts');
    const preemptions = cycleSum('BindingPreemptions');
    const counts = counter.list();
    const total = (filter: (c: RequestCount) => boolean) => counts.filter(filter).reduce((s, c) => s + c.count, 0);
    const dynamodb = total((c) => c.service === 'DynamoDB');
    const sqs = total((c) => c.service === 'SQS');
    const sqsByFunctions = total((c) => c.service === 'SQS' && c.caller !== POLLER);
    const streamReads = total((c) => c.service === 'DynamoDB Streams');
    // An upper bound: a poll that found nothing starts no invocation.
    const invocations = total((c) => c.caller === POLLER && (c.operation === 'ReceiveMessage' || c.operation === 'GetRecords')) + commits / 10;
    const units = requestUnits(counts, commits * 2);
    const gbSeconds = ([...durations.ms.values()].reduce((s, ms) => s + ms, 0) / 1000) * FUNCTION_GB;
    const dollars = {
      lambda: gbSeconds * PRICES.lambdaGbSecond + invocations * PRICES.lambdaRequest,
      dynamodb: units.write * PRICES.writeUnit + units.read * PRICES.readUnit,
      sqs: sqs * PRICES.sqsFifoRequest,
    };
    const perMillion = (value: number) => fmt((value / commits) * 1e6);

    const markdown = [
      `${RUNNING.toLocaleString('en-US')} Deployments at priority 10 (500m cpu, one PropagationPolicy each, Divided onto the fewest clusters) fill ${CLUSTERS}`,
      `clusters with 1 cpu to spare on each; then ${ARRIVING} at priority 5,000 (1 cpu) arrive and must preempt. Each object is`,
      `POSTed through the HTTP API, ${CHUNK} objects at a time, each batch followed by rounds of the functions until all is quiet:`,
      'policy-change (the objects table\'s stream and its queue) and binding-enqueue are polled as their event source mappings would poll them;',
      `schedule-cycle runs as up to ${CYCLES} concurrent cycles, one per message group of the ticks delivered (one when none was, as the schedule`,
      'starts one every minute), each with its own clients, informers and live snapshot. Everything',
      'in this process but the emulator. The clock starts at the first POST of the running fleet. The wall-clock figures',
      'here are the emulator\'s (a moto started here runs with the changes in functions/local/moto/),',
      'the request counts are what carries over to DynamoDB.',
      '',
      table(
        ['bindings', 'scheduling commits', 'preemptions', 'seconds', '÷ reference', 'commits/s', 'enqueue → Scheduled p50 ms', 'p99 ms', 'commit conflicts', 'conflict rate', 'handler errors'],
        [[bindings.length, commits, preemptions, fmt(seconds), perReference(seconds), fmt(commits / seconds), fmt(latency.p50Ms), fmt(latency.p99Ms), conflicts, `${fmt((100 * conflicts) / Math.max(1, commits))} %`, errors.length]],
      ),
      ...handlerErrorLines(errors),
      '',
      'Schedule-cycle rounds by how many cycles ran at once (one per message group of the ticks delivered since the last round),',
      'and the commits they made: the conflict rate is that of the commits made beside other cycles.',
      '',
      table(
        ['cycles at once', 'rounds', 'commits'],
        harness.concurrency.flatMap((round, cycles) => (round.rounds === 0 ? [] : [[cycles, round.rounds, round.commits]])),
      ),
      '',
      'By phase: filling the clusters (placements only) and the arrivals (preemption); of the commits, those that evict',
      '(preemptions) and their conflicts (metric `PreemptionConflicts{on}`): on a victim another cycle took first, or on',
      'anything else — with the conflicts of placements, cycles taking the last free room of a cluster at once:',
      '',
      table(
        ['phase', 'commits', 'commit conflicts', 'conflict rate', 'commits that evict', 'their conflicts on a victim', 'on anything else'],
        phases.map(({ phase, commits: total, conflicts: conflicted, evicting, evictingConflicts, victimConflicts }, index) => {
          const before = phases[index - 1];
          const committed = total - (before?.commits ?? 0);
          const conflictsIn = conflicted - (before?.conflicts ?? 0);
          const evictingConflictsIn = evictingConflicts - (before?.evictingConflicts ?? 0);
          const victimConflictsIn = victimConflicts - (before?.victimConflicts ?? 0);
          const evictingCommits = evicting - (before?.evicting ?? 0) - evictingConflictsIn;
          const rate = (part: number, whole: number) => `${fmt((100 * part) / Math.max(1, whole))} %`;
          return [
            phase,
            committed,
            conflictsIn,
            rate(conflictsIn, committed),
            evictingCommits,
            `${victimConflictsIn} (${rate(victimConflictsIn, evictingCommits)})`,
            `${evictingConflictsIn - victimConflictsIn} (${rate(evictingConflictsIn - victimConflictsIn, evictingCommits)})`,
          ];
        }),
      ),
      '',
      preemptorConflicts(phases),
      '',
      'Latency runs from the `enqueuedAt` of the binding\'s first band message to its `Scheduled=True` transition.',
      '',
      'AWS requests, counted per HTTP request (retries included) by SDK middleware on every client, by caller:',
      '',
      requestTables(counts, commits),
      '',
      `Per scheduling commit: **${fmt(dynamodb / commits)} DynamoDB requests** (target ≤ 6) and **${fmt(sqs / commits)} SQS requests** (target ≤ 2), of which`,
      `${fmt(sqsByFunctions / commits)} by the functions and the rest the event source mappings' ReceiveMessage and DeleteMessageBatch.`,
      `Besides, ${fmt(streamReads / commits)} DynamoDB Streams requests per commit, the stream mapping's reads of the objects table's stream`,
      '(one GetRecords per round of the functions here; Lambda reads each shard about four times a second whatever the traffic,',
      'and bills no stream read request to a Lambda trigger).',
      '',
      `Cost per million scheduled bindings at us-east-1 list prices (Lambda arm64 $${PRICES.lambdaGbSecond} per GB-s and $0.20 per million`,
      `requests, ${FUNCTION_GB} GB functions, handler time as measured here; DynamoDB on demand $0.625 per million write and $0.125 per`,
      'million read units, items taken as ≤ 2 KB; SQS FIFO $0.50 per million requests): ',
      `**$${perMillion(dollars.lambda + dollars.dynamodb + dollars.sqs)}** — Lambda $${perMillion(dollars.lambda)}, DynamoDB $${perMillion(dollars.dynamodb)}, SQS $${perMillion(dollars.sqs)}.`,
      'Handler time here includes moto\'s latency, which is higher than DynamoDB\'s, so the Lambda figure is an upper bound.',
    ].join('\n');
    return { markdown };
  } finally {
    detach();
    if (server) await new Promise<void>((resolve) => server!.close(() => resolve()));
    await endpoint.stop();
    if (endpointBefore === undefined) delete process.env.AWS_ENDPOINT_URL;
    else process.env.AWS_ENDPOINT_URL = endpointBefore;
  }
}

/** The same fleet and arrivals through the controllers on the in-memory ports: what the code costs without moto. */
export async function memoryPipelineBenchmark(log: (line: string) => void): Promise<string> {
  const system = new MemorySystem();
  const { running, arriving } = workloads();
  for (const manifest of setupManifests()) await system.objects.apply(manifest);
  await system.runUntilIdle();
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (const [phase, manifests] of [['running', running], ['arriving', arriving]] as const) {
    log(`pipeline (memory): ${manifests.length / 2} ${phase} workloads`);
    for (const manifest of manifests) await system.objects.apply(manifest);
    await system.runUntilIdle();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const commits = system.metrics.counter('SchedulingAttempts', { result: 'scheduled' });
  return [
    `The same ${RUNNING.toLocaleString('en-US')} + ${ARRIVING} workloads through the same controllers on the in-memory ports (one cycle, no emulator):`,
    '',
    table(
      ['scheduling commits', 'preemptions', 'seconds', '÷ reference', 'commits/s', 'CPU s', 'handler errors'],
      [[commits, system.metrics.counter('BindingPreemptions'), fmt(seconds), perReference(seconds), fmt(commits / seconds), fmt((used.user + used.system) / 1e6), system.handlerErrors.length]],
    ),
    ...handlerErrorLines(system.handlerErrors),
  ].join('\n');
}
