/**
 * Watch with Kubernetes semantics, on the in-memory store (whose versions are its commit sequence, so
 * a watch from a version gives exactly the changes after it).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../lib/http/api-types';
import { isWatchRequest, type WatchEvent } from '../../../lib/http/watch';
import { testWatchTiming } from '../../support/watch-timing';
import { serveWatch } from '../../../lib/http/watch-request';
import type { ObjectStore } from '../../../lib/ports/object-store';
import { CountingStore } from '../../support/counting-store';
import { Api, cluster, job, propagationPolicy, workload } from './support';
import { refKey } from '../../../lib/api/kinds';

const TIMING = testWatchTiming(5, 30);

const ALL = '/apis/apps/v1/deployments';
const DEFAULT = '/apis/apps/v1/namespaces/default/deployments';

function request(path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}): ApiRequest {
  return { method: 'GET', path, query: { watch: '1', ...query }, headers, body: undefined };
}

interface Watching {
  readonly events: WatchEvent[];
  /** Waits until the events satisfy `done`, then stops the watch and returns them. */
  until(done: (events: readonly WatchEvent[]) => boolean): Promise<WatchEvent[]>;
  readonly ended: Promise<void>;
}

function watch(api: Api, watched: ApiRequest, store: ObjectStore = api.system.store): Watching {
  const served = serveWatch(watched, { objects: api.system.objects, store, events: api.system.events }, TIMING);
  if ('statusCode' in served) throw new Error(`refused: ${served.body}`);
  const events: WatchEvent[] = [];
  const controller = new AbortController();
  const ended = served.run({ signal: controller.signal, send: (event) => void events.push(event) });
  return {
    events,
    ended,
    until: async (done) => {
      for (let waited = 0; !done(events); waited += 5) {
        if (waited > 5_000) throw new Error(`watch events so far: ${JSON.stringify(events.map((e) => e.type))}`);
        await delay(5);
      }
      controller.abort();
      await ended;
      return events;
    },
  };
}

const summary = (events: readonly WatchEvent[]) =>
  events.filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, (e.object as { metadata: { name: string } }).metadata.name]);

const scaled = (name: string, replicas: number, labels: Record<string, string> = {}) => {
  const object = workload('apps/v1', 'Deployment', name, 'default', labels) as { spec: object };
  return { ...object, spec: { ...object.spec, replicas } };
};

/** The store's feed as DynamoDB's gives it: each object changed since the cursor once, as it is now. */
function latestOnly(store: ObjectStore): ObjectStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'changes') {
        return async (group: string, kind: string, cursor?: string) => {
          const page = await target.changes(group, kind, cursor);
          const latest = new Map(page.changes.map((change) => [refKey(change.ref), change]));
          return { ...page, changes: [...latest.values()] };
        };
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

const version = (event: WatchEvent) => (event.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

describe('watch', () => {
  it('of bindings by spec.clusters.name: those that wait, DELETED once placed', async () => {
    const api = new Api();
    await api.seed(cluster(), propagationPolicy('queued', 'default', { suspension: { scheduling: true } }), job('report'), job('backfill'));
    const watching = watch(api, request('/apis/work.karmada.io/v1alpha2/resourcebindings', { fieldSelector: 'spec.clusters.name=' }));
    await delay(20);
    const resumed = await api.send('PATCH', '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/report-job', {
      body: { spec: { suspension: { scheduling: false } } },
      contentType: 'application/merge-patch+json',
    });
    expect(resumed.statusCode).toBe(200);
    await api.system.runUntilIdle();
    const events = summary(await watching.until((e) => e.some((event) => event.type === 'DELETED')));
    expect(events.slice(0, 2).map(String).sort()).toEqual(['ADDED,backfill-job', 'ADDED,report-job']);
    // Its resumption and status while it still waited, then its leaving the selection as it is placed.
    expect(new Set(events.slice(2, -1).map(String))).toEqual(new Set(['MODIFIED,report-job']));
    expect(events.at(-1)).toEqual(['DELETED', 'report-job']);
  });

  it('without a resourceVersion: ADDED for what exists, then MODIFIED and DELETED as it changes', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'), workload('apps/v1', 'Deployment', 'b'));
    const watching = watch(api, request(ALL));
    await delay(20);
    await api.system.objects.apply(scaled('a', 3));
    await api.system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'b' });
    const events = await watching.until((e) => e.length >= 4);
    expect(summary(events)).toEqual([['ADDED', 'a'], ['ADDED', 'b'], ['MODIFIED', 'a'], ['DELETED', 'b']]);
    expect((events[3]!.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion).toMatch(/^\d+$/);
  });

  it('from a list\'s resourceVersion: exactly the changes after it, none before', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const list = await api.get(DEFAULT);
    await api.system.objects.apply(scaled('a', 2));
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'c'));
    const events = await watch(api, request(DEFAULT, { resourceVersion: list.body.metadata.resourceVersion })).until((e) => e.length >= 2);
    expect(summary(events)).toEqual([['MODIFIED', 'a'], ['ADDED', 'c']]);
  });

  it('from a version: ADDED for an object created after it, though the feed gives only its latest write', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'old'));
    const list = await api.get(DEFAULT);
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'new'));
    await api.system.objects.apply(scaled('new', 2));
    await api.system.objects.apply(scaled('old', 2));
    const events = await watch(api, request(DEFAULT, { resourceVersion: list.body.metadata.resourceVersion }), latestOnly(api.system.store)).until((e) => e.length >= 2);
    expect(summary(events)).toEqual([['ADDED', 'new'], ['MODIFIED', 'old']]);
    expect((events[0]!.object as { spec: { replicas: number } }).spec.replicas).toBe(2);
  });

  it('from an event\'s version: each later change once, nothing before it', async () => {
    const api = new Api();
    const list = await api.get(DEFAULT);
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'a'));
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'b'));
    const first = await watch(api, request(DEFAULT, { resourceVersion: list.body.metadata.resourceVersion })).until((e) => e.length >= 2);
    expect(summary(first)).toEqual([['ADDED', 'a'], ['ADDED', 'b']]);
    await api.system.objects.apply(scaled('a', 3));
    // As a client cut off after the first event resumes: b again (it never had it), then a's change.
    const resumed = await watch(api, request(DEFAULT, { resourceVersion: version(first[0]!) })).until((e) => e.length >= 2);
    expect(summary(resumed)).toEqual([['ADDED', 'b'], ['MODIFIED', 'a']]);
  });

  it('an object deleted and created again between two reads: DELETED, then ADDED', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const watching = watch(api, request(DEFAULT, { labelSelector: 'app!=none' }), latestOnly(api.system.store));
    await delay(20);
    const ref = { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'a' };
    // Both within one poll: the feed gives only the second life.
    await Promise.all([api.system.objects.delete(ref).then(() => api.system.objects.apply(scaled('a', 5)))]);
    const events = await watching.until((e) => e.length >= 3);
    expect(summary(events)).toEqual([['ADDED', 'a'], ['DELETED', 'a'], ['ADDED', 'a']]);
    expect((events[2]!.object as { spec: { replicas: number } }).spec.replicas).toBe(5);
  });

  it('sendInitialEvents: ADDED for what exists, a bookmark that ends them, then the changes', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'), workload('apps/v1', 'Deployment', 'b'));
    const list = await api.get(DEFAULT);
    const watching = watch(api, request(DEFAULT, { sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: 'true', resourceVersion: list.body.metadata.resourceVersion }));
    await watching.until((e) => e.length >= 3);
    const events = watching.events.slice(0, 3);
    expect(events.map((event) => event.type)).toEqual(['ADDED', 'ADDED', 'BOOKMARK']);
    expect(events[2]!.object).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { resourceVersion: expect.any(String), annotations: { 'k8s.io/initial-events-end': 'true' } } });
    expect(Number(version(events[2]!))).toBeGreaterThanOrEqual(Number(list.body.metadata.resourceVersion));
  });

  it.each([
    [{ sendInitialEvents: 'true', allowWatchBookmarks: 'true' }, 'resourceVersionMatch: Forbidden'],
    [{ sendInitialEvents: 'true', resourceVersionMatch: 'NotOlderThan' }, 'allowWatchBookmarks: Forbidden'],
  ])('refuses sendInitialEvents without what kube-apiserver requires with it (%j): 422 Invalid', (query, message) => {
    const api = new Api();
    const served = serveWatch(request(DEFAULT, query), { objects: api.system.objects, store: api.system.store, events: api.system.events }, TIMING);
    expect('statusCode' in served && served.statusCode).toBe(422);
    expect('statusCode' in served && served.body).toContain(message);
  });

  describe('of events', () => {
    const EVENTS = '/api/v1/namespaces/default/events';
    const about = (name: string, namespace = 'default') => ({ apiVersion: 'apps/v1', kind: 'Deployment', namespace, name });
    const record = (api: Api, name: string, namespace?: string) => api.system.events.record({ type: 'Normal', reason: 'Seen', object: about(name, namespace), message: `saw ${name}` });
    const messages = (events: readonly WatchEvent[]) => events.filter((e) => e.type !== 'BOOKMARK').map((e) => [e.type, (e.object as { message: string }).message]);

    it('from a list\'s version: ADDED for each event recorded after it in the namespace, none listed, each once', async () => {
      const api = new Api();
      await record(api, 'listed');
      const list = await api.get(EVENTS);
      expect(list.body.items.map((event: { message: string }) => event.message)).toEqual(['saw listed']);
      const watching = watch(api, request(EVENTS, { resourceVersion: list.body.metadata.resourceVersion }));
      await record(api, 'elsewhere', 'team');
      await record(api, 'a');
      await delay(20);
      await record(api, 'b');
      const events = await watching.until((e) => e.length >= 2);
      expect(messages(events)).toEqual([['ADDED', 'saw a'], ['ADDED', 'saw b']]);
      // Resumed from the first event's version: the second only.
      const resumed = await watch(api, request(EVENTS, { resourceVersion: version(events[0]!) })).until((e) => e.length >= 1);
      expect(messages(resumed)).toEqual([['ADDED', 'saw b']]);
    });

    it('without a version: ADDED for the events there are, then for those recorded, selected by field', async () => {
      const api = new Api();
      await record(api, 'a');
      await record(api, 'b');
      const watching = watch(api, request('/api/v1/events', { fieldSelector: 'involvedObject.name!=b' }));
      await delay(20);
      await record(api, 'c');
      expect(messages(await watching.until((e) => e.length >= 2))).toEqual([['ADDED', 'saw a'], ['ADDED', 'saw c']]);
    });

    it('with bookmarks: a bookmark carries the log\'s version; a version it never gave is 410 Expired', async () => {
      const api = new Api();
      const events = await watch(api, request(EVENTS, { allowWatchBookmarks: 'true' })).until((e) => e.some((event) => event.type === 'BOOKMARK'));
      expect(events.find((event) => event.type === 'BOOKMARK')?.object).toEqual({ apiVersion: 'v1', kind: 'Event', metadata: { resourceVersion: '0' } });
      const expired = watch(api, request(EVENTS, { resourceVersion: '99' }));
      await expired.ended;
      expect(expired.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ code: 410, reason: 'Expired' }) }]);
    });
  });

  it('resumes from a bookmark without missing a change', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const first = await watch(api, request(DEFAULT, { allowWatchBookmarks: 'true' })).until((e) => e.some((event) => event.type === 'BOOKMARK'));
    const bookmark = first.find((event) => event.type === 'BOOKMARK')!.object as { metadata: { resourceVersion: string } };
    await api.system.objects.apply(scaled('a', 4));
    const resumed = await watch(api, request(DEFAULT, { resourceVersion: bookmark.metadata.resourceVersion })).until((e) => e.length >= 1);
    expect(summary(resumed)).toEqual([['MODIFIED', 'a']]);
    expect((resumed[0]!.object as { spec: { replicas: number } }).spec.replicas).toBe(4);
  });

  it('from a version without a selector: reads the changes after it, not the kind', async () => {
    const api = new Api();
    await api.seed(...Array.from({ length: 200 }, (_, i) => workload('apps/v1', 'Deployment', `app-${i}`)));
    const list = await api.get(DEFAULT, { limit: '1' });
    await api.system.objects.apply(scaled('app-7', 2));
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'new'));
    await api.system.objects.delete({ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'app-9' });
    const store = new CountingStore(api.system.store);
    const events = await watch(api, request(DEFAULT, { resourceVersion: list.body.metadata.resourceVersion }), store).until((e) => e.length >= 3);
    expect(summary(events)).toEqual([['MODIFIED', 'app-7'], ['ADDED', 'new'], ['DELETED', 'app-9']]);
    // The object deleted before the watch saw it: as it was deleted, at the deletion's version.
    const deleted = events[2]!.object as { metadata: { resourceVersion: string }; spec: unknown };
    expect(deleted).toMatchObject({ kind: 'Deployment', metadata: { name: 'app-9', namespace: 'default' }, spec: { replicas: 1 } });
    expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number(list.body.metadata.resourceVersion));
    // The three changes, not the 200 objects (each poll reads what changed since the last).
    expect(store.counts.itemsRead).toBe(3);
  });

  it('from a version with a selector: DELETED for an object that stopped matching before the watch began', async () => {
    const api = new Api();
    await api.seed(scaled('a', 1, { tier: 'web' }), workload('apps/v1', 'Deployment', 'b'));
    const list = await api.get(DEFAULT, { labelSelector: 'tier=web' });
    expect(list.body.items.map((item: { metadata: { name: string } }) => item.metadata.name)).toEqual(['a']);
    await api.system.objects.apply(scaled('a', 1, { tier: 'db' }));
    const watching = watch(api, request(DEFAULT, { resourceVersion: list.body.metadata.resourceVersion, labelSelector: 'tier=web' }));
    await delay(20);
    // b is known from the kind's read as the client has it (unchanged since the version): no event.
    await api.system.objects.apply(scaled('b', 3));
    await api.system.objects.apply(scaled('b', 4, { tier: 'web' }));
    const events = await watching.until((e) => e.length >= 2);
    expect(summary(events)).toEqual([['DELETED', 'a'], ['ADDED', 'b']]);
    expect((events[0]!.object as { metadata: { labels: Record<string, string> } }).metadata.labels).toEqual({ tier: 'db' });
  });

  it('with a label selector: ADDED when an object comes to match, DELETED when it stops', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const watching = watch(api, request(DEFAULT, { labelSelector: 'tier=web' }));
    await delay(20);
    await api.system.objects.apply(scaled('a', 1, { tier: 'web' }));
    await api.system.objects.apply(scaled('a', 2, { tier: 'web' }));
    await api.system.objects.apply(scaled('a', 2, { tier: 'db' }));
    expect(summary(await watching.until((e) => e.length >= 3))).toEqual([['ADDED', 'a'], ['MODIFIED', 'a'], ['DELETED', 'a']]);
  });

  it('in a namespace sees only that namespace', async () => {
    const api = new Api();
    const watching = watch(api, request(DEFAULT));
    await delay(20);
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'elsewhere', 'team'));
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'here'));
    expect(summary(await watching.until((e) => e.length >= 1))).toEqual([['ADDED', 'here']]);
  });

  it.each(['999999', 'not-a-version'])('from a version the feed does not reach (%s): an ERROR event with 410 Expired, then the end', async (version) => {
    const api = new Api();
    const watching = watch(api, request(DEFAULT, { resourceVersion: version }));
    await watching.ended;
    expect(watching.events).toEqual([{ type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) }]);
  });

  it('ends after timeoutSeconds', async () => {
    const api = new Api();
    const watching = watch(api, request(DEFAULT, { timeoutSeconds: '0' }));
    await watching.ended;
    expect(watching.events).toEqual([]);
  });

  it('sends each object as a Table when the client asks for Tables (kubectl get -w)', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const events = await watch(api, request(DEFAULT, {}, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).until((e) => e.length >= 1);
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'Table', rows: [{ cells: expect.arrayContaining(['a']) }] } });
  });

  it.each([
    ['one object by its URL', `${DEFAULT}/a`, {}, 405],
    ['a negative timeoutSeconds', DEFAULT, { timeoutSeconds: '-1' }, 400],
    ['a kind not served', '/apis/apps/v1/namespaces/default/daemonsets', {}, 404],
  ])('refuses to watch %s with an ordinary Status', (_, path, query, code) => {
    const api = new Api();
    const served = serveWatch(request(path, query), { objects: api.system.objects, store: api.system.store, events: api.system.events }, TIMING);
    expect('statusCode' in served && served.statusCode).toBe(code);
  });

  it('is recognised by watch=1 or watch=true on a GET only', () => {
    expect(isWatchRequest(request(DEFAULT))).toBe(true);
    expect(isWatchRequest({ ...request(DEFAULT), query: { watch: 'true' } })).toBe(true);
    expect(isWatchRequest({ ...request(DEFAULT), query: { watch: 'false' } })).toBe(false);
    expect(isWatchRequest({ ...request(DEFAULT), method: 'POST' })).toBe(false);
  });
});
