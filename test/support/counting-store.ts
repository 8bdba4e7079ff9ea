/**
 * An ObjectStore that counts the calls made through it and the items each read or wrote, as DynamoDB
 * would bill them: a get reads one item whether or not it exists (getMany one per object asked), a list or a change-feed read reads
 * what it returns, a transaction writes each of its items.
 */
import type { ObjectRef } from '../../lib/api/kinds';
import type { ChangePage, ObjectPage, ObjectStore, PageRequest, StoredObject, Write } from '../../lib/ports/object-store';

export interface StoreCounts {
  calls: number;
  itemsRead: number;
  itemsWritten: number;
  /** Calls by method: get, list, changes, transact. */
  readonly byMethod: Record<string, number>;
}

export function emptyCounts(): StoreCounts {
  return { calls: 0, itemsRead: 0, itemsWritten: 0, byMethod: {} };
}

export class CountingStore implements ObjectStore {
  constructor(
    private readonly store: ObjectStore,
    readonly counts: StoreCounts = emptyCounts(),
  ) {}

  /** Starts counting afresh. */
  reset(): void {
    Object.assign(this.counts, { calls: 0, itemsRead: 0, itemsWritten: 0 });
    for (const method of Object.keys(this.counts.byMethod)) delete this.counts.byMethod[method];
  }

  async get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined> {
    this.count('get', 1, 0);
    return this.store.get<T>(ref);
  }

  async getMany<T extends StoredObject>(refs: readonly ObjectRef[]): Promise<Array<T | undefined>> {
    this.count('getMany', refs.length, 0);
    return this.store.getMany<T>(refs);
  }

  async list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]> {
    const objects = await this.store.list<T>(group, kind, namespace);
    this.count('list', objects.length, 0);
    return objects;
  }

  async listPage<T extends StoredObject>(group: string, kind: string, page: PageRequest, namespace?: string): Promise<ObjectPage<T>> {
    const read = await this.store.listPage<T>(group, kind, page, namespace);
    // One item more than the page is read to learn whether more follow.
    this.count('listPage', read.items.length + (read.more ? 1 : 0), 0);
    return read;
  }

  async changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> {
    const page = await this.store.changes<T>(group, kind, cursor);
    this.count('changes', page.changes.length, 0);
    return page;
  }

  cursorAt(resourceVersion: string): string | undefined {
    return this.store.cursorAt(resourceVersion);
  }

  versionAt(cursor: string): string {
    return this.store.versionAt(cursor);
  }

  currentVersion(): string {
    return this.store.currentVersion();
  }

  async transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>> {
    this.count('transact', 0, writes.length);
    return this.store.transact(writes);
  }

  private count(method: string, read: number, written: number): void {
    this.counts.calls += 1;
    this.counts.itemsRead += read;
    this.counts.itemsWritten += written;
    this.counts.byMethod[method] = (this.counts.byMethod[method] ?? 0) + 1;
  }
}
