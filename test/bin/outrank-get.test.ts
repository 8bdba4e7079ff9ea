import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startTestApi, type TestApi } from './support/api-server';
import { SYSTEM_YAML } from './support/manifests';
import { outrank, rows, tempFile } from './support/run-cli';

let api: TestApi;
const get = (...args: string[]) => outrank('get', ...args, '--server', api.url);

beforeAll(async () => {
  api = await startTestApi();
  const applied = await outrank('apply', '-f', await tempFile('system.yaml', SYSTEM_YAML), '--server', api.url);
  expect(applied.code).toBe(0);
});
afterAll(() => api.close());

/** The table without its AGE column, whose values depend on the clock. */
async function table(...args: string[]): Promise<string[][]> {
  const result = await get(...args);
  expect(result).toMatchObject({ code: 0, stderr: '' });
  const all = rows(result.stdout);
  const age = all[0]!.indexOf('AGE');
  return age < 0 ? all : all.map((row) => row.filter((_, column) => column !== age));
}

describe('outrank get', () => {
  it('prints bindings as a table, scheduled ones with their clusters', async () => {
    expect(await table('bindings')).toEqual([
      ['NAME', 'PRIORITY', 'PREEMPTIBILITY', 'CLUSTERS', 'SCHEDULED', 'REASON'],
      ['batch-deployment', '10', 'preemptible', 'member1:1', 'True', 'Success'],
      // At priority 1000 the default settings make a binding non-preemptible.
      ['web-deployment', '1000', 'non-preemptible', 'member1:2', 'True', 'Success'],
    ]);
  });

  it('adds the wide columns with -o wide', async () => {
    const [header, web] = await table('rb', 'web-deployment', '-o', 'wide');
    expect(header!.slice(-3)).toEqual(['AFFINITY', 'POLICY', 'RESOURCE']);
    expect(web!.slice(-3)).toEqual(['<none>', 'propagationpolicy/by-pod-priority', 'deployment/web']);
  });

  it('prints clusters, priority classes, policies and templates with their own columns', async () => {
    expect(await table('clusters')).toEqual([
      // Placed by outrank / allocatable.
      ['NAME', 'READY', 'CPU', 'MEMORY', 'TAINTS'],
      ['member1', 'True', '4/8', '0/32Gi', '<none>'],
    ]);
    expect(await table('pc')).toEqual([
      ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'PREEMPTION-POLICY'],
      ['high', '1000', 'false', 'PreemptLowerPriority'],
      ['low', '10', 'false', 'Never'],
    ]);
    expect(await table('pp', '-n', 'team-b')).toEqual([
      ['NAME', 'PRIORITY', 'PREEMPTION', 'PRIORITY-CLASS'],
      ['team-b-deployments', '5', 'Never', '<none>'],
    ]);
    expect(await table('deploy')).toEqual([
      ['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'PLACEMENT'],
      ['batch', '0/1', '0', '0', 'member1:1'],
      ['web', '0/2', '0', '0', 'member1:2'],
    ]);
  });

  it('lists every namespace with -A, in a NAMESPACE column', async () => {
    expect(await table('deployments', '-A')).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'PLACEMENT'],
      ['default', 'batch', '0/1', '0', '0', 'member1:1'],
      ['default', 'web', '0/2', '0', '0', 'member1:2'],
      ['team-b', 'api', '0/1', '0', '0', 'member1:1'],
    ]);
  });

  it('selects by label with -l', async () => {
    expect(await table('deploy', '-A', '-l', 'app=web')).toEqual([
      ['NAMESPACE', 'NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'PLACEMENT'],
      ['default', 'web', '0/2', '0', '0', 'member1:2'],
      ['team-b', 'api', '0/1', '0', '0', 'member1:1'],
    ]);
  });

  it('prints the events of the namespace', async () => {
    const events = await table('ev');
    expect(events[0]).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(events.slice(1).map((row) => row.slice(1))).toContainEqual(['Normal', 'ScheduleBindingSucceed', 'resourcebinding/web-deployment', 'placed on member1 (2)']);
  });

  it('prints an object as JSON or YAML, and a list as the server\'s List', async () => {
    const json = JSON.parse((await get('priorityclass', 'high', '-o', 'json')).stdout);
    expect(json).toMatchObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
    const yaml = parse((await get('PriorityClass', 'high', '-o', 'yaml')).stdout);
    expect(yaml).toEqual(json);
    const list = JSON.parse((await get('pc', '-o', 'json')).stdout);
    expect(list).toMatchObject({ kind: 'PriorityClassList', metadata: { resourceVersion: expect.any(String) } });
    expect(list.items.map((p: any) => p.metadata.name)).toEqual(['high', 'low']);
  });

  it('says so on stderr when there is nothing to list, and succeeds', async () => {
    expect(await get('jobs')).toEqual({ code: 0, stdout: '', stderr: 'No resources found in default namespace.\n' });
    expect(await get('crb')).toEqual({ code: 0, stdout: '', stderr: 'No resources found\n' });
  });

  it('prints the server\'s Status when the named object does not exist', async () => {
    expect(await get('deploy', 'nope')).toEqual({ code: 1, stdout: '', stderr: 'Error from server (NotFound): deployments.apps "nope" not found\n' });
  });

  it('refuses a kind the API does not serve', async () => {
    expect(await get('widgets')).toEqual({ code: 1, stdout: '', stderr: 'error: the server doesn\'t have a resource type "widgets"\n' });
  });

  it('passes the server\'s refusal of a bad selector on', async () => {
    const result = await get('deploy', '-l', 'app in (web');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error from server \(BadRequest\): unable to parse labelSelector/);
  });
});
