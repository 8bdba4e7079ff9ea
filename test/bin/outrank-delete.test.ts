import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { SYSTEM_YAML } from './support/manifests';
import { outrank, tempFile } from './support/run-cli';

let api: TestApi;
let file: string;

beforeEach(async () => {
  api = await startTestApi();
  file = await tempFile('system.yaml', SYSTEM_YAML);
  expect((await outrank('apply', '-f', file, '--server', api.url)).code).toBe(0);
});
afterEach(() => api.close());

describe('outrank delete', () => {
  it('deletes objects by kind and name', async () => {
    expect(await outrank('delete', 'deploy', 'web', 'batch', '--server', api.url)).toEqual({
      code: 0,
      stdout: 'deployment.apps "web" deleted\ndeployment.apps "batch" deleted\n',
      stderr: '',
    });
    expect((await outrank('get', 'deploy', '--server', api.url)).stderr).toBe('No resources found in default namespace.\n');
    expect((await outrank('delete', 'pp', 'team-b-deployments', '-n', 'team-b', '--server', api.url)).stdout).toBe(
      'propagationpolicy.policy.karmada.io "team-b-deployments" deleted\n',
    );
  });

  it('deletes the objects of a file', async () => {
    const result = await outrank('delete', '-f', file, '--server', api.url);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toContain('cluster.cluster.karmada.io "member1" deleted\n');
    expect(result.stdout).toContain('deployment.apps "api" deleted\n');
    expect((await outrank('get', 'pc', '--server', api.url)).stderr).toBe('No resources found\n');
  });

  it('prints the server\'s Status for an object that does not exist, deletes the others and exits 1', async () => {
    expect(await outrank('delete', 'pc', 'nope', 'low', '--server', api.url)).toEqual({
      code: 1,
      stdout: 'priorityclass.scheduling.k8s.io "low" deleted\n',
      stderr: 'Error from server (NotFound): priorityclasses.scheduling.k8s.io "nope" not found\n',
    });
  });
});
