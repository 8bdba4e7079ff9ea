import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outrank, outrankProcess } from './support/run-cli';

async function tempFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'outrank-')), name);
  await writeFile(file, text);
  return file;
}

const EXAMPLE = 'examples/000-binding-preemption.yaml';

describe('outrank simulate', () => {
  it('prints the simulation as JSON', async () => {
    const { stdout } = await outrank('simulate', '-f', EXAMPLE, '-o', 'json');
    const result = JSON.parse(stdout);
    expect(result.metrics.bindingPreemptions).toBe(1);
    expect(result.bindings.map((b: { name: string }) => b.name)).toContain('urgent-deployment');
    expect(result.events.find((e: { reason: string }) => e.reason === 'Preempted')).toMatchObject({ step: 2, time: '0s' });
  });

  it('prints a summary for people: steps, priorities, preemptions, clusters, totals', async () => {
    const { stdout, code } = await outrank('simulate', '-f', EXAMPLE);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^STEP\s+TIME\s+ACTION\s+PLACED\s+WAITING\s+SUSPENDED\s+PREEMPTED\s+REJECTED$/m);
    expect(stdout).toMatch(/^2\s+0s\s+apply 1 object \(1 Deployment\)\s+4\s+1\s+0\s+1\s+0$/m);
    expect(stdout).toMatch(/^2\s+1\s+0\s+1\s+0\s+1$/m);
    expect(stdout).toMatch(/^2\s+0s\s+default\/urgent-deployment\s+10\s+member1:1\s+default\/batch-p2-deployment \(2\)$/m);
    expect(stdout).toMatch(/^member1\s+True\s+10\/10 \(100%\)\s+0\/64Gi \(0%\)\s+4\/110 \(3%\)$/m);
    expect(stdout).toContain('Total: 5 bindings (4 placed, 1 waiting, 0 suspended) on 1 cluster; 1 binding preempted by 1 placement; 0 writes refused.');
    expect(stdout).not.toContain('batch-p0-deployment');
  });

  it('with -o wide, prints a row per binding; with --events, every event with its step and time', async () => {
    const wide = await outrank('simulate', '-f', EXAMPLE, '-o', 'wide');
    expect(wide.stdout).toMatch(/^NAMESPACE\s+BINDING\s+PRIORITY\s+PREEMPTIBILITY\s+REPLICAS\s+POLICY\s+CLUSTERS\s+SCHEDULED\s+REASON$/m);
    expect(wide.stdout).toMatch(/^default\s+urgent-deployment\s+10\s+preemptible\s+1\s+propagationpolicy\/by-pod-priority\s+member1:1\s+True\s+Success$/m);
    expect(wide.stdout).not.toMatch(/^STEP\s+TIME\s+TYPE/m);
    const events = await outrank('simulate', '-f', EXAMPLE, '--events');
    expect(events.stdout).toMatch(/^2\s+0s\s+Warning\s+Preempted\s+ResourceBinding\/default\/batch-p2-deployment\s+preempted by ResourceBinding default\/urgent-deployment/m);
    expect(events.stdout).not.toMatch(/^NAMESPACE\s+BINDING/m);
  });

  it('runs a file of manifests as one apply step', async () => {
    const file = await tempFile(
      'manifests.yaml',
      `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1}
status: {resourceSummary: {allocatable: {cpu: "2", pods: "10"}}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: default}
spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 3, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: a, image: b, resources: {requests: {cpu: "1"}}}]}}}
`,
    );
    const { stdout, code } = await outrank('simulate', '-f', file);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^1\s+0s\s+apply 3 objects \(1 Cluster, 1 Deployment, 1 PropagationPolicy\)\s+0\s+1\s+0\s+0\s+0$/m);
  });

  it('runs a directory of manifests as one step, its .yaml, .yml and .json files in name order, not its subdirectories (kubectl apply -f DIR)', async () => {
    const { stdout, code } = await outrank('simulate', '-f', 'examples/kubectl', '-o', 'json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.steps).toHaveLength(1);
    expect(result.steps[0].kinds).toEqual({ Cluster: 2, Deployment: 2, PriorityClass: 2, PropagationPolicy: 1 });
  });

  it('runs each further -f as a step of its own: the README\'s kubectl quick start, in memory', async () => {
    const { stdout, code } = await outrank('simulate', '-f', 'examples/kubectl/fleet.yaml', '-f', 'examples/kubectl/batch.yaml', '-f', 'examples/kubectl/shop/', '-o', 'json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.steps.map((step: { objects: number }) => step.objects)).toEqual([4, 3, 4]);
    expect(result.preemptions).toHaveLength(1);
    expect(result.preemptions[0]).toMatchObject({ step: 3, preemptor: { name: 'web-deployment' } });
    expect(result.preemptions[0].victims).toHaveLength(1);
  });

  it('refuses a scenario among several -f, and a scenario file inside a directory', async () => {
    expect(await outrank('simulate', '-f', 'examples/kubectl/fleet.yaml', '-f', EXAMPLE)).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${EXAMPLE}: a scenario must be the only -f given to simulate\n`,
    });
    expect(await outrank('simulate', '-f', 'examples')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: ${EXAMPLE}: a scenario must be given as a file, not in a directory\n`,
    });
  });

  it('names a missing file as kubectl does', async () => {
    const result = await outrank('simulate', '-f', 'no-such-scenario.yaml');
    expect(result).toEqual({ code: 1, stdout: '', stderr: 'error: the path "no-such-scenario.yaml" does not exist\n' });
  });

  it('names the file, the line and the field of each error, as kube-apiserver words them', async () => {
    const file = await tempFile('bad.yaml', 'description: broken\nsteps:\n  - wait: 1m\n  - wait: soon\n  - apply:\n');
    const result = await outrank('simulate', '-f', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `error: ${file}:4: steps[1].wait: Invalid value: "soon": must be a duration such as "30s", "5m" or "1h"\n` +
        `error: ${file}:5: steps[2].apply: Required value\n`,
    );
  });

  it('refuses a file that is neither a scenario nor manifests', async () => {
    const file = await tempFile('notes.yaml', 'owner: me\nreviewed: true\n');
    const result = await outrank('simulate', '-f', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`error: ${file}:1: neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")\n`);
  });

  it('fails on a scenario nested ten thousand levels deep with the nesting rule, YAML or JSON', async () => {
    for (const [name, text] of [
      ['deep.yaml', `steps: [{apply: ${'['.repeat(10_000)}${']'.repeat(10_000)}}]\n`],
      ['deep.json', `{"steps": [{"apply": ${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`],
    ] as const) {
      const failure = await outrank('simulate', '-f', await tempFile(name, text));
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('scenario must not be nested more than 100 levels deep');
    }
  });
});

describe('outrank simulate of a scenario with a refused write', () => {
  const scenario = 'examples/003-scheduling-suspension.yaml';

  it('exits 1, naming the step as a person counts it, as outrank apply does', async () => {
    const failure = await outrankProcess(['simulate', '-f', scenario]);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toMatch(/^3\s+ResourceBinding\/tenant-a\/report-job\s+/m);
    expect(failure.stderr).toBe('error: 1 write(s) refused (step 3); pass --allow-rejections if the scenario expects them\n');
  });

  it('exits 0 with --allow-rejections', async () => {
    const { stdout, stderr, code } = await outrank('simulate', '-f', scenario, '--allow-rejections');
    expect(code).toBe(0);
    expect(stdout).toContain('REJECTED');
    expect(stderr).toBe('');
  });
});

describe('outrank simulate --watch', () => {
  it('prints each decision as it happens on standard error, numbered by step, and the result as usual', async () => {
    const { stdout, stderr } = await outrank('simulate', '-f', EXAMPLE, '--watch', '-o', 'json');
    expect(JSON.parse(stdout).metrics.bindingPreemptions).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toContain('step 2  Warning  Preempted  ResourceBinding/default/batch-p2-deployment: preempted by ResourceBinding default/urgent-deployment (priority 10) to make room on cluster member1');
    expect(lines.every((line) => /^step [12]  (Normal|Warning)  \w+  \S+: /.test(line))).toBe(true);
  });
});
