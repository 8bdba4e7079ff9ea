/**
 * `npm start` under fifty clients writing at once, each a PropagationPolicy and its Deployment, as
 * tenants of a shared platform do: every write is answered 201, or 429/503 with Retry-After and written
 * later, never 5xx; every Deployment is placed; `outrank check` finds no broken invariant, no lost work
 * and no dead-lettered message. (The 2,000-Deployment soak of the same shape is `npm run bench -- soak`.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { provisionTestAws } from '../support/aws';
import { waitUntilPlaced, writeFromClients, type LoadReport } from '../support/api-load';
import { clientWorkloads, memberCluster } from '../support/tenant-workloads';
import { outrank } from '../bin/support/run-cli';
import { freePort, LocalRuntime } from './support/local-runtime-process';

const CLIENTS = 50;
const CLUSTERS = ['member1', 'member2', 'member3', 'member4'];
const SETTLE_MS = 180_000;

let running: LocalRuntime | undefined;
afterAll(async () => {
  await running?.kill();
});

describe(`npm start with ${CLIENTS} clients each writing a PropagationPolicy and its Deployment at once`, () => {
  let load: LoadReport;
  const { clients, deployments } = clientWorkloads(CLIENTS, 1, CLUSTERS);

  it('answers every write 201, or 429/503 with Retry-After (written on retry), never 5xx', { timeout: 240_000 }, async () => {
    const aws = await provisionTestAws();
    running = await LocalRuntime.start(aws.resources.objectsTable.replace(/-objects$/, ''), await freePort());
    for (const cluster of CLUSTERS) expect((await running.post('/apis/cluster.karmada.io/v1alpha1/clusters', memberCluster(cluster, 16))).status).toBe(201);
    load = await writeFromClients(running.url, clients);
    console.info(`overload: answers ${JSON.stringify(Object.fromEntries(load.statuses))}`);
    expect([...load.statuses.keys()].filter((status) => ![201, 429, 503].includes(status))).toEqual([]);
    expect(load.statuses.get(201)).toBe(CLIENTS * 2);
    expect(load.throttledWithoutRetryAfter).toBe(0);
    expect(load.givenUp).toEqual([]);
  });

  it('places every Deployment, and outrank check finds no violation, lost work or dead-lettered message', { timeout: SETTLE_MS + 60_000 }, async () => {
    const settledMs = await waitUntilPlaced(running!.url, deployments, SETTLE_MS, (line) => console.info(`overload: ${line}`));
    console.info(`overload: all ${deployments.length} placed and the queues idle ${Math.round(settledMs / 1000)} s after the last write`);
    const check = await outrank('check', '--server', running!.url);
    expect(check.stdout).toContain('No violations.');
    expect(check.code).toBe(0);
  });
});
