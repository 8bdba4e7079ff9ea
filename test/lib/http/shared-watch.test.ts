/**
 * Watches of one kind share one read of its change feed per poll (lib/http/shared-change-feed.ts),
 * and each still gets exactly what a watch reading on its own got: polls are driven by hand here, so
 * that where the feed stands when a watch joins is known.
 */
import { setImmediate } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../lib/http/api-types';
import type { WatchEvent, WatchTiming } from '../../../lib/http/watch';
import { serveWatch } from '../../../lib/http/watch-request';
import type { ChangePage, ObjectStore, StoredObject } from '../../../lib/ports/object-store';
import { CountingStore } from '../../support/counting-store';
import { Api, workload } from './support';

const DEFAULT = '/apis/apps/v1/namespaces/default/deployments';

/** The in-memory store answers in microtasks: a few turns of the event loop finish whatever it started. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn++) await setImmediate();
}

/** Watch timing whose every sleep lasts until the next `poll()` (or its signal): each poll is one read of the feed. */
class HandPacedTiming implements WatchTiming {
  readonly pollIntervalMs = 1_000;
  readonly bookmarkIntervalMs = 60_000;
  readonly maxTimeoutSeconds = 600;
  readonly now = Date.now;
  private sleepers = new Set<() => void>();

  readonly sleep = (_ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal.aborted) return resolve();
      const wake = () => {
        this.sleepers.delete(wake);
        resolve();
      };
      this.sleepers.add(wake);
      signal.addEventListener('abort', wake, { once: true });
    });

  /** Lets what is under way settle (the feed goes to sleep), ends every sleep, then lets what that starts (reads of the in-memory store, events) finish. */
  async poll(): Promise<void> {
    await settle();
    for (const wake of [...this.sleepers]) wake();
    await settle();
  }
}

function request(query: Record<string, string> = {}): ApiRequest {
  return { method: 'GET', path: DEFAULT, query: { watch: '1', ...query }, headers: {}, body: undefined };
}

interface Watching {
  readonly events: WatchEvent[];
  readonly ended: Promise<void>;
  stop(): Promise<void>;
}

function watch(api: Api, timing: WatchTiming, query: Record<string, string> = {}, store: ObjectStore = api.system.store): Watching {
  const served = serveWatch(request(query), { objects: api.system.objects, store, events: api.system.events }, timing);
  if ('statusCode' in served) throw new Error(`refused: ${served.body}`);
  const events: WatchEvent[] = [];
  const controller = new AbortController();
  const ended = served.run({ signal: controller.signal, send: (event) => void events.push(event) });
  // A watch that fails is asserted on later; until then its rejection is not unhandled.
  ended.catch(() => undefined);
  return {
    events,
    ended,
    stop: async () => {
      controller.abort();
      await ended;
    },
  };
}

const summary = (watching: Watching) =>
  watching.events.map((e) => [e.type, (e.object as StoredObject).metadata.name, (e.object as { spec?: { replicas?: number } }).spec?.replicas]);

const scaled = (name: string, replicas: number, labels: Record<string, string> = {}) => {
  const object = workload('apps/v1', 'Deployment', name, 'default', labels) as { spec: object };
  return { ...object, spec: { ...object.spec, replicas } };
};

const deleting = (name: string) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });

/** Reads of the feed made after a cursor (a poll, or a watch's first read from a version); the kind's reads have none. */
class FeedReadCounter extends CountingStore {
  readsFromCursor = 0;

  override async changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> {
    if (cursor !== undefined) this.readsFromCursor += 1;
    return super.changes<T>(group, kind, cursor);
  }
}

describe('watches sharing a feed', () => {
  it('read the feed once per poll, for one watch or fifty', async () => {
    const readsPerPoll = async (watches: number) => {
      const api = new Api();
      await api.seed(workload('apps/v1', 'Deployment', 'a'));
      const list = await api.get(DEFAULT);
      const store = new FeedReadCounter(api.system.store);
      const timing = new HandPacedTiming();
      const watching = Array.from({ length: watches }, () => watch(api, timing, { resourceVersion: list.body.metadata.resourceVersion }, store));
      // The first joins at once, the others at the next poll: each reads from its version once, and
      // that poll reads the feed once for the first.
      await timing.poll();
      expect(store.readsFromCursor).toBe(watches + 1);
      store.readsFromCursor = 0;
      store.reset();
      for (let poll = 0; poll < 5; poll++) {
        await api.system.objects.apply(scaled('a', poll + 2));
        await timing.poll();
      }
      const reads = { fromCursor: store.readsFromCursor, calls: store.counts.calls };
      // Every watch still got every change.
      for (const each of watching) expect(summary(each).map(([, , replicas]) => replicas)).toEqual([2, 3, 4, 5, 6]);
      await Promise.all(watching.map((each) => each.stop()));
      return reads;
    };
    const one = await readsPerPoll(1);
    expect(one).toEqual({ fromCursor: 5, calls: 5 });
    expect(await readsPerPoll(50)).toEqual(one);
  });

  it('a watch joining a feed already read past its version gets exactly the changes after that version', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const timing = new HandPacedTiming();
    const first = watch(api, timing);
    await timing.poll();
    await timing.poll();
    // The feed's cursor is now before all of this; the list's version is in the middle of it.
    await api.system.objects.apply(scaled('a', 2));
    const list = await api.get(DEFAULT);
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'c'));
    await api.system.objects.apply(scaled('a', 3));
    const fromList = watch(api, timing, { resourceVersion: list.body.metadata.resourceVersion });
    const selecting = watch(api, timing, { resourceVersion: list.body.metadata.resourceVersion, labelSelector: 'tier=web' });
    await timing.poll();
    await api.system.objects.apply(scaled('c', 4, { tier: 'web' }));
    await timing.poll();
    expect(summary(first)).toEqual([['ADDED', 'a', 1], ['MODIFIED', 'a', 2], ['ADDED', 'c', 1], ['MODIFIED', 'a', 3], ['MODIFIED', 'c', 4]]);
    expect(summary(fromList)).toEqual([['ADDED', 'c', 1], ['MODIFIED', 'a', 3], ['MODIFIED', 'c', 4]]);
    // a changed after the version, so its state then is not known: DELETED, as a watch on its own says.
    expect(summary(selecting)).toEqual([['DELETED', 'a', 3], ['ADDED', 'c', 4]]);
    await Promise.all([first, fromList, selecting].map((each) => each.stop()));
  });

  it('a watch from now joining a running feed: ADDED for what exists, then only what changes after', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    const timing = new HandPacedTiming();
    const first = watch(api, timing);
    await timing.poll();
    // Made and gone before the second watch reads the kind: not there for it.
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'gone'));
    await api.system.objects.delete(deleting('gone'));
    const second = watch(api, timing);
    await timing.poll();
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'b'));
    await timing.poll();
    expect(summary(first)).toEqual([['ADDED', 'a', 1], ['ADDED', 'gone', 1], ['DELETED', 'gone', 1], ['ADDED', 'b', 1]]);
    expect(summary(second)).toEqual([['ADDED', 'a', 1], ['ADDED', 'b', 1]]);
    await Promise.all([first.stop(), second.stop()]);
  });

  it('stops reading when the last watch of the kind ends, and starts again with the next', async () => {
    const api = new Api();
    const store = new FeedReadCounter(api.system.store);
    const timing = new HandPacedTiming();
    const first = watch(api, timing, {}, store);
    const second = watch(api, timing, {}, store);
    await timing.poll();
    await first.stop();
    await api.system.objects.apply(workload('apps/v1', 'Deployment', 'a'));
    await timing.poll();
    expect(summary(second)).toEqual([['ADDED', 'a', 1]]);
    await second.stop();
    const reads = store.counts.calls;
    await timing.poll();
    await timing.poll();
    expect(store.counts.calls).toBe(reads);
    const third = watch(api, timing, {}, store);
    await timing.poll();
    await api.system.objects.apply(scaled('a', 2));
    await timing.poll();
    expect(summary(third)).toEqual([['ADDED', 'a', 1], ['MODIFIED', 'a', 2]]);
    await third.stop();
  });

  it('a failed read ends the watches that were reading, with its error; a watch joining at that poll goes on', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'a'));
    let failNextPoll = false;
    const store = new (class extends CountingStore {
      override async changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> {
        if (cursor !== undefined && failNextPoll) {
          failNextPoll = false;
          throw new Error('the store did not answer');
        }
        return super.changes<T>(group, kind, cursor);
      }
    })(api.system.store);
    const timing = new HandPacedTiming();
    const reading = watch(api, timing, {}, store);
    await timing.poll();
    const joining = watch(api, timing, {}, store);
    failNextPoll = true;
    await timing.poll();
    await expect(reading.ended).rejects.toThrow('the store did not answer');
    await api.system.objects.apply(scaled('a', 2));
    await timing.poll();
    expect(summary(joining)).toEqual([['ADDED', 'a', 1], ['MODIFIED', 'a', 2]]);
    await joining.stop();
  });
});
