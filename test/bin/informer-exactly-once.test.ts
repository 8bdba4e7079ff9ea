/**
 * A real client library's informer (@kubernetes/client-node makeInformer, a list then a watch from the
 * list's resourceVersion) sees each real change exactly once: its add, update and delete handlers are
 * called once per creation, change and deletion, never for an object the list already gave, and not
 * again when, cut off, it watches once more from the last version it saw.
 */
import { AppsV1Api, makeInformer, type V1Deployment } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workload } from '../lib/http/support';
import { startTestApi, type TestApi } from './support/api-server';
import { kubeConfigFor, until } from './support/informer-client';

const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

let api: TestApi;

/** A write; sent again once when it went out on a connection the server had just cut. */
async function send(method: string, path: string, body?: object): Promise<void> {
  const request = () =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const response = await request().catch(request);
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

const create = (name: string) => send('POST', DEPLOYMENTS, workload('apps/v1', 'Deployment', name));
const change = (name: string) => send('PATCH', `${DEPLOYMENTS}/${name}`, { metadata: { labels: { changed: String(Math.random()).slice(2, 8) } } });
const remove = (name: string) => send('DELETE', `${DEPLOYMENTS}/${name}`);

function informerOn(url: string) {
  const config = kubeConfigFor(url);
  const apps = config.makeApiClient(AppsV1Api);
  return makeInformer<V1Deployment>(config, DEPLOYMENTS, () => apps.listNamespacedDeployment({ namespace: 'default' }));
}

describe('a client-node informer of Deployments', { timeout: 30_000 }, () => {
  const seen: Array<[callback: string, name: string]> = [];
  let informer: ReturnType<typeof informerOn>;
  let errors = 0;

  beforeAll(async () => {
    api = await startTestApi();
    await create('listed-a');
    await create('listed-b');
    informer = informerOn(api.url);
    for (const callback of ['add', 'update', 'delete'] as const) informer.on(callback, (object) => seen.push([callback, object.metadata!.name!]));
    // As client-node's documentation advises: an informer cut off restarts, from the version it last saw.
    informer.on('error', () => {
      errors += 1;
      setTimeout(() => void informer.start(), 50);
    });
    await informer.start();
    await until(() => seen.length >= 2, 'the listed deployments');
  });
  afterAll(async () => {
    await informer?.stop();
    await api.close();
  });

  /** The handler calls after `from`, up to a change of `marker` made last: all the changes before it have been seen by then. */
  async function callsAfter(from: number, marker: string): Promise<Array<[string, string]>> {
    await change(marker);
    await until(() => seen.slice(from).some(([callback, name]) => callback === 'update' && name === marker), `the change of ${marker}`);
    return seen.slice(from, -1);
  }

  it('adds each listed object once', () => {
    expect(seen).toEqual([['add', 'listed-a'], ['add', 'listed-b']]);
  });

  it('calls add, update and delete once each for a creation, a change and a deletion', async () => {
    const from = seen.length;
    await create('created');
    await change('listed-a');
    await remove('listed-b');
    expect(await callsAfter(from, 'created')).toEqual([['add', 'created'], ['update', 'listed-a'], ['delete', 'listed-b']]);
  });

  it('cut off, watches again from the last version it saw: each change made meanwhile once, nothing before it again', async () => {
    const from = seen.length;
    const errorsBefore = errors;
    const requestsBefore = api.requests.length;
    api.dropConnections();
    await create('while-away');
    await change('created');
    await remove('listed-a');
    await until(() => errors > errorsBefore, 'the informer to notice the cut');
    expect(await callsAfter(from, 'while-away')).toEqual([['add', 'while-away'], ['update', 'created'], ['delete', 'listed-a']]);
    // Resumed by watches from a version, not by listing again.
    const reads = api.requests.slice(requestsBefore).filter((request) => request.startsWith(`GET ${DEPLOYMENTS}`));
    expect(reads.length).toBeGreaterThan(0);
    for (const request of reads) expect(request).toMatch(/[?&]watch=true.*resourceVersion=\d+|resourceVersion=\d+.*watch=true/);
    expect([...informer.list().map((deployment) => deployment.metadata!.name!)].sort()).toEqual(['created', 'while-away']);
  });
});
