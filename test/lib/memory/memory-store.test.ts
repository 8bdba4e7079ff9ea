import { describe, expect, it } from 'vitest';
import { MemoryObjectStore } from '../../../lib/memory/memory-store';
import type { ChangePage, StoredObject } from '../../../lib/ports/object-store';

const ref = (name: string) => ({ group: '', kind: 'ConfigMap', namespace: 'default', name });

function configMap(name: string, value: number): StoredObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { value } } as StoredObject;
}

async function write(store: MemoryObjectStore, name: string, value: number): Promise<void> {
  const current = await store.get(ref(name));
  await store.transact([{ op: 'put', object: configMap(name, value), expectedVersion: current?.metadata.resourceVersion ?? null }]);
}

/** What a reader holds after applying a page: per object, its change of the greatest revision. */
function latestByName(page: ChangePage): Map<string, StoredObject | undefined> {
  const latest = new Map<string, { revision: number; object: StoredObject | undefined }>();
  for (const change of page.changes) {
    const held = latest.get(change.ref.name);
    if (!held || Number(change.revision) > held.revision) latest.set(change.ref.name, { revision: Number(change.revision), object: change.object });
  }
  return new Map([...latest].map(([name, { object }]) => [name, object]));
}

describe('the in-memory change feed keeps what a reader needs, not every write ever made', () => {
  it('after thousands of writes of two objects, a reader from the start gets both as they are now, from a short page', async () => {
    const store = new MemoryObjectStore();
    const start = (await store.changes('', 'ConfigMap')).cursor;
    for (let round = 0; round < 2_000; round++) for (const name of ['a', 'b']) await write(store, name, round);

    const page = await store.changes('', 'ConfigMap', start);
    expect(latestByName(page)).toEqual(new Map([['a', await store.get(ref('a'))], ['b', await store.get(ref('b'))]]));
    // The earlier versions of the two objects are no longer kept: far fewer changes than the 4,000 writes.
    expect(page.changes.length).toBeLessThan(2_000);
  });

  it('a reader holding a cursor from the middle still gets every object changed since, and its deletions, and nothing else', async () => {
    const store = new MemoryObjectStore();
    for (const name of ['kept', 'changed', 'deleted']) await write(store, name, 0);
    const middle = (await store.changes('', 'ConfigMap')).cursor;
    for (let round = 1; round <= 3_000; round++) await write(store, 'changed', round);
    const deleted = await store.get(ref('deleted'));
    await store.transact([{ op: 'delete', ref: ref('deleted'), expectedVersion: deleted!.metadata.resourceVersion! }]);

    const page = await store.changes('', 'ConfigMap', middle);
    expect(latestByName(page)).toEqual(new Map([['changed', await store.get(ref('changed'))], ['deleted', undefined]]));
  });
});

describe('the in-memory store', () => {
  it('refuses a transaction that writes one object twice, whatever else it holds', async () => {
    const store = new MemoryObjectStore();
    const writes = [...Array.from({ length: 500 }, (_, i) => configMap(`c${i}`, i)), configMap('c7', 70)].map((object) => ({ op: 'put' as const, object, expectedVersion: null }));
    await expect(store.transact(writes)).rejects.toThrow('transaction writes ConfigMap./default/c7 twice');
    expect(await store.list('', 'ConfigMap')).toEqual([]);
  });

  it('restores a copied state without telling its commit listeners, and readers find it whole', async () => {
    const store = new MemoryObjectStore();
    const announced: string[] = [];
    store.onCommit((changes) => announced.push(...changes.map((change) => change.ref.name)));
    const a = configMap('a', 1);
    store.restore([a, { ...configMap('b', 2), metadata: { name: 'b', namespace: 'default', resourceVersion: 'elsewhere-7' } } as StoredObject]);
    expect(announced).toEqual([]);
    // Handed over, not copied: frozen where it is, so that nothing changes what the store holds.
    expect(Object.isFrozen((a as unknown as { data: object }).data)).toBe(true);
    expect(((await store.get(ref('a'))) as unknown as { data: object }).data).toBe((a as unknown as { data: object }).data);
    const page = await store.changes('', 'ConfigMap');
    expect([...latestByName(page).keys()].sort()).toEqual(['a', 'b']);
    // Versions are this store's: a write conditional on one it gave succeeds, and is announced.
    const b = await store.get(ref('b'));
    expect(b?.metadata.resourceVersion).toMatch(/^\d+$/);
    await store.transact([{ op: 'put', object: configMap('b', 3), expectedVersion: b!.metadata.resourceVersion! }]);
    expect(announced).toEqual(['b']);
  });

  it('keeps a written object frozen where it is: nothing can change what it holds, and what lies deeper is not copied', async () => {
    const store = new MemoryObjectStore();
    const written = configMap('c', 1) as StoredObject & { data: { value: number } };
    const [stored] = (await store.transact([{ op: 'put', object: written, expectedVersion: null }])) as [StoredObject & { data: { value: number } }];
    expect(stored.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(written.metadata.resourceVersion).toBeUndefined();
    expect(stored.data).toBe(written.data);
    for (const part of [stored, stored.metadata, stored.data]) expect(Object.isFrozen(part)).toBe(true);
    expect(() => {
      written.data.value = 2;
    }).toThrow(TypeError);
    expect(((await store.get(ref('c'))) as unknown as { data: { value: number } }).data.value).toBe(1);
  });
});
