import { refKey } from '../api/kinds';
import { compareRevisions, type ChangePage, type StoredChange, type StoredObject } from '../ports/object-store';
import type { ApiDependencies, ApiRequest } from './api-types';
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
 * - Without a resourceVersion (or "0"): ADDED for every object that matches now, then its changes.
 * - From a resourceVersion (a list's, an event's, a bookmark's): every change committed after it. On
 *   the memory store versions are the commit sequence and nothing repeats; on DynamoDB versions are
 *   write times, so the first read repeats the changes of the feed's overlap before the version (a
 *   MODIFIED the client already has) rather than miss one committed late — all but the write the
 *   version itself names. A version the feed no longer
 *   reaches is an ERROR event with a 410 Expired Status, and the client lists again. Without a
 *   selector nothing but those changes is read (informers watch again every few minutes, and the
 *   kind may hold 10,000 bindings): a DELETED carries the object as the feed's deletion kept it (as it
 *   was deleted), or its name and the deletion's version when the deleter did not give it.
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

  constructor(
    private readonly route: ResourceRoute,
    private readonly deps: ApiDependencies,
    private readonly selection: Selection<StoredObject>,
    private readonly resourceVersion: string | undefined,
    private readonly timeoutMs: number,
    private readonly bookmarks: boolean,
    private readonly timing: WatchTiming,
  ) {}

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
    const deadline = this.timing.now() + this.timeoutMs;
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
      for (const change of initial?.changes ?? []) if (this.holdsAsRead(change)) this.known.set(refKey(change.ref), change.object!);
      if (this.resourceVersion === undefined) await this.sendInitial(initial!.changes, sink);
      let cursor = sinceVersion?.cursor ?? initial!.cursor;
      let page: ChangePage | undefined = sinceVersion;
      let nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
      while (!sink.signal.aborted && this.timing.now() < deadline) {
        if (page) {
          cursor = page.cursor;
          for (const change of [...page.changes].sort((a, b) => compareRevisions(a.revision, b.revision))) await this.apply(change, sink);
        }
        if (this.bookmarks && this.timing.now() >= nextBookmark) {
          await sink.send({ type: 'BOOKMARK', object: { apiVersion: info.apiVersion, kind: info.kind, metadata: { resourceVersion: store.versionAt(cursor) } } });
          nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
        }
        page = await feed.next(Math.max(0, deadline - this.timing.now()), sink.signal);
      }
    } finally {
      leave();
    }
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
      if (this.selection.matches(change.object!)) await sink.send({ type: 'ADDED', object: change.object });
    }
  }

  private async apply(change: StoredChange, sink: WatchSink): Promise<void> {
    if (!inNamespace(this.route, change.ref)) return;
    const key = refKey(change.ref);
    const sent = this.sent.get(key);
    if (sent !== undefined && compareRevisions(change.revision, sent) <= 0) return;
    // A version names one write of one object: the client holding it has that write (it came in the
    // list, or in the event whose version it is), so the feed's overlap does not send it again.
    if (change.revision === this.resourceVersion) return;
    this.sent.set(key, change.revision);
    const previous = this.known.get(key);
    // From a version, an object the watch does not know as the client has it may have matched then,
    // unless the store says this change created it: a client that has it must hear that it went.
    const unknown = previous === undefined && this.resourceVersion !== undefined;
    const wasMatching = previous !== undefined ? this.selection.matches(previous) : unknown && change.created !== true;
    if (change.object === undefined) {
      this.known.delete(key);
      if (wasMatching) await sink.send({ type: 'DELETED', object: deletedObject(previous ?? change.last, change, this.route) });
      return;
    }
    this.known.set(key, change.object);
    const matches = this.selection.matches(change.object);
    if (matches) await sink.send({ type: this.isNews(wasMatching, change, sent) ? 'ADDED' : 'MODIFIED', object: change.object });
    else if (wasMatching) await sink.send({ type: 'DELETED', object: change.object });
  }

  /**
   * Whether the client cannot have had the object: it did not match (or was not there) as the client
   * last had it, or, from a version, the store says this change created it. An object the store cannot
   * tell about is taken to be known (MODIFIED), which informers treat alike.
   */
  private isNews(wasMatching: boolean, change: StoredChange, sent: string | undefined): boolean {
    if (!wasMatching) return true;
    return this.resourceVersion !== undefined && sent === undefined && change.created === true;
  }
}

/**
 * Checks a watch request as a list request is checked (a refusal is an ordinary Status, before any
 * event), and returns the watch to run.
 */
export function openWatch(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies, timing: WatchTiming): OpenWatch {
  if (route.name !== undefined || route.subresource !== undefined) throw new ApiError('MethodNotAllowed', 'watch a collection, with fieldSelector=metadata.name=<name> for one object');
  if (route.resource.source !== 'store') throw new ApiError('MethodNotAllowed', `watch of ${route.resource.info.plural} is not served: list them instead`);
  const selection = selectionOf<StoredObject>(request, selectableFields(route.resource));
  const version = request.query.resourceVersion;
  const timeoutSeconds = timeoutOf(request.query.timeoutSeconds, timing.maxTimeoutSeconds);
  return new StoreWatch(route, deps, selection, version === undefined || version === '' || version === '0' ? undefined : version, timeoutSeconds * 1000, request.query.allowWatchBookmarks === 'true', timing);
}
