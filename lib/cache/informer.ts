import { refKey, refOf, type ObjectRef } from '../api/kinds';
import type { Clock } from '../ports/clock';
import { compareRevisions, type ObjectStore, type StoredChange, type StoredObject } from '../ports/object-store';

/** The keys an object is found by in an index (several: a template is found by each of its labels). */
export type IndexFunction<T> = (object: T) => readonly string[];

/** A change an informer applied: the object as it held it before and as it holds it now. */
export interface InformerEvent<T> {
  readonly key: string;
  readonly previous: T | undefined;
  readonly current: T | undefined;
}

export type InformerHandler<T> = (event: InformerEvent<T>) => void;

/**
 * A batch of messages being handled. Everything its messages announce was committed before they were
 * received, so one read of each feed after the receive sees it: within a batch, an informer reads its
 * feed once. A sync without a batch always reads.
 */
export class SyncBatch {
  private readonly synced = new WeakSet<object>();

  has(informer: object): boolean {
    return this.synced.has(informer);
  }

  add(informer: object): void {
    this.synced.add(informer);
  }
}

/**
 * A warm, incrementally kept copy of one kind, as a Kubernetes informer keeps one: the first sync reads
 * every object (the store's change feed from the start), each later sync reads only what changed since,
 * and indexes answer "which objects have this key" without listing. Handlers hear every change applied.
 *
 * The copy may lag the store by what committed after the last sync; what is decided on it is committed
 * conditionally, and a conflict is repaired by reading the conflicting objects (refresh). Every
 * `relistIntervalMs` the next sync reads everything again, as a backstop against a change the feed
 * missed.
 */
export class Informer<T extends StoredObject> {
  private readonly objects = new Map<string, T>();
  /** The revision of the last change applied per key, deletions included, so that an older one is ignored. */
  private readonly revisions = new Map<string, string>();
  private readonly indexes = new Map<string, { readonly keysOf: IndexFunction<T>; readonly entries: Map<string, Set<string>> }>();
  private readonly handlers: InformerHandler<T>[] = [];
  private cursor: string | undefined;
  private listedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly store: ObjectStore,
    readonly group: string,
    readonly kind: string,
    private readonly clock: Clock,
    private readonly relistIntervalMs: number,
  ) {}

  /**
   * Brings the copy up to date with the store; within a batch only the first sync reads. Concurrent
   * syncs each read (a read that never returns, its caller having died, holds up no one else): a read
   * that finishes last with an older page leaves an older cursor, so the next read looks further back.
   */
  async sync(batch?: SyncBatch): Promise<void> {
    if (batch?.has(this)) return;
    await this.read();
    batch?.add(this);
  }

  get(ref: ObjectRef): T | undefined {
    return this.objects.get(refKey(ref));
  }

  values(): IterableIterator<T> {
    return this.objects.values();
  }

  get size(): number {
    return this.objects.size;
  }

  /** Adds an index (once per name; later calls with the same name keep the first). */
  addIndex(name: string, keysOf: IndexFunction<T>): void {
    if (this.indexes.has(name)) return;
    const entries = new Map<string, Set<string>>();
    this.indexes.set(name, { keysOf, entries });
    for (const [key, object] of this.objects) for (const value of keysOf(object)) addEntry(entries, value, key);
  }

  /** The objects whose index `name` has `value`. */
  byIndex(name: string, value: string): T[] {
    const index = this.indexes.get(name);
    if (!index) throw new Error(`${this.kind} informer has no index ${name}`);
    const found: T[] = [];
    const keys = index.entries.get(value);
    if (keys) for (const key of keys) found.push(this.objects.get(key)!);
    return found;
  }

  /** Calls `handler` for every change applied from now on, and for every object held now. */
  addHandler(handler: InformerHandler<T>): void {
    this.handlers.push(handler);
    for (const [key, object] of this.objects) handler({ key, previous: undefined, current: object });
  }

  /** An object this process wrote or read afresh: applied at once, unless the copy already holds a later one. */
  observe(object: T): void {
    this.apply({ ref: refOf(object), object, revision: object.metadata.resourceVersion ?? '' });
  }

  /** Reads these objects afresh (after a conflict named them) and applies what it finds. */
  async refresh(refs: readonly ObjectRef[]): Promise<void> {
    for (const ref of refs) {
      const object = await this.store.get<T>(ref);
      if (object) this.observe(object);
      else this.remove(refKey(ref));
    }
  }

  private async read(): Promise<void> {
    const relist = this.clock.now() - this.listedAt >= this.relistIntervalMs;
    if (relist) {
      const listedAt = this.clock.now();
      const page = await this.store.changes<T>(this.group, this.kind);
      const present = new Set(page.changes.map((change) => refKey(change.ref)));
      for (const key of [...this.objects.keys()]) if (!present.has(key)) this.remove(key);
      // A listing is the store as it is now: it replaces what the copy holds, whatever the revisions.
      for (const change of page.changes) this.replace(refKey(change.ref), change.object, change.revision);
      this.cursor = page.cursor;
      this.listedAt = listedAt;
      return;
    }
    const page = await this.store.changes<T>(this.group, this.kind, this.cursor);
    for (const change of page.changes) this.apply(change);
    this.cursor = page.cursor;
  }

  private apply(change: StoredChange<T>): void {
    const key = refKey(change.ref);
    const held = this.revisions.get(key);
    if (held !== undefined && compareRevisions(change.revision, held) <= 0) return;
    this.replace(key, change.object, change.revision);
  }

  /**
   * Drops an object a listing or a fresh read did not find, and its revision with it: should the read
   * have been older than a change the feed brings later, that change is then applied.
   */
  private remove(key: string): void {
    this.replace(key, undefined, '');
    this.revisions.delete(key);
  }

  private replace(key: string, current: T | undefined, revision: string): void {
    const previous = this.objects.get(key);
    this.revisions.set(key, revision);
    if (previous === current) return;
    if (current) this.objects.set(key, current);
    else this.objects.delete(key);
    for (const { keysOf, entries } of this.indexes.values()) {
      // Most changes keep an object's index keys: only those it lost or gained are touched.
      const before = previous ? keysOf(previous) : [];
      const after = current ? keysOf(current) : [];
      for (const value of before) if (!after.includes(value)) removeEntry(entries, value, key);
      for (const value of after) if (!before.includes(value)) addEntry(entries, value, key);
    }
    for (const handler of this.handlers) handler({ key, previous, current });
  }
}

function addEntry(entries: Map<string, Set<string>>, value: string, key: string): void {
  let keys = entries.get(value);
  if (!keys) entries.set(value, (keys = new Set()));
  keys.add(key);
}

function removeEntry(entries: Map<string, Set<string>>, value: string, key: string): void {
  const keys = entries.get(value);
  if (!keys) return;
  keys.delete(key);
  if (keys.size === 0) entries.delete(value);
}
