import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONDITION_SCHEDULED, findCondition } from '../../lib/api/resource-binding';
import { checkInvariants, type InvariantReport, type SystemState } from '../../lib/check/invariants';
import type { QueuedBinding } from '../../lib/controllers/messages';
import type { OutgoingMessage } from '../../lib/ports/message-queue';
import { awsClients } from '../../functions/adapters/aws-context';
import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { loadLocalFunctions } from '../../functions/local/local-functions';
import { outrank } from '../bin/support/run-cli';
import { provisionTestAws, type TestAws } from '../support/aws';
import { allQueues } from '../../functions/adapters/definitions';
import { deadLetterUrl, depthOf, readSystemState, sleep, waitForBindings, waitUntilDrained } from './support/aws-state';
import type { WorkerReport } from './support/cycle-worker';
import { CycleWorkers } from './support/cycle-workers';
import { manifestPath, type Manifest } from '../support/api-paths';
import { CLUSTERS, fleet, fleetCapacity, highPriorityWork, lowPriorityWork } from './support/fleet';
import { seedBindings } from './support/seed';
import { startSerializingProxy, type SerializingProxy } from '../../functions/local/serializing-proxy';
import { throughProxy } from './support/through-proxy';

const PROCESSES = 4;
/** Exactly what the fleet holds: it is full when the high-priority work arrives (990 with OUTRANK_SOAK=1). */
const LOW = fleetCapacity();
const HIGH = 10;
/**
 * The emulator's SendMessage slows down with every message a queue holds, so messages go out in
 * waves, as a paced client would send them: never more than this many waiting in a band.
 */
const MAX_WAITING = 80;
/** Filling the fleet takes the emulator about six bindings a second through the serialising proxy (990 in 151 s). */
const FILL_TIMEOUT_MS = process.env.OUTRANK_SOAK === '1' ? 900_000 : 360_000;

let aws: TestAws;
let server: Server;
let proxy: SerializingProxy;
let apiUrl: string;
let workers: WorkerReport[] = [];
let state: SystemState;
let report: InvariantReport;

/** Sends the band messages in waves while the processes schedule what is already there. */
async function sendInWaves(band: string, messages: readonly OutgoingMessage<QueuedBinding>[]): Promise<void> {
  const url = aws.resources.bandQueueUrls[band]!;
  const queue = new SqsMessageQueue<QueuedBinding>(aws.clients.sqs, band, url);
  const wave = MAX_WAITING / 2;
  for (let start = 0; start < messages.length; start += wave) {
    while ((await depthOf(aws, url)).visible > wave) await sleep(300);
    await queue.send(messages.slice(start, start + wave));
  }
}

async function post(manifest: Manifest): Promise<void> {
  const response = await fetch(`${apiUrl}${manifestPath(manifest)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(manifest),
  });
  if (response.status !== 201) throw new Error(`POST ${manifest.metadata.name}: ${response.status} ${await response.text()}`);
}

let processes: CycleWorkers | undefined;
const started = Date.now();
const progress = (stage: string) => console.info(`concurrency: ${stage} after ${Math.round((Date.now() - started) / 1000)} s`);

beforeAll(async () => {
  const provisioned = await provisionTestAws();
  proxy = await startSerializingProxy(process.env.AWS_ENDPOINT_URL!);
  // Every process, this one included, reaches the endpoint through the proxy.
  process.env.AWS_ENDPOINT_URL = proxy.url;
  aws = { ...provisioned, clients: awsClients(), resources: throughProxy(provisioned.resources, proxy) };
  // This process serves the API; the processes below do all the queue-driven work.
  const functions = await loadLocalFunctions(aws.clients, aws.resources, undefined, () => undefined);
  server = await startHttpGateway(functions.api, 0);
  const address = server.address();
  apiUrl = `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await stopProcesses();
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  await proxy?.close();
});

async function stopProcesses(): Promise<void> {
  if (!processes) return;
  const stopping = processes;
  processes = undefined;
  workers = await stopping.stop();
  const errors = workers.flatMap((w) => w.errors);
  if (errors.length > 0) console.info(`concurrency: ${errors.length} errors in the processes; the first:\n${errors[0]}`);
}

/**
 * The run in stages, each a test with its own time-out, so that a stage that fails or takes too long
 * is reported as itself. A stage after a failed one fails at once, saying so, and so do the checks
 * after them (they find no state): nothing is skipped.
 */
describe.sequential('the run', () => {
  let seeded: Awaited<ReturnType<typeof seedBindings>>;
  let stagesDone = 0;
  const afterStages = (count: number) => expect(stagesDone, 'an earlier stage of the run failed').toBe(count);

  it('seeds the fleet and its low-priority bindings, made by the controllers but not yet scheduled', { timeout: 180_000 }, async () => {
    seeded = await seedBindings(aws, [...fleet(), ...lowPriorityWork(LOW)]);
    progress(`${LOW} low-priority bindings seeded`);
    stagesDone += 1;
  });

  it(`${PROCESSES} schedule-cycle processes fill the fleet`, { timeout: FILL_TIMEOUT_MS }, async () => {
    afterStages(1);
    processes = await CycleWorkers.start(aws, PROCESSES);
    for (const [band, messages] of seeded.bandMessages) await sendInWaves(band, messages);
    await waitUntilDrained(aws, 1_000);
    progress('the fleet is full');
    stagesDone += 1;
  });

  it('the high-priority work goes through the whole pipeline and is placed, preempting', { timeout: 240_000 }, async () => {
    afterStages(2);
    for (const manifest of highPriorityWork(HIGH)) await post(manifest);
    await waitForBindings(aws, LOW + HIGH, 120_000);
    await waitUntilDrained(aws, 1_000);
    progress('the high-priority work is placed');
    await stopProcesses();
    state = await readSystemState(aws);
    report = checkInvariants(state);
    const perProcess = workers.map((w) => `${w.cycles} cycles, ${w.scheduled} placed`).join('; ');
    console.info(`concurrency: ${Date.now() - started} ms; ${JSON.stringify(report.summary)}; ${perProcess}`);
  });
});

describe(`${PROCESSES} schedule-cycle processes at once over ${LOW + HIGH} bindings on ${CLUSTERS} clusters, with preemption`, () => {
  it('leave every invariant holding: no cluster over capacity, allocations equal to placements, only valid victims', () => {
    expect(report.violations).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('lose no binding: each is placed, or pending with the reason it was not', () => {
    expect(state.bindings).toHaveLength(LOW + HIGH);
    const pending = state.bindings.filter((b) => (b.spec.clusters ?? []).length === 0);
    for (const binding of pending) {
      expect(findCondition(binding, CONDITION_SCHEDULED), binding.metadata.name).toMatchObject({ status: 'False', reason: expect.any(String) });
    }
    expect(report.summary.placed + report.summary.pending).toBe(LOW + HIGH);
  });

  it('leave no message in a dead-letter queue: nothing was given up on', async () => {
    for (const queue of allQueues(aws.definitions)) {
      expect(await depthOf(aws, await deadLetterUrl(aws, queue)), queue.deadLetterName).toEqual({ visible: 0, inFlight: 0 });
    }
  });

  it('place every high-priority binding, preempting low-priority ones to do so', () => {
    const high = state.bindings.filter((b) => b.metadata.name.startsWith('high-'));
    expect(high.filter((b) => (b.spec.clusters ?? []).length === 0).map((b) => b.metadata.name)).toEqual([]);
    expect(report.summary.preemptions).toBeGreaterThan(0);
  });

  it('run every process without an unexpected error', () => {
    expect(workers).toHaveLength(PROCESSES);
    expect(workers.flatMap((w) => w.errors)).toEqual([]);
  });

  // The bindings were seeded without their templates (seed.ts): only the invariants apply.
  it('outrank check reads the same state through the API and reports no violation, nor any dead-lettered message', async () => {
    const result = await outrank('check', '--only', 'invariants', '--server', apiUrl, '-o', 'json');
    expect(result.code).toBe(0);
    const { deadLettered, ...invariants } = JSON.parse(result.stdout) as { deadLettered: Record<string, number> };
    expect(invariants).toEqual(JSON.parse(JSON.stringify(report)));
    expect(Object.values(deadLettered).every((messages) => messages === 0)).toBe(true);
  });
});
