import { compareStorageKeys, refKey, refOf, storageKey, type ObjectRef } from '../api/kinds';
import { ConflictError, refOfWrite, type AddWrite, type ChangePage, type ObjectPage, type ObjectStore, type PageRequest, type StoredChange, type StoredObject, type Write } from '../ports/object-store';
import { frozenInPlace } from './frozen-copy';

/** An object's key within its kind: its place in the kind's order (storageKey). */
function objectKey(ref: Pick<ObjectRef, 'namespace' | 'name'>): string {
  return storageKey(ref.namespace, ref.name);
}

interface LoggedChange {
  readonly key: string;
  readonly sequence: number;
  readonly change: StoredChange;
}

/** The log is compacted when it holds this many entries more than twice the keys it has seen. */
const COMPACTION_SLACK = 1_000;

/**
 * One kind's objects, the order `list` returns them in (kept until a key comes or goes), and its change
 * log. The log keeps every change until it holds COMPACTION_SLACK more than twice the keys the kind has
 * had, then only the latest change of each key, as the DynamoDB feed (the version index) holds only an
 * item's latest version: a reader still gets every object changed since its cursor as it is now, and
 * memory follows the keys, not the writes. A deleted key keeps its deletion (the DynamoDB store keeps
 * a deletion marker for a day); the store serves simulations and tests, which end. Each change carries
 * the revision that created its object, so a kept write still says whether a reader could hold it.
 */
class KindObjects {
  readonly objects = new Map<string, StoredObject>();
  /** The revision that created each object there is. */
  readonly createdAt = new Map<string, string>();
  private log: LoggedChange[] = [];
  /** The sequence of each key's latest change, deletions included. */
  private readonly latest = new Map<string, number>();
  private sortedKeys: string[] | undefined;

  set(key: string, object: StoredObject): void {
    if (!this.objects.has(key)) this.sortedKeys = undefined;
    this.objects.set(key, object);
  }

  delete(key: string): void {
    if (this.objects.delete(key)) this.sortedKeys = undefined;
  }

  record(key: string, sequence: number, change: StoredChange): void {
    this.log.push({ key, sequence, change });
    this.latest.set(key, sequence);
    if (this.log.length > 2 * this.latest.size + COMPACTION_SLACK) this.compact();
  }

  /** In the order of their keys, `<namespace>/<name>` compared byte-wise like DynamoDB's sort key. */
  sorted(): StoredObject[] {
    return this.keysInOrder().map((key) => this.objects.get(key)!);
  }

  /** At most `limit` objects whose keys start with `prefix`, after the key `after`, and whether more follow. */
  page(prefix: string, after: string | undefined, limit: number): ObjectPage {
    const keys = this.keysInOrder();
    const from = Math.max(firstIndex(keys, (key) => key >= prefix), after === undefined ? 0 : firstIndex(keys, (key) => key > after));
    const items: StoredObject[] = [];
    let index = from;
    for (; index < keys.length && items.length < limit && keys[index]!.startsWith(prefix); index++) items.push(this.objects.get(keys[index]!)!);
    return { items, more: index < keys.length && keys[index]!.startsWith(prefix) };
  }

  private keysInOrder(): string[] {
    this.sortedKeys ??= [...this.objects.keys()].sort(compareStorageKeys);
    return this.sortedKeys;
  }

  /** The log entries after `sequence`. */
  since(sequence: number): LoggedChange[] {
    let low = 0;
    let high = this.log.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.log[middle]!.sequence <= sequence) low = middle + 1;
      else high = middle;
    }
    return this.log.slice(low);
  }

  /** Keeps each key's latest change. */
  private compact(): void {
    this.log = this.log.filter((entry) => this.latest.get(entry.key) === entry.sequence);
  }
}

/**
 * In-memory ObjectStore with the same semantics as the DynamoDB one: versioned objects, all-or-nothing
 * conditional transactions, ConflictError naming every failed condition, a change feed per kind.
 * Objects are frozen.
 */
export class MemoryObjectStore implements ObjectStore {
  /** By group, then kind. */
  private readonly byGroup = new Map<string, Map<string, KindObjects>>();
  private readonly commitListeners: Array<(changes: readonly StoredChange[]) => void> = [];
  private sequence = 0;

  /**
   * Calls `listener` with the changes of every transaction from now on, in commit order, as it commits:
   * what a DynamoDB stream of the table gives its reader.
   */
  onCommit(listener: (changes: readonly StoredChange[]) => void): void {
    this.commitListeners.push(listener);
  }

  async get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined> {
    return this.byGroup.get(ref.group)?.get(ref.kind)?.objects.get(objectKey(ref)) as T | undefined;
  }

  async getMany<T extends StoredObject>(refs: readonly ObjectRef[]): Promise<Array<T | undefined>> {
    return Promise.all(refs.map((ref) => this.get<T>(ref)));
  }

  async list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]> {
    const objects = (this.byGroup.get(group)?.get(kind)?.sorted() ?? []) as T[];
    return namespace === undefined ? objects : objects.filter((o) => (o.metadata.namespace ?? '') === namespace);
  }

  async listPage<T extends StoredObject>(group: string, kind: string, page: PageRequest, namespace?: string): Promise<ObjectPage<T>> {
    const objects = this.byGroup.get(group)?.get(kind);
    const after = page.after && objectKey({ namespace: page.after[0], name: page.after[1] });
    return (objects?.page(namespace === undefined ? '' : `${namespace}/`, after, page.limit) ?? { items: [], more: false }) as ObjectPage<T>;
  }

  async changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> {
    const objects = this.byGroup.get(group)?.get(kind);
    const position = String(this.sequence);
    if (cursor === undefined) {
      const changes = [...(objects?.objects ?? [])].map(([key, object]) => ({
        ref: refOf(object),
        object: object as T,
        revision: object.metadata.resourceVersion ?? '',
        createdRevision: objects!.createdAt.get(key)!,
      }));
      return { changes, cursor: position };
    }
    const changes = (objects?.since(Number(cursor)) ?? []).map((logged) => logged.change as StoredChange<T>);
    return { changes, cursor: position };
  }

  /** Versions are the store's commit sequence, and the feed's cursor is that sequence: the two are one. */
  cursorAt(resourceVersion: string): string | undefined {
    return /^\d{1,15}$/.test(resourceVersion) && Number(resourceVersion) <= this.sequence ? resourceVersion : undefined;
  }

  versionAt(cursor: string): string {
    return cursor;
  }

  currentVersion(): string {
    return String(this.sequence);
  }

  async transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>> {
    return this.commit(writes, true);
  }

  /**
   * Writes a state copied from another store as it is, telling no commit listener: readers find it
   * whole at their first read, as a warm informer's cache holds a fleet without a change announced.
   * The objects are handed over: frozen where they are, not copied again (a fleet's state is large).
   */
  restore(objects: readonly StoredObject[]): void {
    this.commit(objects.map((object) => ({ op: 'put', object: frozenInPlace(object), expectedVersion: null })), false);
  }

  private commit(writes: readonly Write[], announce: boolean): Array<StoredObject | undefined> {
    // Every commit of a simulation comes here: one pass finds what each write names, with no array per step.
    const count = writes.length;
    const refs: ObjectRef[] = new Array(count);
    const kinds: KindObjects[] = new Array(count);
    const keys: string[] = new Array(count);
    const found: Array<StoredObject | undefined> = new Array(count);
    let failed: ObjectRef[] | undefined;
    for (let index = 0; index < count; index += 1) {
      const ref = refOfWrite(writes[index]!);
      const objects = this.kindObjects(ref);
      const key = objectKey(ref);
      refs[index] = ref;
      kinds[index] = objects;
      keys[index] = key;
      found[index] = objects.objects.get(key);
    }
    const twice = count > 1 ? firstRepeated(refs) : undefined;
    if (twice) throw new Error(`transaction writes ${refKey(twice)} twice`);
    for (let index = 0; index < count; index += 1) if (!holds(writes[index]!, found[index])) (failed ??= []).push(refs[index]!);
    if (failed) throw new ConflictError(failed);

    const committed: StoredChange[] = [];
    const results: Array<StoredObject | undefined> = [];
    for (let index = 0; index < count; index += 1) {
      const write = writes[index]!;
      results.push(undefined);
      if (write.op === 'check') continue;
      const [ref, key, objects] = [refs[index]!, keys[index]!, kinds[index]!];
      this.sequence += 1;
      const revision = String(this.sequence);
      if (write.op === 'delete') {
        const last = objects.objects.get(key);
        objects.delete(key);
        objects.createdAt.delete(key);
        const change: StoredChange = { ref, object: undefined, ...(last ? { last } : {}), revision };
        committed.push(change);
        objects.record(key, this.sequence, change);
        continue;
      }
      const stored = storedVersion(write.op === 'add' ? counted(write, found[index]) : write.object, revision);
      objects.set(key, stored);
      if (found[index] === undefined) objects.createdAt.set(key, revision);
      const change: StoredChange = { ref, object: stored, revision, createdRevision: objects.createdAt.get(key)! };
      committed.push(change);
      objects.record(key, this.sequence, change);
      if (write.op !== 'add') results[index] = stored;
    }
    if (announce) for (const listener of this.commitListeners) listener(committed);
    return results;
  }

  private kindObjects(ref: ObjectRef): KindObjects {
    let kinds = this.byGroup.get(ref.group);
    if (!kinds) this.byGroup.set(ref.group, (kinds = new Map()));
    let objects = kinds.get(ref.kind);
    if (!objects) kinds.set(ref.kind, (objects = new KindObjects()));
    return objects;
  }
}

/** Whether a write's condition holds on the object as found (undefined: none). */
function holds(write: Write, found: StoredObject | undefined): boolean {
  if (write.op === 'add') {
    const counters = countersOf(found, write.field);
    return Object.entries(write.limits).every(([name, limit]) => (counters[name] ?? 0) + (write.amounts[name] ?? 0) <= limit);
  }
  return (found?.metadata.resourceVersion ?? null) === write.expectedVersion;
}

function countersOf(object: StoredObject | undefined, field: string): Readonly<Record<string, number>> {
  return ((object as { spec?: Record<string, Record<string, number>> } | undefined)?.spec?.[field]) ?? {};
}

/** The object an add leaves: as found (or as the add creates it), its counters moved. */
function counted(write: AddWrite, found: StoredObject | undefined): StoredObject {
  const base = (found ?? write.object) as StoredObject & { spec?: Record<string, unknown> };
  const counters: Record<string, number> = { ...countersOf(found, write.field) };
  for (const [name, amount] of Object.entries(write.amounts)) counters[name] = (counters[name] ?? 0) + amount;
  // A counter at zero is not shown, as DynamoDB's reads leave it out.
  const shown = Object.fromEntries(Object.entries(counters).filter(([, amount]) => amount !== 0));
  return { ...base, spec: { ...base.spec, [write.field]: shown } } as StoredObject;
}

/** The first ref named again (refKey names one object of one kind). */
function firstRepeated(refs: readonly ObjectRef[]): ObjectRef | undefined {
  const seen = new Set<string>();
  for (const ref of refs) {
    const key = refKey(ref);
    if (seen.has(key)) return ref;
    seen.add(key);
  }
  return undefined;
}

/**
 * The object as stored, with its new version: its own two levels copied once, what lies deeper frozen
 * where it is. A written object is handed over, as to `restore`: the writer keeps it only to read.
 */
function storedVersion(object: StoredObject, resourceVersion: string): StoredObject {
  return frozenInPlace({ ...object, metadata: { ...object.metadata, resourceVersion } });
}

/** The first index of sorted `keys` whose key passes `test`, which fails for a prefix of them and passes for the rest. */
function firstIndex(keys: readonly string[], test: (key: string) => boolean): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(keys[middle]!)) high = middle;
    else low = middle + 1;
  }
  return low;
}
