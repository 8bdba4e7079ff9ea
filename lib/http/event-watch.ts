import type { KubeEvent } from '../api/event';
import { compareRevisions } from '../ports/object-store';
import type { ApiDependencies } from './api-types';
import { isInRoute } from './event-handlers';
import type { Selection } from './lists';
import type { ResourceRoute } from './routes';
import { failureStatus } from './status';
import type { OpenWatch, WatchEvent, WatchOptions, WatchSink, WatchTiming } from './watch';

/**
 * How long a watch remembers an event it sent, so that the log's feed giving it again (it reads a few
 * seconds back) does not send it twice: longer than any read looks back, bounded so that a long watch
 * of a busy fleet does not hold every event it ever sent.
 */
const SENT_MEMORY_MS = 60_000;

/**
 * A watch of events (`kubectl get events -w`), read from the event log's feed, which costs the events
 * written since the last read, not the log. outrank only ever adds events (they expire, as
 * kube-apiserver's do), so a watch sends ADDED: from a version (a list's, an event's, a bookmark's),
 * one for each event after it, each once; without one (or with sendInitialEvents), one for each event
 * there is first. Selected by namespace and field selectors as a list of events is.
 */
export class EventWatch implements OpenWatch {
  /** The events sent, by name, with when they were sent. */
  private readonly sent = new Map<string, number>();
  private latestSent: string | undefined;

  constructor(
    private readonly route: ResourceRoute,
    private readonly deps: ApiDependencies,
    private readonly selection: Selection<KubeEvent>,
    private readonly options: WatchOptions,
    private readonly timing: WatchTiming,
  ) {}

  async run(sink: WatchSink): Promise<void> {
    const log = this.deps.events;
    const { resourceVersion, bookmarks, initialEventsEnd } = this.options;
    const deadline = this.timing.now() + this.options.timeoutMs;
    let version = resourceVersion ?? log.currentVersion();
    if (resourceVersion === undefined) {
      for (const event of await log.list()) await this.offer(event, sink);
      if (initialEventsEnd) await sink.send(this.bookmark(version, { 'k8s.io/initial-events-end': 'true' }));
    }
    let nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
    while (!sink.signal.aborted && this.timing.now() < deadline) {
      const page = await log.recordedAfter(version);
      if (!page) {
        await sink.send({ type: 'ERROR', object: failureStatus('Expired', `too old resource version: ${version}`) });
        return;
      }
      for (const event of page.events) await this.offer(event, sink);
      version = page.version;
      this.forgetSentBefore(this.timing.now() - SENT_MEMORY_MS);
      if (bookmarks && this.timing.now() >= nextBookmark) {
        await sink.send(this.bookmark(version));
        nextBookmark = this.timing.now() + this.timing.bookmarkIntervalMs;
      }
      await this.timing.sleep(Math.min(this.timing.pollIntervalMs, Math.max(0, deadline - this.timing.now())), sink.signal);
    }
  }

  /** Sends the event unless the client has it (at or before its version, or sent already) or it is not selected. */
  private async offer(event: KubeEvent, sink: WatchSink): Promise<void> {
    const { resourceVersion } = this.options;
    const version = event.metadata.resourceVersion;
    if (resourceVersion !== undefined && version !== undefined && compareRevisions(version, resourceVersion) <= 0) return;
    if (this.sent.has(event.metadata.name)) return;
    this.sent.set(event.metadata.name, this.timing.now());
    if (!isInRoute(this.route, event) || !this.selection.matches(event)) return;
    if (version !== undefined && (this.latestSent === undefined || compareRevisions(version, this.latestSent) > 0)) this.latestSent = version;
    await sink.send({ type: 'ADDED', object: event });
  }

  private forgetSentBefore(time: number): void {
    // In the order sent: the oldest first.
    for (const [name, sentAt] of this.sent) {
      if (sentAt >= time) return;
      this.sent.delete(name);
    }
  }

  /** A BOOKMARK at the feed's version, never behind an event sent. */
  private bookmark(version: string, annotations?: Record<string, string>): WatchEvent {
    const latest = this.latestSent !== undefined && compareRevisions(this.latestSent, version) > 0 ? this.latestSent : version;
    return { type: 'BOOKMARK', object: { apiVersion: 'v1', kind: 'Event', metadata: { resourceVersion: latest, ...(annotations ? { annotations } : {}) } } };
  }
}
