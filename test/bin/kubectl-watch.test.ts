/**
 * kubectl itself (v1.32 on these machines) watching the API: `kubectl get -w` lists, then watches from
 * the list's resourceVersion. Each object listed is printed once, a creation as ADDED, a change as
 * MODIFIED, a deletion as DELETED; events stream too. Skipped, saying so, where kubectl is not installed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { workload } from '../lib/http/support';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';
import { kubectlWatches } from './support/kubectl-watching';

let api: TestApi;
const { watching, stop } = kubectlWatches();
const kubectlWatching = (...args: string[]) => watching(api.url, ...args);

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

async function send(method: string, path: string, body?: object): Promise<void> {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

const record = (name: string) =>
  api.system.events.record({ type: 'Normal', reason: 'Seen', object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name }, message: `saw ${name}` });

describe.runIf(kubectlInstalled('kubectl-watch'))('kubectl get -w against the outrank API', { timeout: 30_000 }, () => {
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterEach(() => stop());
  afterAll(() => api.close());

  it('--output-watch-events: each listed object once, then ADDED for a creation, MODIFIED for a change, DELETED for a deletion', async () => {
    await send('POST', DEPLOYMENTS, workload('apps/v1', 'Deployment', 'listed'));
    await send('POST', DEPLOYMENTS, workload('apps/v1', 'Deployment', 'also-listed'));
    const kubectl = kubectlWatching('get', 'deployments', '-w', '--output-watch-events');
    await kubectl.until((rows) => rows.length >= 3);
    await send('POST', DEPLOYMENTS, workload('apps/v1', 'Deployment', 'created'));
    await send('PATCH', `${DEPLOYMENTS}/listed`, { metadata: { labels: { touched: 'yes' } } });
    await send('DELETE', `${DEPLOYMENTS}/also-listed`);
    const rows = await kubectl.until((printed) => printed.some((row) => row[0] === 'DELETED'));
    expect(rows.map((row) => row.slice(0, 2))).toEqual([
      ['EVENT', 'NAME'],
      ['ADDED', 'also-listed'],
      ['ADDED', 'listed'],
      ['ADDED', 'created'],
      ['MODIFIED', 'listed'],
      ['DELETED', 'also-listed'],
    ]);
  });

  it('without --output-watch-events: a listed object\'s row is printed once until it changes', async () => {
    const OTHER = '/apis/apps/v1/namespaces/other/deployments';
    await send('POST', OTHER, workload('apps/v1', 'Deployment', 'quiet', 'other'));
    await send('POST', OTHER, workload('apps/v1', 'Deployment', 'changed', 'other'));
    const kubectl = kubectlWatching('get', 'deployments', '-n', 'other', '-w');
    await kubectl.until((rows) => rows.length >= 3);
    await send('PATCH', `${OTHER}/changed`, { metadata: { labels: { touched: 'yes' } } });
    await send('POST', OTHER, workload('apps/v1', 'Deployment', 'new', 'other'));
    const rows = await kubectl.until((printed) => printed.length >= 5);
    expect(rows.map((row) => row[0])).toEqual(['NAME', 'changed', 'quiet', 'changed', 'new']);
  });

  it('kubectl get events -w: the events there are, then each one recorded, once', async () => {
    await record('before');
    const kubectl = kubectlWatching('get', 'events', '-w', '--output-watch-events');
    await kubectl.until((rows) => rows.some((row) => row.includes('saw before')));
    await record('after');
    const rows = await kubectl.until((printed) => printed.some((row) => row.includes('saw after')));
    expect(rows[0]).toContain('EVENT');
    expect(rows.slice(1).map((row) => [row[0], row.at(-1)])).toEqual([
      ['ADDED', 'saw before'],
      ['ADDED', 'saw after'],
    ]);
  });
});
