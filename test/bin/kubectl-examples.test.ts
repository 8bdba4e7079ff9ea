/**
 * The README's quick start with the real kubectl (v1.32 on these machines): a kubeconfig made with
 * `kubectl config` as the README says, then `examples/kubectl/` applied in three steps — the fleet,
 * two batch jobs that fill it, the shop's bundle whose critical workload needs room. The bindings end as
 * the README describes: the shop placed, one batch job preempted (the fewest victims), the other kept,
 * the Service and ConfigMap on both clusters. Skipped, saying so, where kubectl is not installed.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';
import { rows } from './support/run-cli';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const EXAMPLES = join(import.meta.dirname, '../../examples/kubectl');

let api: TestApi;
let home: string;

/** kubectl as a user runs it after the README's set-up: its own kubeconfig, no --server. */
function kubectl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile('kubectl', args, { env: { ...process.env, KUBECONFIG: join(home, 'config'), HOME: home } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe.runIf(kubectlInstalled('kubectl-examples'))('the quick start: examples/kubectl applied with kubectl', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'outrank-examples-'));
    api = await startTestApi();
    for (const step of [
      ['config', 'set-cluster', 'outrank', `--server=${api.url}`],
      ['config', 'set-context', 'outrank', '--cluster=outrank', '--namespace=default'],
      ['config', 'use-context', 'outrank'],
    ]) {
      expect(await kubectl(...step)).toMatchObject({ code: 0 });
    }
  });
  afterAll(() => api.close());

  it('applies the fleet and the batch jobs, which fill both clusters', async () => {
    expect(await kubectl('apply', '-f', join(EXAMPLES, 'fleet.yaml'))).toMatchObject({ code: 0, stderr: '' });
    expect(await kubectl('apply', '-f', join(EXAMPLES, 'batch.yaml'))).toMatchObject({ code: 0, stderr: '' });
    const bindings = await kubectl('get', 'resourcebindings', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.spec.clusters[*].name}{"\\n"}{end}');
    // Aggregated: each job whole on one cluster, the two on different ones (which goes where is the clusters' tie order).
    const placed = Object.fromEntries(bindings.stdout.trim().split('\n').map((line) => line.split('=')));
    expect(Object.keys(placed).sort()).toEqual(['index-rebuild-deployment', 'nightly-report-deployment']);
    expect(Object.values(placed).sort()).toEqual(['member1', 'member2']);
  });

  it('applies the shop as a directory: the critical workload preempts one batch job, its Service and ConfigMap go to both clusters', async () => {
    const applied = await kubectl('apply', '-f', join(EXAMPLES, 'shop'));
    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(applied.stdout.trim().split('\n').sort()).toEqual([
      'configmap/web-config created',
      'deployment.apps/web created',
      'propagationpolicy.policy.karmada.io/shop created',
      'service/web created',
    ]);
    const listed = JSON.parse((await kubectl('get', 'resourcebindings', '-o', 'json')).stdout) as {
      items: Array<{ metadata: { name: string }; spec: { clusters?: Array<{ name: string }> }; status?: { conditions?: Array<{ type: string; status: string; reason: string }> } }>;
    };
    const byName = new Map(listed.items.map((binding) => [binding.metadata.name, binding]));
    const scheduled = (name: string) => byName.get(name)?.status?.conditions?.find((condition) => condition.type === 'Scheduled');
    expect(byName.get('web-deployment')?.spec.clusters).toHaveLength(1);
    expect(scheduled('web-deployment')).toMatchObject({ status: 'True' });
    for (const name of ['web-service', 'web-config-configmap']) expect(byName.get(name)?.spec.clusters?.map((target) => target.name).sort(), name).toEqual(['member1', 'member2']);
    const batch = ['index-rebuild-deployment', 'nightly-report-deployment'].map((name) => ({ name, placed: (byName.get(name)?.spec.clusters ?? []).length > 0 }));
    expect(batch.filter((job) => job.placed)).toHaveLength(1);
    const preempted = batch.find((job) => !job.placed)!.name;
    expect(scheduled(preempted)).toMatchObject({ status: 'False' });
    const events = await kubectl('get', 'events', '--field-selector', `involvedObject.name=${preempted}`);
    expect(rows(events.stdout).some((row) => row.includes('Preempted'))).toBe(true);
  });
});
