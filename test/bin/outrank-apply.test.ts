import { afterEach, describe, expect, it } from 'vitest';
import { startTestApi, type SchedulingMode, type TestApi } from './support/api-server';
import { SYSTEM_YAML } from './support/manifests';
import { outrank, rows, tempFile } from './support/run-cli';

let api: TestApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

async function server(mode?: SchedulingMode): Promise<string> {
  api = await startTestApi(mode);
  return api.url;
}

describe('outrank apply -f <manifests>', () => {
  it('creates the objects, then configures them when applied again', async () => {
    const url = await server();
    const file = await tempFile('system.yaml', SYSTEM_YAML);

    const first = await outrank('apply', '-f', file, '--server', url);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout.trimEnd().split('\n')).toEqual([
      'cluster.cluster.karmada.io/member1 created',
      'priorityclass.scheduling.k8s.io/high created',
      'priorityclass.scheduling.k8s.io/low created',
      'propagationpolicy.policy.karmada.io/by-pod-priority created',
      'propagationpolicy.policy.karmada.io/team-b-deployments created',
      'deployment.apps/web created',
      'deployment.apps/batch created',
      'deployment.apps/api created',
    ]);

    const changed = await tempFile('system.yaml', SYSTEM_YAML.replace('description: important work', 'description: most important work'));
    const second = await outrank('apply', '-f', changed, '--server', url);
    expect(second).toMatchObject({ code: 0, stderr: '' });
    // As kubectl says: what changed is "configured", what is as stored "unchanged".
    expect(second.stdout).toContain('priorityclass.scheduling.k8s.io/high configured\n');
    expect(second.stdout).toContain('priorityclass.scheduling.k8s.io/low unchanged\n');
    expect(second.stdout).toContain('deployment.apps/api unchanged\n');
    expect(second.stdout).not.toContain('created');

    const high = JSON.parse((await outrank('get', 'pc', 'high', '-o', 'json', '--server', url)).stdout);
    expect(high.description).toBe('most important work');
  });

  it('applies a directory as kubectl apply -f DIR does: its manifest files in name order', async () => {
    const url = await server();
    expect(await outrank('apply', '-f', 'examples/kubectl', '--server', url)).toMatchObject({ code: 0, stderr: '' });
    const shop = await outrank('apply', '-f', 'examples/kubectl/shop', '--server', url);
    expect(shop).toMatchObject({ code: 0, stderr: '' });
    expect(shop.stdout.trimEnd().split('\n')).toEqual([
      'deployment.apps/web created',
      'propagationpolicy.policy.karmada.io/shop created',
      'service/web created',
      'configmap/web-config created',
    ]);
  });

  it('puts objects that name no namespace in the one -n gives', async () => {
    const url = await server();
    const file = await tempFile('system.yaml', SYSTEM_YAML);
    expect((await outrank('apply', '-f', file, '-n', 'team-c', '--server', url)).code).toBe(0);
    const names = JSON.parse((await outrank('get', 'deploy', '-n', 'team-c', '-o', 'json', '--server', url)).stdout).items.map((d: any) => d.metadata.name);
    expect(names).toEqual(['batch', 'web']);
  });

  it('prints the server\'s message naming the field of a rejected object, applies the rest and exits 1', async () => {
    const url = await server();
    const file = await tempFile(
      'mixed.yaml',
      `apiVersion: apps/v1
kind: Deployment
metadata: {name: broken}
spec: {replicas: -1, template: {spec: {containers: [{name: a, image: b}]}}}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: gadget}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: fine}
value: 5
`,
    );
    const result = await outrank('apply', '-f', file, '--server', url);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('priorityclass.scheduling.k8s.io/fine created\n');
    expect(result.stderr).toContain(`Error from server (Invalid): error when creating "${file}": Deployment "broken" is invalid: spec.replicas: must not be negative`);
    expect(result.stderr).toContain(`error: resource mapping not found for name: "gadget" namespace: "" from "${file}": no matches for kind "Widget" in version "example.com/v1"`);
  });

  it('reports a file that is not YAML', async () => {
    const url = await server();
    const result = await outrank('apply', '-f', await tempFile('junk.yaml', 'a: [b\n'), '--server', url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*junk\.yaml is not valid YAML or JSON/);
  });

  it.each([
    ['[[[[…', `${'['.repeat(10_000)}${']'.repeat(10_000)}`],
    ['{a: {a: …', `kind: Cluster\nspec: ${'{a: '.repeat(10_000)}1${'}'.repeat(10_000)}\n`],
  ])('refuses a file nested ten thousand levels deep (%s), naming the rule, and sends nothing', async (_, text) => {
    const url = await server();
    const result = await outrank('apply', '-f', await tempFile('deep.yaml', text), '--server', url);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*deep\.yaml must not be nested more than 100 levels deep\n$/);
    expect(api!.requests).toEqual([]);
  });

  it("prints the server's warnings as kubectl does: each Karmada field outrank does not act on, and what becomes of it", async () => {
    const url = await server();
    const file = await tempFile(
      'policy.yaml',
      `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  conflictResolution: Overwrite
  failover: {cluster: {purgeMode: Directly}}
`,
    );
    const result = await outrank('apply', '-f', file, '--server', url);
    expect(result).toMatchObject({ code: 0, stdout: 'propagationpolicy.policy.karmada.io/web created\n' });
    expect(result.stderr).toBe(
      'Warning: spec.conflictResolution: carried to the binding for whatever propagates placements; outrank does not act on it\n' +
        'Warning: spec.failover: carried to the binding for whatever propagates placements; outrank does not act on it\n',
    );
  });
});

describe('outrank apply -f <scenario>', () => {
  it('runs the steps against the live system, waiting for each to settle: the preemption example preempts batch-p2', async () => {
    // The system works on a timer, as the local runtime does, so apply has to wait for it.
    const url = await server('background');
    const result = await outrank('apply', '-f', 'examples/000-binding-preemption.yaml', '--server', url);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('deployment.apps/urgent created');

    const table = rows((await outrank('get', 'bindings', '--server', url)).stdout);
    expect(table[0]).toEqual(['NAME', 'PRIORITY', 'PREEMPTIBILITY', 'CLUSTERS', 'SCHEDULED', 'REASON', 'AGE']);
    const byName = new Map(table.slice(1).map((row) => [row[0], row.slice(1, 6)]));
    expect(byName.get('urgent-deployment')).toEqual(['10', 'preemptible', 'member1:1', 'True', 'Success']);
    expect(byName.get('batch-p2-deployment')).toEqual(['2', 'preemptible', '<none>', 'False', 'Unschedulable']);
    for (const survivor of ['batch-p0-deployment', 'batch-p1-deployment', 'batch-p3-deployment']) {
      expect(byName.get(survivor)?.slice(2, 4)).toEqual(['member1:1', 'True']);
    }
  });

  it('patches and deletes as the steps say, and exits 1 after a rejected step', async () => {
    const url = await server();
    const result = await outrank('apply', '-f', 'examples/003-scheduling-suspension.yaml', '--server', url);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('resourcebinding.work.karmada.io/report-job patched\n');
    expect(result.stderr).toContain('Error from server (Invalid): ResourceBinding "report-job" is invalid: spec.suspension.scheduling: cannot be set to true');
  });

  it('gives up with a clear message when the bindings do not settle within --timeout', async () => {
    const url = await server('without-scheduler');
    const result = await outrank('apply', '-f', 'examples/000-binding-preemption.yaml', '--timeout', '1s', '--server', url);
    expect(result.code).toBe(1);
    // The first step's four bindings were made but never scheduled; the second step was not reached.
    expect(result.stderr).toContain('error: timed out after 1s waiting for the bindings to settle: 4 not scheduled yet: default/batch-p0-deployment (Pending)');
    expect(result.stdout).not.toContain('deployment.apps/urgent');
  });
});
