/**
 * The soak: `npm start` as an operator runs it (the local runtime, in this process, on the local AWS
 * endpoint) under fifty clients writing at once, each Deployments with one PropagationPolicy apiece,
 * until every Deployment is placed; then `outrank check`. OUTRANK_SOAK_DEPLOYMENTS sets the size
 * (default 2,000).
 */
import { startLocalRuntime } from '../../functions/local/local-runtime';
import { outrank } from '../bin/support/run-cli';
import { waitUntilPlaced, writeFromClients } from '../support/api-load';
import { clientWorkloads, memberCluster } from '../support/tenant-workloads';
import { AwsRequestCounter } from './aws-requests';
import { perReference } from './reference';
import { fmt, summarize, table } from './stats';

const CLIENTS = 50;
const CLUSTERS = Array.from({ length: 10 }, (_, index) => `member${index + 1}`);
const SETTLE_MS = 60 * 60_000;

interface CheckReport {
  readonly ok: boolean;
  readonly violations: ReadonlyArray<{ readonly rule: string }>;
  readonly deadLettered: Readonly<Record<string, number>>;
}

export async function soakBenchmark(log: (line: string) => void): Promise<string> {
  const deployments = Number(process.env.OUTRANK_SOAK_DEPLOYMENTS ?? 2_000);
  const perClient = Math.max(1, Math.round(deployments / CLIENTS));
  const counter = new AwsRequestCounter();
  const detach = counter.attach();
  const errors: string[] = [];
  const prefix = `soak${Date.now().toString(36)}`;
  const runtime = await startLocalRuntime({
    port: 0,
    prefix,
    // As the stack's schedules: ticks from the bands start cycles, the every-minute one is the safety net.
    scheduleIntervalMs: 60_000,
    reconcileIntervalMs: 60_000,
    resyncIntervalMs: 30 * 60_000,
    log: (line) => errors.push(line),
  });
  try {
    for (const cluster of CLUSTERS) {
      const response = await fetch(`${runtime.apiUrl}/apis/cluster.karmada.io/v1alpha1/clusters`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(memberCluster(cluster, 64)),
      });
      if (response.status !== 201) throw new Error(`soak: creating ${cluster} answered ${response.status}`);
    }
    const { clients, deployments: names } = clientWorkloads(CLIENTS, perClient, CLUSTERS);
    counter.reset();
    log(`soak: ${CLIENTS} clients writing ${names.length} Deployments and their policies`);
    const started = performance.now();
    const load = await writeFromClients(runtime.apiUrl, clients);
    const writtenMs = performance.now() - started;
    log(`soak: written in ${fmt(writtenMs / 1000)} s; answers ${JSON.stringify(Object.fromEntries(load.statuses))}`);
    const settleMs = await waitUntilPlaced(runtime.apiUrl, names, SETTLE_MS, (line) => log(`soak: ${line}`));
    const check = await outrank('check', '--server', runtime.apiUrl, '-o', 'json');
    const report = JSON.parse(check.stdout) as CheckReport;
    const latency = summarize(load.latenciesMs);
    const sent = [...counter.messagesSent.values()].reduce((sum, count) => sum + count, 0);
    const reconcile = counter.requestsByCause.get('reconcile') ?? 0;
    const deadLettered = Object.values(report.deadLettered).reduce((sum, count) => sum + count, 0);
    const statuses = [...load.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`).join(', ');
    const perQueue = [...counter.messagesSent].sort(([a], [b]) => (a < b ? -1 : 1)).map(([queue, count]) => `${queue.replace(`${prefix}-`, '').replace(/\.fifo$/, '')} ${fmt(count / names.length)}`).join(', ');
    return [
      `\`npm start\` in this process on the local AWS endpoint (schedules as the stack's: schedule-cycle and the reconcile every`,
      `minute besides the ticks, the resync every half hour); ${CLUSTERS.length} clusters of 64 cpu; ${CLIENTS} clients at once, each writing`,
      `${perClient} Deployments (one 100m replica) each with its own PropagationPolicy by name, one object after another, retrying`,
      `429 and 503 after their Retry-After. Settled: every Deployment placed and every queue empty. \`OUTRANK_SOAK_DEPLOYMENTS\` sets`,
      'the size.',
      '',
      table(
        ['Deployments', 'writes', 'answers', 'write p50 ms', 'p99 ms', 'written in s', '÷ reference', 'settled s after', '÷ reference', 'messages per binding', 'reconcile requests per binding', 'dead-lettered', 'handler errors', '`outrank check`'],
        [[
          names.length,
          names.length * 2,
          statuses,
          fmt(latency.p50Ms),
          fmt(latency.p99Ms),
          fmt(writtenMs / 1000),
          perReference(writtenMs / 1000),
          fmt(settleMs / 1000),
          perReference(settleMs / 1000),
          fmt(sent / names.length),
          fmt(reconcile / names.length),
          deadLettered,
          errors.length,
          report.ok ? 'no violation' : `${report.violations.length} violations (${[...new Set(report.violations.map((v) => v.rule))].join(', ')})`,
        ]],
      ),
      '',
      `Messages per binding by queue: ${perQueue}. Writes answered other than 201, 429 and 503: ${[...load.statuses.keys()].filter((s) => ![201, 429, 503].includes(s)).length === 0 ? 'none' : statuses}; throttled without Retry-After: ${load.throttledWithoutRetryAfter}; given up: ${load.givenUp.length}.`,
      ...(errors.length > 0 ? ['', `First handler error: ${errors[0]}`] : []),
    ].join('\n');
  } finally {
    detach();
    await runtime.stop();
  }
}
