/**
 * kubectl itself (v1.32 on these machines) against the API: `kubectl get` asks for a meta.k8s.io Table
 * and prints the columns outrank chose, with no flags. Skipped, saying so, where kubectl is not installed.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';
import { outrank, rows } from './support/run-cli';

const run = promisify(execFile);

let api: TestApi;
const kubectl = async (...args: string[]) => (await run('kubectl', [...args, '--server', api.url], { env: { ...process.env, KUBECONFIG: '/dev/null' } })).stdout;

describe.runIf(kubectlInstalled('kubectl-get'))('kubectl get against the outrank API', () => {
  beforeAll(async () => {
    api = await startTestApi();
    expect((await outrank('apply', '-f', 'examples/000-binding-preemption.yaml', '--server', api.url)).code).toBe(0);
    api.system.clock.advance(300_000);
  });
  afterAll(() => api.close());

  it('prints bindings with priority, preemptibility, clusters, Scheduled, reason and age (binding priority and preemption (000))', async () => {
    expect(rows(await kubectl('get', 'resourcebindings'))).toEqual([
      ['NAME', 'PRIORITY', 'PREEMPTIBILITY', 'CLUSTERS', 'SCHEDULED', 'REASON', 'AGE'],
      ['batch-p0-deployment', '0', 'preemptible', 'member1:1', 'True', 'Success', '5m'],
      ['batch-p1-deployment', '1', 'preemptible', 'member1:1', 'True', 'Success', '5m'],
      ['batch-p2-deployment', '2', 'preemptible', '<none>', 'False', 'Unschedulable', '5m'],
      ['batch-p3-deployment', '3', 'preemptible', 'member1:1', 'True', 'Success', '5m'],
      ['urgent-deployment', '10', 'preemptible', 'member1:1', 'True', 'Success', '5m'],
    ]);
  });

  it('prints the wide columns with -o wide, and a NAMESPACE column with -A', async () => {
    expect(rows(await kubectl('get', 'rb', 'urgent-deployment', '-o', 'wide'))[0]).toEqual(['NAME', 'PRIORITY', 'PREEMPTIBILITY', 'CLUSTERS', 'SCHEDULED', 'REASON', 'AGE', 'AFFINITY', 'POLICY', 'RESOURCE']);
    expect(rows(await kubectl('get', 'propagationpolicies', '-A'))).toEqual([
      ['NAMESPACE', 'NAME', 'PRIORITY', 'PREEMPTION', 'PRIORITY-CLASS', 'AGE'],
      ['default', 'by-pod-priority', '0', 'Never', 'PodPriorityClass', '5m'],
    ]);
  });

  it('prints priority classes with value, global default and preemption policy', async () => {
    expect(rows(await kubectl('get', 'priorityclasses')).map((row) => row.slice(0, 4))).toContainEqual(['urgent', '10', 'false', 'PreemptLowerPriority']);
  });
});
