import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from './support/api-server';
import { outrank, rows } from './support/run-cli';

let api: TestApi;
const describeObject = (...args: string[]) => outrank('describe', ...args, '--server', api.url);

beforeAll(async () => {
  api = await startTestApi();
  expect((await outrank('apply', '-f', 'examples/000-binding-preemption.yaml', '--server', api.url)).code).toBe(0);
});
afterAll(() => api.close());

describe('outrank describe', () => {
  it('shows a binding\'s identity, spec and status, then its events', async () => {
    const result = await describeObject('rb', 'batch-p2-deployment');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [head, events] = result.stdout.split('\nEvents:\n');
    expect(head).toMatch(/^Name: +batch-p2-deployment\nNamespace: +default\nLabels: +propagationpolicy\.karmada\.io\/name=by-pod-priority\n +propagationpolicy\.karmada\.io\/namespace=default\n/);
    expect(head).toMatch(/\nKind: +ResourceBinding\n/);
    expect(head).toContain('\nSpec:\n  resource:\n    apiVersion: apps/v1\n');
    // 1 made, 2 placed, 3 preempted: the scheduler's writes of spec.clusters move the generation too, and it observes its own.
    expect(head).toMatch(/\nGeneration: +3\n/);
    expect(head).toMatch(/\nStatus:\n {2}schedulerObservedGeneration: 3\n/);
    const table = rows(events!.replace(/^ {2}/gm, ''));
    expect(table[0]).toEqual(['Type', 'Reason', 'Age', 'From', 'Message']);
    expect(table.slice(1).map((row) => row[1])).toEqual(['------', 'ScheduleBindingSucceed', 'Preempted', 'ScheduleBindingFailed']);
    expect(table[3]![4]).toContain('preempted by ResourceBinding default/urgent-deployment');
  });

  it('shows the fields of a kind without spec, and no events', async () => {
    const result = await describeObject('pc', 'urgent');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('Namespace:');
    expect(result.stdout).toMatch(/\nValue: +10\nPreemption Policy: +PreemptLowerPriority\nDescription: +Preempts lower priorities\nEvents: +<none>\n$/);
  });

  it('prints the server\'s Status for an object that does not exist', async () => {
    expect(await describeObject('cluster', 'nope')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error from server (NotFound): clusters.cluster.karmada.io "nope" not found\n',
    });
  });
});
