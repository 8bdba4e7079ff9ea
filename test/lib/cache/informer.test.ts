import { describe, expect, it } from 'vitest';
import { Informer, SyncBatch, type InformerEvent } from '../../../lib/cache/informer';
import { ManualClock } from '../../../lib/memory/manual-clock';
import { MemoryObjectStore } from '../../../lib/memory/memory-store';
import type { StoredObject } from '../../../lib/ports/object-store';
import { CountingStore } from '../../support/counting-store';

interface Deployment extends StoredObject {
  readonly metadata: StoredObject['metadata'] & { readonly labels?: Record<string, string> };
  readonly spec: { readonly replicas: number };
}

const ref = (name: string) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name });

function deployment(name: string, replicas = 1, labels?: Record<string, string>): Deployment {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) }, spec: { replicas } };
}

const RELIST_MS = 60_000;

function setup() {
  const clock = new ManualClock();
  const memory = new MemoryObjectStore();
  const store = new CountingStore(memory);
  const informer = new Informer<Deployment>(store, 'apps', 'Deployment', clock, RELIST_MS);
  const events: InformerEvent<Deployment>[] = [];
  informer.addHandler((event) => events.push(event));
  const write = async (object: Deployment) => {
    const current = await memory.get<Deployment>(ref(object.metadata.name));
    const [written] = await memory.transact([{ op: 'put', object, expectedVersion: current?.metadata.resourceVersion ?? null }]);
    return written as Deployment;
  };
  const remove = async (name: string) => {
    const current = await memory.get<Deployment>(ref(name));
    await memory.transact([{ op: 'delete', ref: ref(name), expectedVersion: current!.metadata.resourceVersion! }]);
  };
  return { clock, store, informer, events, write, remove };
}

const names = (objects: Iterable<Deployment>) => [...objects].map((o) => o.metadata.name).sort();

describe('Informer: a warm copy of one kind kept from the change feed', () => {
  it('reads every object on its first sync, then only what changed since', async () => {
    const { store, informer, write } = setup();
    for (const name of ['a', 'b', 'c']) await write(deployment(name));
    await informer.sync();
    expect(names(informer.values())).toEqual(['a', 'b', 'c']);
    expect(store.counts.itemsRead).toBe(3);

    await write(deployment('b', 2));
    await write(deployment('d'));
    await informer.sync();
    expect(names(informer.values())).toEqual(['a', 'b', 'c', 'd']);
    expect(informer.get(ref('b'))?.spec.replicas).toBe(2);
    expect(store.counts.itemsRead).toBe(3 + 2);
  });

  it('forgets deleted objects and tells its handlers what changed, with the object before and after', async () => {
    const { informer, events, write, remove } = setup();
    const first = await write(deployment('a'));
    await informer.sync();
    const second = await write(deployment('a', 5));
    await remove('a');
    await informer.sync();
    expect(informer.get(ref('a'))).toBeUndefined();
    expect(events.map((e) => [e.previous?.spec.replicas, e.current?.spec.replicas])).toEqual([
      [undefined, 1],
      [1, 5],
      [5, undefined],
    ]);
    expect(events[0]!.current).toEqual(first);
    expect(events[1]!.current).toEqual(second);
  });

  it('ignores a change older than the one it holds (a feed read looks back, or its own write came first)', async () => {
    const { informer, events, write } = setup();
    await write(deployment('a'));
    await informer.sync();
    const newer = await write(deployment('a', 7));
    informer.observe(newer);
    await informer.sync();
    expect(informer.get(ref('a'))).toBe(newer);
    expect(events).toHaveLength(2);
  });

  it('answers index lookups and keeps them when objects change or go', async () => {
    const { informer, write, remove } = setup();
    informer.addIndex('app', (d) => (d.metadata.labels?.app ? [d.metadata.labels.app] : []));
    await write(deployment('a', 1, { app: 'web' }));
    await write(deployment('b', 1, { app: 'web' }));
    await informer.sync();
    expect(names(informer.byIndex('app', 'web'))).toEqual(['a', 'b']);

    await write(deployment('a', 1, { app: 'api' }));
    await remove('b');
    await informer.sync();
    expect(informer.byIndex('app', 'web')).toEqual([]);
    expect(names(informer.byIndex('app', 'api'))).toEqual(['a']);
    expect(() => informer.byIndex('missing', 'x')).toThrow('no index missing');
  });

  it('reads its feed once per batch of messages, and on every call without one', async () => {
    const { store, informer, write } = setup();
    await informer.sync();
    const batch = new SyncBatch();
    await informer.sync(batch);
    await write(deployment('late'));
    await informer.sync(batch);
    expect(informer.get(ref('late'))).toBeUndefined();
    expect(store.counts.byMethod.changes).toBe(2);
    await informer.sync();
    expect(informer.get(ref('late'))).toBeDefined();
  });

  it('refresh reads the named objects afresh, found or gone', async () => {
    const { store, informer, write, remove } = setup();
    await write(deployment('a'));
    await write(deployment('b'));
    await informer.sync();
    const changed = await write(deployment('a', 3));
    await remove('b');
    await informer.refresh([ref('a'), ref('b')]);
    expect(informer.get(ref('a'))).toEqual(changed);
    expect(informer.get(ref('b'))).toBeUndefined();
    expect(store.counts.byMethod.get).toBe(2);
  });

  it('lists its kind again after the relist interval, dropping what the listing no longer has', async () => {
    const { clock, store, informer, write, remove } = setup();
    await write(deployment('a'));
    await write(deployment('b'));
    await informer.sync();
    await remove('b');
    clock.advance(RELIST_MS);
    await informer.sync();
    expect(names(informer.values())).toEqual(['a']);
    expect(store.counts.itemsRead).toBe(2 + 1);
    // The copy then follows the feed again.
    await write(deployment('c'));
    await informer.sync();
    expect(names(informer.values())).toEqual(['a', 'c']);
  });

  it('a handler added late hears every object held, then every change', async () => {
    const { informer, write } = setup();
    await write(deployment('a'));
    await informer.sync();
    const late: string[] = [];
    informer.addHandler((event) => late.push(`${event.previous ? 'update' : 'add'} ${event.key.split('/').at(-1)}`));
    await write(deployment('a', 2));
    await informer.sync();
    expect(late).toEqual(['add a', 'update a']);
  });
});
