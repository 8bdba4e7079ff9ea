import { beforeEach, describe, expect, it } from 'vitest';
import { compareRevisions, ConflictError, MAX_OBJECT_BYTES, type AddWrite, type ObjectStore, type StoredChange, type StoredObject } from '../../lib/ports/object-store';

const ref = (name: string, namespace = 'default') => ({ group: 'apps', kind: 'Deployment', namespace, name });

function deployment(name: string, namespace = 'default', replicas = 1): StoredObject & { spec: { replicas: number } } {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace }, spec: { replicas } };
}

/** The behaviour every ObjectStore must have; run against the in-memory and the DynamoDB store. */
export function objectStoreContract(name: string, makeStore: () => Promise<ObjectStore>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;
    beforeEach(async () => {
      store = await makeStore();
    });

    it('creates an object only when it does not exist, giving it a version', async () => {
      const [created] = await store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }]);
      expect(created?.metadata.resourceVersion).toBeTruthy();
      expect(await store.get(ref('web'))).toEqual(created);
      await expect(store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }])).rejects.toBeInstanceOf(ConflictError);
    });

    it('updates only at the version read, so a lost update is impossible', async () => {
      const [created] = await store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }]);
      const version = created!.metadata.resourceVersion!;
      const [updated] = await store.transact([{ op: 'put', object: deployment('web', 'default', 2), expectedVersion: version }]);
      expect(updated!.metadata.resourceVersion).not.toBe(version);
      await expect(
        store.transact([{ op: 'put', object: deployment('web', 'default', 3), expectedVersion: version }]),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(((await store.get(ref('web'))) as ReturnType<typeof deployment>).spec.replicas).toBe(2);
    });

    it('writes all of a transaction or nothing, naming the failed condition', async () => {
      const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
      await store.transact([{ op: 'put', object: deployment('b'), expectedVersion: null }]);
      const failure = await store
        .transact([
          { op: 'put', object: deployment('a', 'default', 5), expectedVersion: a!.metadata.resourceVersion! },
          { op: 'put', object: deployment('b', 'default', 5), expectedVersion: 'stale' },
          { op: 'put', object: deployment('c'), expectedVersion: null },
        ])
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ConflictError);
      expect((failure as ConflictError).refs).toContainEqual(ref('b'));
      expect(await store.get(ref('a'))).toEqual(a);
      expect(await store.get(ref('c'))).toBeUndefined();
    });

    it('checks an object without writing it', async () => {
      const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
      await store.transact([
        { op: 'check', ref: ref('a'), expectedVersion: a!.metadata.resourceVersion! },
        { op: 'put', object: deployment('b'), expectedVersion: null },
      ]);
      expect(await store.get(ref('a'))).toEqual(a);
      await expect(
        store.transact([
          { op: 'check', ref: ref('a'), expectedVersion: 'stale' },
          { op: 'put', object: deployment('c'), expectedVersion: null },
        ]),
      ).rejects.toBeInstanceOf(ConflictError);
      expect(await store.get(ref('c'))).toBeUndefined();
    });

    it('deletes at the version read; a recreated object never matches an old version', async () => {
      const [first] = await store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }]);
      const version = first!.metadata.resourceVersion!;
      await expect(store.transact([{ op: 'delete', ref: ref('web'), expectedVersion: 'stale' }])).rejects.toBeInstanceOf(ConflictError);
      await store.transact([{ op: 'delete', ref: ref('web'), expectedVersion: version }]);
      expect(await store.get(ref('web'))).toBeUndefined();
      const [second] = await store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }]);
      expect(second!.metadata.resourceVersion).not.toBe(version);
    });

    it('lists by kind, optionally in one namespace, ordered by their `<namespace>/<name>` keys', async () => {
      for (const [name, namespace] of [['b', 'prod'], ['a', 'prod'], ['z', 'dev'], ['web', 'default']] as const) {
        await store.transact([{ op: 'put', object: deployment(name, namespace), expectedVersion: null }]);
      }
      await store.transact([
        { op: 'put', object: { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j', namespace: 'prod' } }, expectedVersion: null },
      ]);
      const names = (objects: StoredObject[]) => objects.map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
      expect(names(await store.list('apps', 'Deployment'))).toEqual(['default/web', 'dev/z', 'prod/a', 'prod/b']);
      expect(names(await store.list('apps', 'Deployment', 'prod'))).toEqual(['prod/a', 'prod/b']);
      expect(await store.list('apps', 'StatefulSet')).toEqual([]);
    });

    it('lists in `<namespace>/<name>` string order, so a namespace "a-b" comes before "a"', async () => {
      for (const [name, namespace] of [['x', 'a'], ['x', 'a-b']] as const) {
        await store.transact([{ op: 'put', object: deployment(name, namespace), expectedVersion: null }]);
      }
      expect((await store.list('apps', 'Deployment')).map((o) => o.metadata.namespace)).toEqual(['a-b', 'a']);
    });

    it('lists a page at a time, after a given object, saying whether more follow', async () => {
      for (const [name, namespace] of [['b', 'prod'], ['a', 'prod'], ['c', 'prod'], ['z', 'dev'], ['web', 'default']] as const) {
        await store.transact([{ op: 'put', object: deployment(name, namespace), expectedVersion: null }]);
      }
      const page = async (limit: number, after?: readonly [string, string], namespace?: string) => {
        const read = await store.listPage('apps', 'Deployment', { limit, ...(after ? { after } : {}) }, namespace);
        return [read.items.map((o) => `${o.metadata.namespace}/${o.metadata.name}`), read.more];
      };
      expect(await page(2)).toEqual([['default/web', 'dev/z'], true]);
      expect(await page(2, ['dev', 'z'])).toEqual([['prod/a', 'prod/b'], true]);
      expect(await page(3, ['dev', 'z'])).toEqual([['prod/a', 'prod/b', 'prod/c'], false]);
      // After an object that is not there (deleted since the last page was read): from the next one on.
      expect(await page(2, ['prod', 'aa'])).toEqual([['prod/b', 'prod/c'], false]);
      expect(await page(2, undefined, 'prod')).toEqual([['prod/a', 'prod/b'], true]);
      expect(await page(2, ['prod', 'b'], 'prod')).toEqual([['prod/c'], false]);
      expect(await page(2, undefined, 'staging')).toEqual([[], false]);
      expect(await store.listPage('apps', 'StatefulSet', { limit: 2 })).toEqual({ items: [], more: false });
    });

    it('gives a current version the feed reaches from, from which the feed holds every later write', async () => {
      await store.transact([{ op: 'put', object: deployment('before'), expectedVersion: null }]);
      const version = store.currentVersion();
      const cursor = store.cursorAt(version);
      expect(cursor).toBeDefined();
      await store.transact([{ op: 'put', object: deployment('after'), expectedVersion: null }]);
      const names = (await store.changes('apps', 'Deployment', cursor)).changes.map((change) => change.ref.name);
      expect(names).toContain('after');
    });

    it('keeps objects exactly as written, including nested maps, empty maps and large numbers', async () => {
      const object = {
        ...deployment('web'),
        spec: { replicas: 3, selector: {}, template: { metadata: { labels: { 'app.kubernetes.io/name': 'web' } } } },
        status: { big: 9_007_199_254_740_991, list: [1, 'two', { three: null }] },
      };
      await store.transact([{ op: 'put', object, expectedVersion: null }]);
      const { metadata, ...rest } = (await store.get(ref('web')))!;
      const { metadata: written, ...expected } = object;
      expect(rest).toEqual(expected);
      expect(metadata.name).toBe(written.name);
    });

    it('keeps an object of MAX_OBJECT_BYTES as JSON, with the longest names', async () => {
      const namespace = 'n'.repeat(63);
      const name = 'w'.repeat(253);
      const bare = JSON.stringify({ ...deployment(name, namespace), metadata: { name, namespace, annotations: { note: '' } } }).length;
      const object = { ...deployment(name, namespace), metadata: { name, namespace, annotations: { note: 'x'.repeat(MAX_OBJECT_BYTES - bare) } } };
      expect(JSON.stringify(object).length).toBe(MAX_OBJECT_BYTES);
      const [written] = await store.transact([{ op: 'put', object, expectedVersion: null }]);
      const stored = await store.get<typeof object>(ref(name, namespace));
      expect(stored?.metadata.annotations.note).toHaveLength(MAX_OBJECT_BYTES - bare);
      expect(written?.metadata.resourceVersion).toBeTruthy();
    });

    it('reads several objects in one request, in the order asked, missing ones as undefined', async () => {
      const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
      const [b] = await store.transact([{ op: 'put', object: deployment('b', 'prod'), expectedVersion: null }]);
      expect(await store.getMany([ref('b', 'prod'), ref('missing'), ref('a')])).toEqual([b, undefined, a]);
      expect(await store.getMany([])).toEqual([]);
    });

    describe('adds to counters', () => {
      const counterRef = (name: string) => ({ group: 'scheduling.example.io', kind: 'Tally', namespace: '', name });
      const tally = (name: string): StoredObject & { spec: { note: string } } => ({ apiVersion: 'scheduling.example.io/v1', kind: 'Tally', metadata: { name }, spec: { note: 'kept' } });
      const add = (name: string, amounts: Record<string, number>, limits: Record<string, number> = {}): AddWrite => ({
        op: 'add',
        object: tally(name),
        field: 'counts',
        amounts,
        limits,
      });
      type Tally = ReturnType<typeof tally> & { spec: { counts: Record<string, number> } };

      it('creates the object with its counters, moves them without a version read, and leaves counters at zero out', async () => {
        expect(await store.transact([add('m1', { cpu: 2000, pods: 1 })])).toEqual([undefined]);
        const first = await store.get<Tally>(counterRef('m1'));
        expect(first).toMatchObject({ ...tally('m1'), spec: { note: 'kept', counts: { cpu: 2000, pods: 1 } } });
        await store.transact([add('m1', { cpu: -2000, pods: 1, 'nvidia.com/gpu': 1 })]);
        const second = await store.get<Tally>(counterRef('m1'));
        expect(second?.spec).toEqual({ note: 'kept', counts: { pods: 2, 'nvidia.com/gpu': 1 } });
        expect(compareRevisions(second!.metadata.resourceVersion!, first!.metadata.resourceVersion!)).toBeGreaterThan(0);
        // Reads of every kind see the counters the same way.
        expect(await store.getMany([counterRef('m1')])).toEqual([second]);
        expect(await store.list('scheduling.example.io', 'Tally')).toEqual([second]);
        expect((await store.changes('scheduling.example.io', 'Tally')).changes.map((change) => change.object)).toEqual([second]);
      });

      it('reach the change feed as writes of the object, each with a later revision', async () => {
        await store.transact([add('m1', { pods: 1 })]);
        const first = await store.changes('scheduling.example.io', 'Tally');
        const [before] = first.changes;
        await store.transact([add('m1', { pods: 2 })]);
        const next = (await store.changes('scheduling.example.io', 'Tally', first.cursor)).changes.filter((change) => change.ref.name === 'm1');
        const latest = next.reduce((a, b) => (compareRevisions(b.revision, a.revision) > 0 ? b : a));
        expect((latest.object as Tally | undefined)?.spec.counts).toEqual({ pods: 3 });
        expect(compareRevisions(latest.revision, before!.revision)).toBeGreaterThan(0);
        expect(latest.revision).toBe(latest.object?.metadata.resourceVersion);
        // Created by the first add: a later add moves counters, it creates nothing.
        expect(latest.createdRevision).toBe(before!.revision);
      });

      it('keeps the object as the first add created it: a later add\'s object only creates', async () => {
        await store.transact([add('m1', { pods: 1 })]);
        const later: AddWrite = { ...add('m1', { pods: 1 }), object: { ...tally('m1'), spec: { note: 'changed' } } as StoredObject };
        await store.transact([later]);
        expect((await store.get<Tally>(counterRef('m1')))?.spec).toEqual({ note: 'kept', counts: { pods: 2 } });
      });

      it('conflicts only when a limited counter would pass its limit, writing nothing of the transaction', async () => {
        await store.transact([add('m1', { cpu: 3000 }, { cpu: 4000 })]);
        // Another writer moved the counter: no version was read, so only the limit counts.
        await store.transact([add('m1', { cpu: 500 })]);
        await store.transact([add('m1', { cpu: 500 }, { cpu: 4000 })]);
        const failure = await store
          .transact([{ op: 'put', object: deployment('placed'), expectedVersion: null }, add('m1', { cpu: 1, pods: 1 }, { cpu: 4000, pods: 110 })])
          .catch((error: unknown) => error);
        expect(failure).toBeInstanceOf(ConflictError);
        expect((failure as ConflictError).refs).toEqual([counterRef('m1')]);
        expect(await store.get(ref('placed'))).toBeUndefined();
        expect((await store.get<Tally>(counterRef('m1')))?.spec.counts).toEqual({ cpu: 4000 });
        // Giving back is never limited, and a limit on a counter not there yet counts it as zero.
        await store.transact([add('m1', { cpu: -1000 }), add('m2', { cpu: 4000 }, { cpu: 4000 })]);
        await expect(store.transact([add('m3', { cpu: 4001 }, { cpu: 4000 })])).rejects.toBeInstanceOf(ConflictError);
        expect(await store.get(counterRef('m3'))).toBeUndefined();
      });

      it('loses no amount when writers add at once', async () => {
        const writers = Array.from({ length: 8 }, async () => {
          // A same-millisecond version clash is a conflict the writer tries again; the counters decide nothing here.
          for (let attempt = 0; ; attempt++) {
            try {
              return await store.transact([add('m1', { pods: 1 }, { pods: 8 })]);
            } catch (error) {
              if (!(error instanceof ConflictError) || attempt >= 5) throw error;
            }
          }
        });
        await Promise.all(writers);
        expect((await store.get<Tally>(counterRef('m1')))?.spec.counts).toEqual({ pods: 8 });
        await expect(store.transact([add('m1', { pods: 1 }, { pods: 8 })])).rejects.toBeInstanceOf(ConflictError);
      });

      it('deletes at the version read, and an add after creates the object again', async () => {
        await store.transact([add('m1', { pods: 1 })]);
        await store.transact([add('m1', { pods: -1 })]);
        const empty = await store.get<Tally>(counterRef('m1'));
        expect(empty?.spec.counts).toEqual({});
        await store.transact([{ op: 'delete', ref: counterRef('m1'), expectedVersion: empty!.metadata.resourceVersion!, last: empty! }]);
        expect(await store.get(counterRef('m1'))).toBeUndefined();
        await store.transact([add('m1', { pods: 2 })]);
        expect((await store.get<Tally>(counterRef('m1')))?.spec).toEqual({ note: 'kept', counts: { pods: 2 } });
      });
    });

    describe('change feed', () => {
      /** The latest change of each object in a page, by name, as an informer would apply them. */
      const latest = (changes: readonly StoredChange[]) => {
        const byName = new Map<string, StoredChange>();
        for (const change of changes) {
          const held = byName.get(change.ref.name);
          if (!held || compareRevisions(change.revision, held.revision) > 0) byName.set(change.ref.name, change);
        }
        return byName;
      };

      it('starts with every object that exists, each with its version as revision', async () => {
        await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
        const [b] = await store.transact([{ op: 'put', object: deployment('b', 'prod'), expectedVersion: null }]);
        const page = await store.changes('apps', 'Deployment');
        expect(page.changes.map((c) => c.ref.name).sort()).toEqual(['a', 'b']);
        expect(page.changes.find((c) => c.ref.name === 'b')).toEqual({ ref: ref('b', 'prod'), object: b, revision: b!.metadata.resourceVersion, createdRevision: b!.metadata.resourceVersion });
        expect((await store.changes('apps', 'StatefulSet')).changes).toEqual([]);
      });

      it('then gives what was written and deleted since, later revisions for later changes', async () => {
        const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
        const [gone] = await store.transact([{ op: 'put', object: deployment('gone'), expectedVersion: null }]);
        const first = await store.changes('apps', 'Deployment');
        const [a2] = await store.transact([{ op: 'put', object: deployment('a', 'default', 2), expectedVersion: a!.metadata.resourceVersion! }]);
        await store.transact([{ op: 'delete', ref: ref('gone'), expectedVersion: gone!.metadata.resourceVersion! }]);
        const [c] = await store.transact([{ op: 'put', object: deployment('c'), expectedVersion: null }]);
        const next = latest((await store.changes('apps', 'Deployment', first.cursor)).changes);
        // Each change says which write created its object: a replaced object keeps its creation.
        expect(next.get('a')).toEqual({ ref: ref('a'), object: a2, revision: a2!.metadata.resourceVersion, createdRevision: a!.metadata.resourceVersion });
        expect(next.get('c')?.createdRevision).toBe(c!.metadata.resourceVersion);
        expect(compareRevisions(next.get('a')!.revision, a!.metadata.resourceVersion!)).toBeGreaterThan(0);
        expect(next.get('gone')).toMatchObject({ ref: ref('gone'), object: undefined });
        expect(compareRevisions(next.get('gone')!.revision, gone!.metadata.resourceVersion!)).toBeGreaterThan(0);
        expect(next.get('c')?.object).toEqual(c);
        // Deletion markers are the feed's own: lists and reads never show them.
        expect((await store.list('apps', 'Deployment')).map((o) => o.metadata.name)).toEqual(['a', 'c']);
        expect(await store.get(ref('gone'))).toBeUndefined();
      });

      it('keeps the revision that created an object through replacements in a transaction', async () => {
        const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
        const first = await store.changes('apps', 'Deployment');
        const [a2] = await store.transact([
          { op: 'put', object: deployment('a', 'default', 2), expectedVersion: a!.metadata.resourceVersion! },
          { op: 'put', object: deployment('b'), expectedVersion: null },
        ]);
        const next = latest((await store.changes('apps', 'Deployment', first.cursor)).changes);
        expect(next.get('a')).toMatchObject({ revision: a2!.metadata.resourceVersion, createdRevision: a!.metadata.resourceVersion });
        expect(next.get('b')?.createdRevision).toBe(next.get('b')?.revision);
        expect(await store.get(ref('a'))).toEqual(a2);
      });

      it('gives a deletion with the object as it was deleted, as the deleter read it', async () => {
        const [gone] = await store.transact([{ op: 'put', object: deployment('gone', 'default', 3), expectedVersion: null }]);
        const page = await store.changes('apps', 'Deployment');
        await store.transact([{ op: 'delete', ref: ref('gone'), expectedVersion: gone!.metadata.resourceVersion!, last: gone! }]);
        const deletion = latest((await store.changes('apps', 'Deployment', page.cursor)).changes).get('gone')!;
        expect(deletion.object).toBeUndefined();
        const { resourceVersion: _version, ...metadata } = gone!.metadata;
        expect(deletion.last).toMatchObject({ ...gone, metadata });
      });

      it('gives a deleted object that was created again as it is now', async () => {
        const [first] = await store.transact([{ op: 'put', object: deployment('web'), expectedVersion: null }]);
        const page = await store.changes('apps', 'Deployment');
        await store.transact([{ op: 'delete', ref: ref('web'), expectedVersion: first!.metadata.resourceVersion! }]);
        const [again] = await store.transact([{ op: 'put', object: deployment('web', 'default', 5), expectedVersion: null }]);
        const next = latest((await store.changes('apps', 'Deployment', page.cursor)).changes);
        // Created again: its creation is the second life's.
        expect(next.get('web')).toEqual({ ref: ref('web'), object: again, revision: again!.metadata.resourceVersion, createdRevision: again!.metadata.resourceVersion });
      });
    });
  });
}
