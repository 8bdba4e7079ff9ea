import { refOf, type ObjectRef } from '../api/kinds';

/** Any stored object: apiVersion, kind and metadata with a name, as Kubernetes writes objects. */
export interface StoredObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string };
}

/**
 * One conditional write. A put, a delete and a check are a compare-and-set on the object's
 * resourceVersion, so a lost update is impossible: `expectedVersion` is the version the writer read
 * (null: must not exist yet). An add reads nothing: its condition is on the counters it moves.
 */
export type Write =
  | { readonly op: 'put'; readonly object: StoredObject; readonly expectedVersion: string | null }
  | {
      readonly op: 'delete';
      readonly ref: ObjectRef;
      readonly expectedVersion: string;
      /**
       * The object as read at `expectedVersion`: kept with the deletion (on DynamoDB in its marker), so
       * that the change feed can say what was deleted. The in-memory store has it already.
       */
      readonly last?: StoredObject;
    }
  | { readonly op: 'check'; readonly ref: ObjectRef; readonly expectedVersion: string | null }
  | AddWrite;

/**
 * Adds amounts to an object's counters (the numbers at `spec[field]`) without a version read first, so
 * that writers moving the same counters at once do not conflict with each other: the write's only
 * condition is that each counter given a limit holds at most that limit after the add. Creates the
 * object (as `object`, its counters at zero) when it does not exist; every add gives it a new
 * resourceVersion, later than the one it had. A counter at zero is not shown. An object moved by adds
 * is written only by adds (and deleted only when nothing counts on it): on DynamoDB, where counters are
 * kept apart from the object, an add to an object written whole by a put conflicts rather than count
 * from zero. Its result in `transact` is undefined, as DynamoDB's transactions return nothing.
 */
export interface AddWrite {
  readonly op: 'add';
  /** The object as created: kind, name and whatever of its spec does not count. */
  readonly object: StoredObject;
  readonly field: string;
  readonly amounts: Readonly<Record<string, number>>;
  /** The most a counter may hold after the add; a counter not named has no limit. */
  readonly limits: Readonly<Record<string, number>>;
}

/** The object a write is about. */
export function refOfWrite(write: Write): ObjectRef {
  return write.op === 'put' || write.op === 'add' ? refOf(write.object) : write.ref;
}

/**
 * The largest object, as JSON, that every store keeps: DynamoDB's 400 KB item limit, less room for the
 * item's keys and version. The write path refuses larger objects before writing anything.
 */
export const MAX_OBJECT_BYTES = 390_000;

/** Raised when a condition of a write does not hold; nothing of the transaction was written. */
export class ConflictError extends Error {
  constructor(readonly refs: readonly ObjectRef[]) {
    super(`conflict: ${refs.map((r) => `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`).join(', ')} changed since read, or past a limit`);
    this.name = 'ConflictError';
  }
}

/**
 * Raised when the store refuses a request for now (throttled, over its capacity); nothing of it was
 * written. Worth trying again after a moment: the API answers 503 with Retry-After.
 */
export class UnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnavailableError';
  }
}

/**
 * Raised when the store did not answer (timed out, or the connection dropped after the request was
 * sent): a write may or may not have been made. The API answers a read 503 with Retry-After and a
 * write 504 Timeout, as kube-apiserver answers a storage timeout; the client reads the object to see.
 */
export class StoreTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StoreTimeoutError';
  }
}

/** One entry of a kind's change feed: an object as written, or its deletion. */
export interface StoredChange<T extends StoredObject = StoredObject> {
  readonly ref: ObjectRef;
  /** The object as written; undefined when the change deleted it. */
  readonly object: T | undefined;
  /** For a deletion: the object as it was deleted, when the store kept it (deleted with `last`). */
  readonly last?: T;
  /**
   * Orders the changes of one object (compareRevisions): of two changes of the same object, the one
   * with the greater revision is the later. A put's revision is the resourceVersion it wrote.
   * Revisions of different objects say nothing.
   */
  readonly revision: string;
  /**
   * For an object: the revision of the write that created it (in its current life, after any earlier
   * deletion), so that a watch from an older version sends ADDED, the client not holding it, and
   * MODIFIED otherwise. Undefined when the store does not know it (an item written before it kept it).
   */
  readonly createdRevision?: string;
}

/**
 * Metadata without its resourceVersion (a store sets it): as given when it has none (most writes),
 * since copying without a key is V8's slow path and every write passes here.
 */
export function withoutResourceVersion<T extends { readonly resourceVersion?: string }>(metadata: T): Omit<T, 'resourceVersion'> {
  if (!('resourceVersion' in metadata)) return metadata;
  const { resourceVersion: _version, ...rest } = metadata;
  return rest;
}

/** Orders two revisions of one object: the longer is the later, then the greater string. */
export function compareRevisions(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export interface ChangePage<T extends StoredObject = StoredObject> {
  readonly changes: readonly StoredChange<T>[];
  /** Where the next read of the feed starts. */
  readonly cursor: string;
}

/** Where a page of a kind's objects starts, and how many it holds at most. */
export interface PageRequest {
  readonly limit: number;
  /** The namespace and name of the object the page starts after (the previous page's last). */
  readonly after?: readonly [namespace: string, name: string];
}

export interface ObjectPage<T extends StoredObject = StoredObject> {
  readonly items: T[];
  /** Objects follow the page's last item. */
  readonly more: boolean;
}

/**
 * The state port. `transact` applies all writes or none (a preemption commits the preemptor, its
 * victims and the cluster allocations together) and returns the written objects with their new
 * resourceVersions, in the order given (deletes, checks and adds give undefined).
 */
export interface ObjectStore {
  get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined>;
  /** Several objects read in one request, each as `get` would read it, in the order asked. */
  getMany<T extends StoredObject>(refs: readonly ObjectRef[]): Promise<Array<T | undefined>>;
  /** Every object of a kind (in a namespace), ordered as `<namespace>/<name>` strings compare. */
  list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]>;
  /** One page of `list`, read without reading the objects before it or after it. */
  listPage<T extends StoredObject>(group: string, kind: string, page: PageRequest, namespace?: string): Promise<ObjectPage<T>>;
  transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>>;
  /**
   * The change feed of a kind, as informers read it. Without a cursor: every object that exists now
   * (a cold start). With the cursor of an earlier page: every change committed since that page was read,
   * possibly with some changes it already held (a reader applies a change only when its revision is
   * greater than the one it has). Its cost is in the changes, not in the number of objects.
   */
  changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>>;
  /**
   * The cursor of the change feed for a resourceVersion a client holds (an object's, a list's or a
   * watch bookmark's): reading `changes` from it gives every change committed after that version,
   * possibly with some before it. Undefined when the feed no longer reaches back that far, or the
   * version is not one this store gave (a watch then answers 410 Gone and the client lists again).
   */
  cursorAt(resourceVersion: string): string | undefined;
  /**
   * A resourceVersion every change committed after the read at `cursor` is later than, and every change
   * that read could miss too (on DynamoDB, one in flight as it ran): what a watch bookmark carries, so
   * that a watch from it sends each change not yet sent, and a client resumes from it.
   */
  versionAt(cursor: string): string;
  /**
   * A resourceVersion that every change committed after the call is later than, and every change
   * committed before it is not: what a list read after it answers with when it holds nothing newer, so
   * that a watch from the list's version sends what came after the list and nothing the list holds, and
   * is never too old to start. (On DynamoDB a write in flight as the call is made may be earlier.)
   */
  currentVersion(): string;
}
