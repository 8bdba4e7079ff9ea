import { refKey } from '../api/kinds';
import { compareRevisions, type ChangePage, type StoredChange, type StoredObject } from '../ports/object-store';
import type { ApiDependencies, ApiRequest } from './api-types';
import { EVENT_FIELDS } from './event-handlers';
import { EventWatch } from './event-watch';
import { FeedSubscription } from './feed-subscription';
import { selectionOf, type Selection } from './lists';
import { selectableFields } from './selectable-fields';
import type { ResourceRoute } from './routes';
import { joinChangeFeed } from './shared-change-feed';
import { ApiError, failureStatus } from './status';

/**
 * Watch with Kubernetes semantics (`?watch=1`), read from the store's change feed of the kind — the
 * same feed the controllers' informers read, so its cost is in the changes, not the objects.
 *
 * - Without a resourceVersion (or "0"), or with sendInitialEvents: ADDED for every object that matches
 *   now, then its changes; with sendInitialEvents, a BOOKMARK annotated k8s.io/initial-events-end
 *   between the two, as kube-apiserver's streaming lists send.
 * - From a resourceVersion (a list's, an event's, a bookmark's): every change with a later version,
 *   each once, none the client holds at that version (a list's objects are not sent again). A version
 *   the feed no longer reaches is an ERROR event with a 410 Expired Status, and the client lists again.
 *   Without a selector nothing but those changes is read (informers watch again every few minutes, and
 *   the kind may hold 10,000 bindings): a DELETED carries the object as the feed's deletion kept it (as
 *   it was deleted), or its name and the deletion's version when the deleter did not give it.
 * - ADDED for an object created after the client's version (the store keeps the revision that created
 *   each object), MODIFIED for one it held; an object deleted and created again while the watch looked
 *   away is DELETED, then ADDED.
 * - On the memory store versions are the commit sequence, so all this is exact. On DynamoDB versions
 *   are write times taken as a write begins: a write still in flight when a later one was read and
 *   its version handed out is not sent to a watch from that later version (writes of one object are
 *   never reordered; only writes of different objects racing within the same moment can be).
 * - Label and field selectors as in Kubernetes: an object that comes to match is ADDED, one that stops
 *   matching is DELETED. From a version, such a watch reads the kind once to know what the client
 *   holds; the store keeps no earlier states, so an object changed between the version and that read
 *   is not known as it matched then, and is DELETED if it does not match now (the client may hold it;
 *   informers ignore the deletion of an object they do not have).
 * - BOOKMARK events (allowWatchBookmarks) carry a resourceVersion to resume from; the stream ends after
 *   timeoutSeconds (at most the transport's limit), and the client watches again from its last version.
 * - The watches of a kind in this process read its feed once per poll between them
 *   (shared-change-feed.ts); a watch makes its first reads (the kind, the changes since its version)
 *   itself, when it joins, then takes the shared pages.
 */

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  readonly type: WatchEventType;
  readonly object: unknown;
}

/** Where a watch writes its events, and how its reader says it has gone. */
export interface WatchSink {
  send(event: WatchEvent): void | Promise<void>;
  readonly signal: AbortSignal;
}

export interface WatchTiming {
  /** How often the change feed is read. */
  readonly pollIntervalMs: number;
  readonly bookmarkIntervalMs: number;
  /** The longest a stream stays open (the transport's limit); timeoutSeconds asks for less. */
  readonly maxTimeoutSeconds: number;
  readonly now: () => number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** What a watch request asks, checked. */
export interface WatchOptions {
  /** Where the client is: undefined to start with every object there is (no version, "0", sendInitialEvents). */
  readonly resourceVersion: string | undefined;
  readonly timeoutMs: number;
  /** allowWatchBookmarks. */
  readonly bookmarks: boolean;
  /** sendInitialEvents: a bookmark marks where the ADDED of what exists end. */
  readonly initialEventsEnd: boolean;
}

/** A watch whose request was checked: run it to stream its events until it times out or its reader goes. */
export interface OpenWatch {
  run(sink: WatchSink): Promise<void>;
}

export function isWatchRequest(request: ApiRequest): boolean {
  return request.method.toUpperCase() === 'GET' && (request.query.watch === 'true' || request.query.watch === '1');
}

function timeoutOf(value: string | undefined, max: number): number {
  if (value === undefined || value === '') return max;
  const seconds = Number(value);
  if (!Number.isSafeInteger(seconds) || seconds < 0) throw new ApiError('BadRequest', `timeoutSeconds: must be a non-negative integer, not "${value}"`);
  return Math.min(seconds, max);
}

function inNamespace(route: ResourceRoute, ref: { namespace: string }): boolean {
  return route.namespace === undefined || ref.namespace === route.namespace;
}

/** The deleted object as the client last knew it, at the version of its deletion. */
function deletedObject(last: StoredObject | undefined, change: StoredChange, route: ResourceRoute): StoredObject {
  const base = last ?? {
    apiVersion: route.resource.info.apiVersion,
    kind: route.resource.info.kind,
    metadata: { name: change.ref.name, ...(change.ref.namespace ? { namespace: change.ref.namespace } : {}) },
  };
  return { ...base, metadata: { ...base.metadata, resourceVersion: change.revision } };
}

class StoreWatch implements OpenWatch {
  /** The objects as the client knows them now, by key: what a selector matched, what a DELETED carries. */
  private readonly known = new Map<string, StoredObject>();
  /** The revision last sent per object, so that a change the feed gives twice is sent once. */
  private readonly sent = new Map<string, string>();
  /** The revision that created each object known, to tell an object created again from a change of it. */
  private readonly knownCreation = new Map<string, string>();
  /** The latest version sent, so that a bookmark never takes the client back. */
  private latestSent: string | undefined;

  constructor(
    private readonly route: ResourceRoute,
    private readonly deps: ApiDependencies,
    private readonly selection: Selection<StoredObject>,
    private readonly options: WatchOptions,
    private readonly timing: WatchTiming,
  ) {}

  private get resourceVersion(): string | undefined {
    return this.options.resourceVersion;
  }

  /**
   * Whether the watch starts by reading the kind: from now, for the ADDED of every object; with a
   * selector, to know which objects match (one that stops matching is DELETED). A watch from a version
   * that selects everything, as informers watch again every few minutes, reads only the changes after
   * it: its cost is in the changes, not the fleet.
   */
  private get readsKind(): boolean {
    return this.resourceVersion === undefined || !this.selection.selectsAll;
  }

  async run(sink: WatchSink): Promise<void> {
    const { group, info } = this.route.resource;
    const store = this.deps.store;
    const deadline = this.timing.now() + this.options.timeoutMs;
    const from = this.resourceVersion === undefined ? undefined : store.cursorAt(this.resourceVersion);
    if (this.resourceVersion !== undefined && from === undefined) {
      await sink.send({ type: 'ERROR', object: failureStatus('Expired', `too old resource version: ${this.resourceVersion}`) });
      return;
    }
    // The kind (from now, or to know what a selector matched) and, from a version, the changes after it.
    const feed = new FeedSubscription(
      async () => Promise.all([this.readsKind ? store.changes(group, info.kind) : undefined, from === undefined ? undefined : store.changes(group, info.kind, from)]),
      this.timing,
    );
    const leave = joinChangeFeed(store, group, info.kind, this.timing, feed);
    try {
      const first = await feed.begun(sink.signal);
      if (!first) return;
      const [initial, sinceVersion] = first;
      for (const change of initial?.changes ?? []) if (this.holdsAsRead(change)) this.know(change);
      let cursor = sinceVersion?.cursor ?? initial!.cursor;
      if (this.resourceVersion === undefined) await this.sendInitial(initial!.changes, sink);
      if (this.options.initialEventsEnd) await sink.send(this.bookmark(cursor, { 'k8s.io/initial-events-end': 'true' }));
      let page: ChangePage | undefined = sinceVersion;
      let nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
      while (!sink.signal.aborted && this.timing.now() < deadline) {
        if (page) {
          cursor = page.cursor;
          for (const change of [...page.changes].sort((a, b) => compareRevisions(a.revision, b.revision))) await this.apply(change, sink);
        }
        if (this.options.bookmarks && this.timing.now() >= nextBookmark) {
          await sink.send(this.bookmark(cursor));
          nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
        }
        page = await feed.next(Math.max(0, deadline - this.timing.now()), sink.signal);
      }
    } finally {
      leave();
    }
  }

  /**
   * A BOOKMARK at the feed's cursor: a version every change not yet sent is later than (and none sent
   * is), carried by an object of the kind with nothing but it (and `annotations`), as kube-apiserver's.
   */
  private bookmark(cursor: string, annotations?: Record<string, string>): WatchEvent {
    const { info } = this.route.resource;
    let version = this.deps.store.versionAt(cursor);
    for (const held of [this.latestSent, this.resourceVersion]) if (held !== undefined && compareRevisions(held, version) > 0) version = held;
    return { type: 'BOOKMARK', object: { apiVersion: info.apiVersion, kind: info.kind, metadata: { resourceVersion: version, ...(annotations ? { annotations } : {}) } } };
  }

  private know(change: StoredChange): void {
    const key = refKey(change.ref);
    this.known.set(key, change.object!);
    if (change.createdRevision === undefined) this.knownCreation.delete(key);
    else this.knownCreation.set(key, change.createdRevision);
  }

  private forget(key: string): void {
    this.known.delete(key);
    this.knownCreation.delete(key);
  }

  private async send(type: WatchEventType, object: StoredObject, sink: WatchSink): Promise<void> {
    const version = object.metadata.resourceVersion;
    if (version !== undefined && (this.latestSent === undefined || compareRevisions(version, this.latestSent) > 0)) this.latestSent = version;
    await sink.send({ type, object });
  }

  /** Whether the store says the object was created after the client's version, which then cannot hold it. */
  private createdAfterVersion(change: StoredChange): boolean {
    return this.resourceVersion !== undefined && change.createdRevision !== undefined && compareRevisions(change.createdRevision, this.resourceVersion) > 0;
  }

  /**
   * Whether the client holds the object as the kind's read gives it: from now, every object; from a
   * version, one unchanged since (the client has it as it was then, which the store no longer has for
   * an object changed since).
   */
  private holdsAsRead(change: StoredChange): boolean {
    if (!change.object || !inNamespace(this.route, change.ref)) return false;
    return this.resourceVersion === undefined || compareRevisions(change.revision, this.resourceVersion) <= 0;
  }

  private async sendInitial(changes: readonly StoredChange[], sink: WatchSink): Promise<void> {
    const objects = changes.filter((change) => change.object && inNamespace(this.route, change.ref));
    objects.sort((a, b) => compareRevisions(a.revision, b.revision));
    for (const change of objects) {
      this.sent.set(refKey(change.ref), change.revision);
      if (this.selection.matches(change.object!)) await this.send('ADDED', change.object!, sink);
    }
  }

  private async apply(change: StoredChange, sink: WatchSink): Promise<void> {
    if (!inNamespace(this.route, change.ref)) return;
    const key = refKey(change.ref);
    const sent = this.sent.get(key);
    if (sent !== undefined && compareRevisions(change.revision, sent) <= 0) return;
    // The client holds every write up to its version: the list it came from, the events before it.
    if (this.resourceVersion !== undefined && compareRevisions(change.revision, this.resourceVersion) <= 0) return;
    this.sent.set(key, change.revision);
    let previous = this.known.get(key);
    const knownCreation = this.knownCreation.get(key);
    if (previous !== undefined && change.object !== undefined && knownCreation !== undefined && change.createdRevision !== undefined && knownCreation !== change.createdRevision) {
      // Deleted and created again between two reads: the client hears both, as from kube-apiserver.
      if (this.selection.matches(previous)) await this.send('DELETED', deletedObject(previous, change, this.route), sink);
      this.forget(key);
      previous = undefined;
    }
    // From a version, an object the watch does not know may be one the client holds, unless the store
    // says it was created after the version: a client that has it must hear that it went.
    const wasMatching = previous !== undefined ? this.selection.matches(previous) : this.resourceVersion !== undefined && !this.createdAfterVersion(change);
    if (change.object === undefined) {
      this.forget(key);
      if (wasMatching) await this.send('DELETED', deletedObject(previous ?? change.last, change, this.route), sink);
      return;
    }
    this.know(change);
    if (this.selection.matches(change.object)) await this.send(wasMatching ? 'MODIFIED' : 'ADDED', change.object, sink);
    else if (wasMatching) await this.send('DELETED', change.object, sink);
  }
}

/**
 * Checks a watch request as a list request is checked (a refusal is an ordinary Status, before any
 * event), and returns the watch to run.
 */
export function openWatch(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies, timing: WatchTiming): OpenWatch {
  if (route.name !== undefined || route.subresource !== undefined) throw new ApiError('MethodNotAllowed', 'watch a collection, with fieldSelector=metadata.name=<name> for one object');
  const version = request.query.resourceVersion;
  const timeoutSeconds = timeoutOf(request.query.timeoutSeconds, timing.maxTimeoutSeconds);
  const bookmarks = request.query.allowWatchBookmarks === 'true';
  const initialEventsEnd = sendsInitialEvents(request, bookmarks);
  // With initial events the state sent is the current one, which is not older than any version given.
  const from = initialEventsEnd || version === undefined || version === '' || version === '0' ? undefined : version;
  const options: WatchOptions = { resourceVersion: from, timeoutMs: timeoutSeconds * 1000, bookmarks, initialEventsEnd };
  if (route.resource.source === 'events') return new EventWatch(route, deps, selectionOf(request, EVENT_FIELDS, route.namespace), options, timing);
  return new StoreWatch(route, deps, selectionOf<StoredObject>(request, selectableFields(route.resource)), options, timing);
}

/** sendInitialEvents=true, checked as kube-apiserver checks it: with resourceVersionMatch=NotOlderThan and bookmarks. */
function sendsInitialEvents(request: ApiRequest, bookmarks: boolean): boolean {
  const value = request.query.sendInitialEvents;
  if (value === undefined || value === '' || value === 'false') return false;
  if (value !== 'true') throw new ApiError('BadRequest', `sendInitialEvents: must be true or false, not "${value}"`);
  if (request.query.resourceVersionMatch !== 'NotOlderThan') throw new ApiError('Invalid', 'resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan');
  if (!bookmarks) throw new ApiError('Invalid', 'allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true');
  return true;
}
