/**
 * The real kubectl (v1.32 on these machines) against the API, with no flags: it reads the OpenAPI v3
 * documents, validates on the server (fieldValidation=Strict), and every command a platform team
 * uses on workloads works. Skipped, saying so, where kubectl is not installed.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

let api: TestApi;
let home: string;

/** kubectl with no kubeconfig and a cache of its own, so no discovery or OpenAPI document of another server is reused. */
function kubectl(args: readonly string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile('kubectl', [...args, '--server', api.url], { env: { ...process.env, KUBECONFIG: '/dev/null', HOME: home, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

function deployment(name: string, replicas: number, resources = 'requests'): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: main
        image: nginx
        resources:
          ${resources}:
            cpu: 500m
`;
}

async function manifest(name: string, text: string): Promise<string> {
  const path = join(home, `${name}.yaml`);
  await writeFile(path, text);
  return path;
}

async function replicas(name: string): Promise<string> {
  return (await kubectl(['get', 'deployment', name, '-o', 'jsonpath={.spec.replicas}'])).stdout;
}

describe.runIf(kubectlInstalled('kubectl-commands'))('kubectl against the outrank API, with no flags', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'outrank-kubectl-'));
    api = await startTestApi();
    const applied = await kubectl(['apply', '-f', await manifest('web', deployment('web', 2))]);
    expect(applied).toMatchObject({ code: 0, stdout: 'deployment.apps/web created\n' });
  });
  afterAll(() => api.close());

  it('apply validates on the server: a misspelt field is refused naming its path, and nothing is written', async () => {
    const result = await kubectl(['apply', '-f', await manifest('typo', deployment('typo', 1, 'requets'))]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('spec.template.spec.containers[0].resources.requets: unknown field');
    expect(result.stderr).not.toContain('--validate=false');
    expect((await kubectl(['get', 'deployment', 'typo'])).code).toBe(1);
  });

  it('apply of an unchanged manifest says unchanged', async () => {
    expect((await kubectl(['apply', '-f', join(home, 'web.yaml')])).stdout).toBe('deployment.apps/web unchanged\n');
  });

  it('explain shows the fields and their descriptions', async () => {
    const result = await kubectl(['explain', 'deployment.spec.template.spec.containers.resources']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/requests\s+<map\[string\]/);
    expect(result.stdout).toContain('outrank places replicas by');
    expect((await kubectl(['explain', 'propagationpolicy.spec.preemption'])).stdout).toContain('Policy priority and preemption (002)');
  });

  it('diff shows what apply would change, and --dry-run=server changes nothing', async () => {
    const scaled = await manifest('web-3', deployment('web', 3));
    const diff = await kubectl(['diff', '-f', scaled]);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toMatch(/^\+\s+replicas: 3$/m);
    const dryRun = await kubectl(['apply', '-f', scaled, '--dry-run=server']);
    expect(dryRun).toMatchObject({ code: 0, stdout: 'deployment.apps/web configured (server dry run)\n' });
    expect(await replicas('web')).toBe('2');
  });

  it('create of an existing object is AlreadyExists', async () => {
    const result = await kubectl(['create', '-f', join(home, 'web.yaml')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('(AlreadyExists)');
  });

  it('server-side apply, JSON patch, scale, a status patch and edit each change the Deployment', async () => {
    // The replicas were set by client-side apply: server-side apply conflicts, as on Kubernetes, until forced.
    const web4 = await manifest('web-4', deployment('web', 4));
    const conflict = await kubectl(['apply', '--server-side', '-f', web4]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas');
    expect(conflict.stderr).toContain('--force-conflicts');
    expect((await kubectl(['apply', '--server-side', '--force-conflicts', '-f', web4])).stdout).toBe('deployment.apps/web serverside-applied\n');
    const managers = await kubectl(['get', 'deployment', 'web', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}']);
    // kubectl-last-applied: kubectl keeps the client-side apply annotation in step after a server-side apply, as on Kubernetes.
    expect(managers.stdout.split(' ').sort()).toEqual(['kubectl', 'kubectl-client-side-apply', 'kubectl-last-applied']);
    expect(await replicas('web')).toBe('4');
    expect((await kubectl(['patch', 'deployment', 'web', '--type=json', '-p', '[{"op":"replace","path":"/spec/replicas","value":5}]'])).code).toBe(0);
    expect(await replicas('web')).toBe('5');
    expect((await kubectl(['scale', 'deployment', 'web', '--replicas=6'])).stdout).toBe('deployment.apps/web scaled\n');
    expect(await replicas('web')).toBe('6');
    const status = await kubectl(['patch', 'deployment', 'web', '--subresource=status', '--type=merge', '-p', '{"status":{"readyReplicas":6}}']);
    expect(status.code).toBe(0);
    expect((await kubectl(['get', 'deployment', 'web', '--subresource=status', '-o', 'jsonpath={.status.readyReplicas}'])).stdout).toBe('6');
    const edited = await kubectl(['edit', 'deployment', 'web'], { EDITOR: 'sed -i s/replicas:\\ 6/replicas:\\ 7/' });
    expect(edited).toMatchObject({ code: 0, stdout: 'deployment.apps/web edited\n' });
    expect(await replicas('web')).toBe('7');
  });

  it('get pages with --chunk-size and lists workloads under the category all', async () => {
    await kubectl(['apply', '-f', await manifest('api', deployment('api', 1))]);
    const chunked = await kubectl(['get', 'deployments', '--chunk-size=1', '-o', 'name']);
    expect(chunked.stdout).toBe('deployment.apps/api\ndeployment.apps/web\n');
    // As a table (kubectl's default output, 500 rows a chunk), every page too.
    const table = await kubectl(['get', 'deployments', '--chunk-size=1', '--no-headers', '-o', 'custom-columns=NAME:.metadata.name']);
    expect(table.stdout).toBe('api\nweb\n');
    const printed = await kubectl(['get', 'deployments', '--chunk-size=1', '--no-headers']);
    expect(printed.stdout.split('\n').filter(Boolean).map((line) => line.split(/\s+/)[0])).toEqual(['api', 'web']);
    expect((await kubectl(['get', 'all', '-o', 'name'])).stdout).toBe('deployment.apps/api\ndeployment.apps/web\n');
  });

  it('get -w prints each change as it is written, and wait returns once its condition holds', async () => {
    const watching = spawn('kubectl', ['get', 'deployment', 'web', '-w', '--output-watch-events', '--server', api.url], { env: { ...process.env, KUBECONFIG: '/dev/null', HOME: home } });
    let printed = '';
    watching.stdout.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    try {
      for (let waited = 0; !printed.includes('ADDED'); waited += 50) {
        if (waited > 10_000) throw new Error(`kubectl get -w printed: ${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await kubectl(['scale', 'deployment', 'web', '--replicas=8']);
      for (let waited = 0; !/MODIFIED\s+web\s+\d+\/8\s/.test(printed); waited += 50) {
        if (waited > 10_000) throw new Error(`kubectl get -w printed: ${printed}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(printed.split('\n')[0]).toMatch(/^EVENT\s+NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+PLACEMENT\s+AGE$/);
    } finally {
      watching.kill();
    }
    const waiting = kubectl(['wait', '--for=jsonpath={.spec.replicas}=9', 'deployment/web', '--timeout=20s']);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await kubectl(['scale', 'deployment', 'web', '--replicas=9']);
    expect(await waiting).toMatchObject({ code: 0, stdout: 'deployment.apps/web condition met\n' });
    expect((await waiting).stderr).toBe('');
  });

  it('patch and server-side apply resume a suspended binding; label and annotate are refused naming the field and the rule', async () => {
    const suspending = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1}
status: {resourceSummary: {allocatable: {cpu: "8", pods: "110"}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: queued}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: queued-a}, {apiVersion: apps/v1, kind: Deployment, name: queued-b}]
  suspension: {scheduling: true}
`;
    expect((await kubectl(['apply', '-f', await manifest('queued', suspending)])).code).toBe(0);
    expect((await kubectl(['apply', '-f', await manifest('queued-a', deployment('queued-a', 1))])).code).toBe(0);
    expect((await kubectl(['apply', '-f', await manifest('queued-b', deployment('queued-b', 1))])).code).toBe(0);
    const clusters = (name: string) => kubectl(['get', 'rb', name, '-o', 'jsonpath={.spec.clusters[*].name}']);
    expect((await clusters('queued-a-deployment')).stdout).toBe('');

    const labelled = await kubectl(['label', 'rb', 'queued-a-deployment', 'kai.scheduler/preemptibility=non-preemptible']);
    expect(labelled.code).toBe(1);
    expect(labelled.stderr).toContain('metadata.labels[kai.scheduler/preemptibility]: is written by outrank: of a binding only spec.suspension and spec.rescheduleTriggeredAt may be changed');
    const annotated = await kubectl(['annotate', 'rb', 'queued-a-deployment', 'note=x']);
    expect(annotated.code).toBe(1);
    expect(annotated.stderr).toContain('metadata.annotations[note]');
    expect((await kubectl(['get', 'rb', 'queued-a-deployment', '-o', 'jsonpath={.metadata.labels}'])).stdout).not.toContain('kai.scheduler');

    const patched = await kubectl(['patch', 'rb', 'queued-a-deployment', '--type', 'merge', '-p', '{"spec":{"suspension":{"scheduling":false}}}']);
    expect(patched).toMatchObject({ code: 0, stdout: 'resourcebinding.work.karmada.io/queued-a-deployment patched\n' });
    expect((await clusters('queued-a-deployment')).stdout).toBe('member1');

    const resume = `apiVersion: work.karmada.io/v1alpha2
kind: ResourceBinding
metadata: {name: queued-b-deployment}
spec: {suspension: {scheduling: false}}
`;
    const applied = await kubectl(['apply', '--server-side', '-f', await manifest('resume', resume)]);
    expect(applied).toMatchObject({ code: 0, stdout: 'resourcebinding.work.karmada.io/queued-b-deployment serverside-applied\n' });
    expect((await clusters('queued-b-deployment')).stdout).toBe('member1');
  });

  it('auth can-i tells the truth about bindings and kinds the API does not serve; auth whoami answers', async () => {
    expect((await kubectl(['auth', 'can-i', 'create', 'deployments'])).stdout).toBe('yes\n');
    const bindings = await kubectl(['auth', 'can-i', 'create', 'resourcebindings']);
    expect(bindings).toMatchObject({ code: 1, stdout: 'no - resourcebindings supports only get, list, patch, watch\n' });
    expect((await kubectl(['auth', 'can-i', 'patch', 'resourcebindings'])).stdout).toBe('yes\n');
    expect((await kubectl(['auth', 'can-i', 'watch', 'events'])).stdout).toBe('yes\n');
    expect((await kubectl(['auth', 'whoami'])).stdout).toMatch(/^Username\s+\S+$/m);
  });

  it("apply of Karmada's policies prints a Warning for each field outrank does not act on; explain describes those fields", async () => {
    const policies = new URL('../fixtures/karmada/policies.yaml', import.meta.url).pathname;
    const applied = await kubectl(['apply', '-f', policies]);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('propagationpolicy.policy.karmada.io/storefront created');
    expect(applied.stderr).toContain('Warning: spec.failover: carried to the binding for whatever propagates placements; outrank does not act on it');
    expect(applied.stderr).toContain('Warning: spec.dependentOverrides: stored on the policy; outrank does not act on it');
    const explained = await kubectl(['explain', 'propagationpolicy.spec.failover']);
    expect(explained.stdout).toContain('carried to the binding');
    expect(explained.stdout).toMatch(/application\s+<Object>/);
  });
});
