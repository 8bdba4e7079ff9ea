/**
 * What kubectl asks of the control plane itself, with the real kubectl (v1.32 on these machines):
 * health, cluster-info, a kind it does not serve, what the caller may do, what a field is. Skipped, saying so, where kubectl is not installed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlFor, type Kubectl } from './support/kubectl';
import { kubectlInstalled } from './support/kubectl-installed';
import { tempFile } from './support/run-cli';

let api: TestApi;
let kubectl: Kubectl;

describe.runIf(kubectlInstalled('kubectl-cluster'))('kubectl on the control plane', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    api = await startTestApi();
    kubectl = await kubectlFor(() => api.url);
  });
  afterAll(() => api.close());

  it('get --raw reads /healthz, /livez and /readyz, verbose or one check', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) expect(await kubectl('get', '--raw', path)).toMatchObject({ code: 0, stdout: 'ok' });
    expect((await kubectl('get', '--raw', '/readyz?verbose')).stdout).toBe('[+]ping ok\nreadyz check passed\n');
  });

  it('cluster-info names the control plane', async () => {
    const info = await kubectl('cluster-info');
    expect(info.code).toBe(0);
    expect(info.stdout).toContain(`Kubernetes control plane is running at ${api.url}\n`);
    expect(info.stderr).toBe('');
  });

  it.each([
    ['v1', 'Pod'],
    ['example.com/v1', 'Widget'],
  ])('apply of a %s %s, a kind not served, names it as against kube-apiserver', async (apiVersion, kind) => {
    const file = await tempFile('unserved.yaml', `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: {name: one}\n`);
    const applied = await kubectl('apply', '-f', file);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toBe(`error: resource mapping not found for name: "one" namespace: "" from "${file}": no matches for kind "${kind}" in version "${apiVersion}"\nensure CRDs are installed first\n`);
  });

  it('auth can-i --list lists what the caller may do, and auth can-i says yes to everything for an admin', async () => {
    // Without tenancy every caller is an admin.
    const list = await kubectl('auth', 'can-i', '--list', '-n', 'team-a');
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs$/);
    expect(lines[1]).toMatch(/^\*\.\*\s+\[\]\s+\[\]\s+\[\* get list watch\]$/);
    expect(lines).toContainEqual(expect.stringMatching(/^\s+\[\/readyz\]\s+\[\]\s+\[get\]$/));
    expect(await kubectl('auth', 'can-i', '*', '*')).toMatchObject({ code: 0, stdout: 'yes\n' });
  });

  it('explain types and describes the fields of a Deployment as Kubernetes does', async () => {
    const field = await kubectl('explain', 'deployment.spec.minReadySeconds');
    expect(field.stdout).toContain('FIELD: minReadySeconds <integer>');
    const spec = await kubectl('explain', 'deployment.spec');
    expect(spec.stdout).not.toContain('<empty>');
    expect(spec.stdout).toMatch(/paused\t<boolean>/);
    expect((await kubectl('explain', 'deployment.spec.template.spec')).stdout).toMatch(/nodeSelector\t<map\[string\]string>/);
  });
});
