import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;

describe('outrank simulate', () => {
  it('prints the simulation as JSON', async () => {
    const { stdout } = await run('node', ['bin/outrank.mjs', 'simulate', '-f', 'examples/000-binding-preemption.yaml', '-o', 'json'], { cwd: root });
    const result = JSON.parse(stdout);
    expect(result.metrics.bindingPreemptions).toBe(1);
    expect(result.bindings.map((b: { name: string }) => b.name)).toContain('urgent-deployment');
  });

  it('prints a table for people', async () => {
    const { stdout } = await run('node', ['bin/outrank.mjs', 'simulate', '-f', 'examples/000-binding-preemption.yaml'], { cwd: root });
    expect(stdout).toMatch(/^NAMESPACE\s+BINDING\s+PRIORITY/);
    expect(stdout).toMatch(/urgent-deployment\s+10\s+preemptible\s+member1:1\s+True\s+Success/);
    expect(stdout).toContain('Preempted');
  });

  it('names the file, the line and the field of each error, as kube-apiserver words them', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'outrank-')), 'bad.yaml');
    await writeFile(file, 'description: broken\nsteps:\n  - wait: 1m\n  - wait: soon\n  - apply:\n');
    const failure = await run('node', ['bin/outrank.mjs', 'simulate', '-f', file], { cwd: root }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toBe(
      `error: ${file}:4: steps[1].wait: Invalid value: "soon": must be a duration such as "30s", "5m" or "1h"\n` +
        `error: ${file}:5: steps[2].apply: Required value\n`,
    );
  });

  it('names a missing file as kubectl does', async () => {
    const failure = await run('node', ['bin/outrank.mjs', 'simulate', '-f', 'no-such-scenario.yaml'], { cwd: root }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toBe('error: the path "no-such-scenario.yaml" does not exist\n');
  });

  it('refuses a file that is neither a scenario nor manifests', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'outrank-')), 'notes.yaml');
    await writeFile(file, 'owner: me\nreviewed: true\n');
    const failure = await run('node', ['bin/outrank.mjs', 'simulate', '-f', file], { cwd: root }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stderr).toBe(`error: ${file}:1: neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")\n`);
  });

  it('runs a file of manifests as one apply step', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'outrank-')), 'manifests.yaml');
    await writeFile(
      file,
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
spec: {replicas: 2, template: {spec: {containers: [{name: a, image: b, resources: {requests: {cpu: "1"}}}]}}}
`,
    );
    const { stdout } = await run('node', ['bin/outrank.mjs', 'simulate', '-f', file], { cwd: root });
    expect(stdout).toMatch(/^default\s+web-deployment\s+0\s+preemptible\s+m1:2\s+True\s+Success$/m);
  });

  it('fails on a scenario nested ten thousand levels deep with the nesting rule, YAML or JSON', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'outrank-'));
    for (const [name, text] of [
      ['deep.yaml', `steps: [{apply: ${'['.repeat(10_000)}${']'.repeat(10_000)}}]\n`],
      ['deep.json', `{"steps": [{"apply": ${'['.repeat(10_000)}${']'.repeat(10_000)}}]}`],
    ] as const) {
      await writeFile(join(folder, name), text);
      const failure = await run('node', ['bin/outrank.mjs', 'simulate', '-f', join(folder, name)], { cwd: root }).catch((error) => error);
      expect(failure.code).toBe(1);
      expect(failure.stderr).toContain('scenario must not be nested more than 100 levels deep');
    }
  });
});

describe('outrank simulate of a scenario with a refused write', () => {
  const scenario = 'examples/003-scheduling-suspension.yaml';

  it('exits 1, naming the step as a person counts it, as outrank apply does', async () => {
    const failure = await run('node', ['bin/outrank.mjs', 'simulate', '-f', scenario], { cwd: root }).catch((error) => error);
    expect(failure.code).toBe(1);
    expect(failure.stdout).toMatch(/^3\s+ResourceBinding\/report-job\s+/m);
    expect(failure.stderr).toContain('error: 1 write(s) refused (step 3); pass --allow-rejections if the scenario expects them');
  });

  it('exits 0 with --allow-rejections', async () => {
    const { stdout, stderr } = await run('node', ['bin/outrank.mjs', 'simulate', '-f', scenario, '--allow-rejections'], { cwd: root });
    expect(stdout).toContain('REJECTED');
    expect(stderr).toBe('');
  });
});

describe('outrank simulate --watch', () => {
  it('prints each decision as it happens on standard error, numbered by step, and the result as usual', async () => {
    const { stdout, stderr } = await run('node', ['bin/outrank.mjs', 'simulate', '-f', 'examples/000-binding-preemption.yaml', '--watch', '-o', 'json'], { cwd: root });
    expect(JSON.parse(stdout).metrics.bindingPreemptions).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toContain('step 2  Warning  Preempted  ResourceBinding/default/batch-p2-deployment: preempted by ResourceBinding default/urgent-deployment (priority 10) to make room on cluster member1');
    expect(lines.every((line) => /^step [12]  (Normal|Warning)  \w+  \S+: /.test(line))).toBe(true);
  });
});
