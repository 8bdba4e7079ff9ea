/**
 * `npm start` killed with SIGKILL in the middle of a burst of writes, then started again on the same
 * tables and queues, as an operator would: every Deployment the API stored gets its binding and is
 * placed within the time the queues take to give back what the dead process held (a minute), and the
 * invariants hold. Nothing here tells the restarted process what it missed: the objects table's stream
 * and the queues do.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { checkInvariants } from '../../lib/check/invariants';
import { provisionTestAws, type TestAws } from '../support/aws';
import { readSystemState, sleep } from './support/aws-state';
import { freePort, LocalRuntime } from './support/local-runtime-process';

const DEPLOYMENTS = 60;
/** Band messages the dead process held come back after their visibility timeout (60 s), then the every-second cycle takes them. */
const SETTLE_MS = 120_000;

const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '100m' } } }] } } },
});

let running: LocalRuntime | undefined;
afterAll(async () => {
  await running?.kill();
});

describe('npm start killed mid-burst and started again on the same tables and queues', () => {
  let aws: TestAws;
  let stored: string[];

  it('stores what it answered before it died', { timeout: 240_000 }, async () => {
    aws = await provisionTestAws();
    const prefix = aws.resources.objectsTable.replace(/-objects$/, '');
    const port = await freePort();
    running = await LocalRuntime.start(prefix, port);
    console.info('crash-restart: npm start answers');
    const setUp = [
      running.post('/apis/cluster.karmada.io/v1alpha1/clusters', {
        apiVersion: 'cluster.karmada.io/v1alpha1',
        kind: 'Cluster',
        metadata: { name: 'member1' },
        status: { resourceSummary: { allocatable: { cpu: '64', memory: '256Gi', pods: '1000' } } },
      }),
      running.post('/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', {
        apiVersion: 'policy.karmada.io/v1alpha1',
        kind: 'PropagationPolicy',
        metadata: { name: 'all', namespace: 'default' },
        spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
      }),
    ];
    for (const response of await Promise.all(setUp)) expect(response.status).toBe(201);

    // The burst: the process is killed once a third of it has been answered, the rest in flight.
    const runtime = running;
    const answered: string[] = [];
    const burst = Array.from({ length: DEPLOYMENTS }, (_, index) => `web-${randomBytes(3).toString('hex')}-${index}`).map(async (name) => {
      const response = await runtime.post('/apis/apps/v1/namespaces/default/deployments', deployment(name)).catch(() => undefined);
      // Killed by the answer that makes the third, not again by each request the kill cuts off.
      if (response?.status === 201 && answered.push(name) === Math.floor(DEPLOYMENTS / 3)) await runtime.kill();
    });
    await Promise.all(burst);
    expect(runtime.child.exitCode ?? runtime.child.signalCode).toBe('SIGKILL');

    stored = await storedDeployments(aws);
    // Every create that was answered 201 was stored; some that were not answered may be stored too.
    for (const name of answered) expect(stored).toContain(name);
    console.info(`crash-restart: ${answered.length} creates answered, ${stored.length} stored when the process was killed`);
    running = await LocalRuntime.start(prefix, port);
  });

  it('binds and places every stored Deployment after the restart, with every invariant holding', { timeout: SETTLE_MS + 30_000 }, async () => {
    const started = Date.now();
    for (;;) {
      const state = await readSystemState(aws);
      const placed = new Set(state.bindings.filter((b) => (b.spec.clusters ?? []).length > 0).map((b) => b.spec.resource.name));
      const missing = stored.filter((name) => !placed.has(name));
      if (missing.length === 0) {
        expect(checkInvariants(state).violations).toEqual([]);
        console.info(`crash-restart: all ${stored.length} placed ${Math.round((Date.now() - started) / 1000)} s after the restart`);
        return;
      }
      if (Date.now() - started > SETTLE_MS) throw new Error(`not placed ${SETTLE_MS / 1000} s after the restart: ${missing.join(', ')}`);
      await sleep(2_000);
    }
  });
});

async function storedDeployments(aws: TestAws): Promise<string[]> {
  const store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
  return (await store.list<{ apiVersion: string; kind: string; metadata: { name: string } }>('apps', 'Deployment')).map((d) => d.metadata.name);
}
