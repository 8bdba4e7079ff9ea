/** limit and continue, as Kubernetes clients page through a list (kubectl get --chunk-size). */
import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { listVersion } from '../../../lib/http/lists';
import { CountingStore } from '../../support/counting-store';
import { Api, parseReply, workload } from './support';

const all = '/apis/apps/v1/deployments';

async function fleet(): Promise<Api> {
  const api = new Api();
  // Namespaces "a" and "a-b" order differently as "a/…" and "a-b/…" strings (as stored) than by namespace.
  for (const [namespace, name] of [['a', 'x'], ['a-b', 'x'], ['a', 'y'], ['b', 'w'], ['a-b', 'z']] as const) {
    await api.seed(workload('apps/v1', 'Deployment', name, namespace));
  }
  return api;
}

describe('list paging', () => {
  it('pages through every object once, in storage order as Kubernetes lists are (a namespace "a-b" before "a"), each page with the first page\'s version', async () => {
    const api = await fleet();
    const seen: string[] = [];
    const versions: string[] = [];
    let token: string | undefined = '';
    for (let page = 0; token !== undefined && page < 10; page += 1) {
      const reply = await api.get(all, { limit: '2', continue: token });
      expect(reply.statusCode).toBe(200);
      expect(reply.body.items.length).toBeLessThanOrEqual(2);
      expect(reply.body.metadata.remainingItemCount).toBeUndefined();
      seen.push(...reply.body.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`));
      versions.push(reply.body.metadata.resourceVersion);
      token = reply.body.metadata.continue;
    }
    expect(seen).toEqual(['a-b/x', 'a-b/z', 'a/x', 'a/y', 'b/w']);
    expect(new Set(versions).size).toBe(1);
  });

  it('lists without a limit in the same order', async () => {
    const api = await fleet();
    const reply = await api.get(all);
    expect(reply.body.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`)).toEqual(['a-b/x', 'a-b/z', 'a/x', 'a/y', 'b/w']);
  });

  it('gives no continue token when the page holds the rest', async () => {
    const api = await fleet();
    const reply = await api.get(all, { limit: '5' });
    expect(reply.body.items).toHaveLength(5);
    expect(reply.body.metadata.continue).toBeUndefined();
  });

  it('pages after the selector is applied, reading on past the objects it does not select', async () => {
    const api = await fleet();
    const first = await api.get(all, { limit: '1', fieldSelector: 'metadata.name=x' });
    expect(first.body.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`)).toEqual(['a-b/x']);
    const second = await api.get(all, { limit: '1', fieldSelector: 'metadata.name=x', continue: first.body.metadata.continue });
    expect(second.body.items.map((item: any) => `${item.metadata.namespace}/${item.metadata.name}`)).toEqual(['a/x']);
    // Objects follow a/x (a/y, b/w): the server cannot say whether any is selected without reading them.
    const third = await api.get(all, { limit: '1', fieldSelector: 'metadata.name=x', continue: second.body.metadata.continue });
    expect(third.body.items).toEqual([]);
    expect(third.body.metadata.continue).toBeUndefined();
  });

  it('pages one namespace, and refuses a token of another namespace\'s list', async () => {
    const api = await fleet();
    const first = await api.get('/apis/apps/v1/namespaces/a-b/deployments', { limit: '1' });
    expect(first.body.items.map((item: any) => item.metadata.name)).toEqual(['x']);
    const second = await api.get('/apis/apps/v1/namespaces/a-b/deployments', { limit: '1', continue: first.body.metadata.continue });
    expect(second.body.items.map((item: any) => item.metadata.name)).toEqual(['z']);
    expect(second.body.metadata.continue).toBeUndefined();
    const elsewhere = await api.get('/apis/apps/v1/namespaces/a/deployments', { limit: '1', continue: first.body.metadata.continue });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body.message).toMatch(/^continue:/);
  });

  it('reads about a page from the store, not the kind: 1,000 objects paged 10 at a time', async () => {
    const api = new Api();
    for (let index = 0; index < 1_000; index++) await api.seed(workload('apps/v1', 'Deployment', `app-${String(index).padStart(4, '0')}`, 'fleet'));
    const store = new CountingStore(api.system.store);
    const get = async (query: Record<string, string>) =>
      parseReply(await handleApiRequest({ method: 'GET', path: all, query, headers: {}, body: undefined }, { objects: api.system.objects, store, events: api.system.events }));

    let token = '';
    const names: string[] = [];
    for (let page = 0; page < 50; page++) {
      const reply = await get({ limit: '10', continue: token });
      names.push(...reply.body.items.map((item: any) => item.metadata.name));
      token = reply.body.metadata.continue;
    }
    expect(names).toEqual(Array.from({ length: 500 }, (_, index) => `app-${String(index).padStart(4, '0')}`));
    // Each page reads its 10 objects and the one after them (to know that more follow).
    expect(store.counts.itemsRead).toBe(50 * 11);
    expect(store.counts.byMethod).toEqual({ listPage: 50 });
  });

  it('answers every page with the first page\'s version, whatever is written between pages', async () => {
    const api = await fleet();
    const lastWritten = (await api.get('/apis/apps/v1/namespaces/a-b/deployments/z')).body.metadata.resourceVersion;
    const first = await api.get(all, { limit: '2' });
    expect(first.body.metadata.resourceVersion).toBe(lastWritten);
    await api.seed(workload('apps/v1', 'Deployment', 'later', 'b'));
    const second = await api.get(all, { limit: '2', continue: first.body.metadata.continue });
    expect(second.body.metadata.resourceVersion).toBe(lastWritten);
  });

  it('answers a list in more pages than one with the store\'s version from before its first read, not its first page\'s newest item', async () => {
    const api = new Api();
    for (const name of ['app-0', 'app-1', 'app-2', 'app-3']) await api.seed(workload('apps/v1', 'Deployment', name, 'fleet'));
    const [second, last] = await Promise.all(['app-1', 'app-3'].map((name) => api.get(`/apis/apps/v1/namespaces/fleet/deployments/${name}`)));
    const first = await api.get('/apis/apps/v1/namespaces/fleet/deployments', { limit: '2' });
    expect(first.body.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['app-0', 'app-1']);
    // app-2 and app-3, on the next page, are newer than app-1: a watch from app-1's version would send them again.
    expect(first.body.metadata.resourceVersion).not.toBe(second!.body.metadata.resourceVersion);
    expect(first.body.metadata.resourceVersion).toBe(last!.body.metadata.resourceVersion);
  });

  it.each<[string, Array<string | undefined>, boolean, string]>([
    ['its newest item\'s, which a watch from it does not send again', ['3', '12', '7'], true, '12'],
    ['the store\'s before the read when the feed no longer reaches its newest item (a watch from it would be refused)', ['3', '12'], false, 'before'],
    ['the store\'s before the read when it is empty', [], true, 'before'],
  ])('a list of objects answers %s', (_, versions, reachable, expected) => {
    const items = versions.map((resourceVersion, index) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${index}`, resourceVersion } }));
    expect(listVersion(items, { cursorAt: (version) => (reachable ? version : undefined) }, 'before')).toBe(expected);
  });

  it('asks the store for at most a thousand objects a read, whatever limit a client gives', async () => {
    const api = new Api();
    for (let index = 0; index < 1_500; index++) await api.seed(workload('apps/v1', 'Deployment', `app-${String(index).padStart(4, '0')}`, 'fleet'));
    const asked: number[] = [];
    const store = api.system.store;
    const counted = Object.assign(Object.create(store) as typeof store, {
      listPage: (group: string, kind: string, page: { limit: number }, namespace?: string) => (asked.push(page.limit), store.listPage(group, kind, page, namespace)),
    });
    const reply = parseReply(
      await handleApiRequest({ method: 'GET', path: all, query: { limit: '1000000000000' }, headers: {}, body: undefined }, { objects: api.system.objects, store: counted, events: api.system.events }),
    );
    expect(reply.body.items).toHaveLength(1_500);
    expect(reply.body.metadata.continue).toBeUndefined();
    expect(asked).toEqual([1_000, 1_000]);
  });

  it.each([
    ['an object of another namespace', '/apis/apps/v1/namespaces/a/deployments', { after: ['b', 'w'], scope: 'a', version: '1' }],
    ['the token of another namespace\'s list', '/apis/apps/v1/namespaces/a/deployments', { after: ['a', 'x'], scope: 'b', version: '1' }],
    ['a namespace that cannot be one', all, { after: ['~', 'x'], scope: '*', version: '1' }],
    ['a name that cannot be one', all, { after: ['a', 'x/y'], scope: '*', version: '1' }],
    ['a name too long to be one', all, { after: ['a', 'x'.repeat(254)], scope: '*', version: '1' }],
    ['a token of a list read by position (events)', all, { position: '3', scope: '*', version: '0' }],
    ['a token without the list it continues', all, { after: ['a', 'x'], version: '1' }],
  ])('refuses a continue token after %s with 400, reading nothing', async (_, path, token) => {
    const api = await fleet();
    const reply = await api.get(path, { limit: '1', continue: Buffer.from(JSON.stringify(token)).toString('base64url') });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(/^continue:/);
  });

  it.each([
    ['a limit that is not a number', { limit: 'ten' }, 'limit'],
    ['a negative limit', { limit: '-1' }, 'limit'],
    ['a continue token it did not give', { continue: 'bm90LWEtdG9rZW4' }, 'continue'],
  ])('refuses %s with 400 naming the parameter', async (_, query, parameter) => {
    const api = await fleet();
    const reply = await api.get(all, query);
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(new RegExp(`^${parameter}:`));
  });
});
