import type { ChangePage, ObjectStore } from '../ports/object-store';

/** How a shared feed paces its reads: the watch timing's poll interval and sleep. */
export interface FeedPacing {
  readonly pollIntervalMs: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** One reader of a kind's shared feed: a watch. */
export interface FeedReader {
  /**
   * Called once, at the poll the reader joins, in the same turn as that poll's read began: the
   * reader starts its own first reads now, without awaiting anything first, so that they see the
   * store as that read does. Every page read after this one is received.
   */
  begin(): void;
  /** A page of the shared read, every one after `begin`, in order; empty pages too (they advance the cursor). */
  receive(page: ChangePage): void;
  /** The shared read failed: the reader is dropped and ends with the error. */
  fail(error: unknown): void;
}

/**
 * A kind's change feed read once per poll for every watch of it in this process, as client-go's
 * informers share one watch per kind: the store's load follows the kinds watched and the poll
 * interval, not the number of watches. Readers join at a poll, never between two: the poll's read
 * starts after they asked (so no page they receive reaches back before the version they start from)
 * and their own first reads start in the same turn (so the pages they receive start where those reads
 * end). A reader thus receives, after its first reads, what a watch reading the feed on its own would
 * read; on the memory store, whose cursor is the commit sequence, not one change more or less. A reader
 * waits at most one poll interval to join; the first reader of a kind joins at once.
 */
class SharedChangeFeed {
  private readonly joining: FeedReader[] = [];
  private readonly reading = new Set<FeedReader>();
  /**
   * Where the next read starts: where the last read ended or, after a poll with no one reading (the
   * first), that poll's time, from which those who began at it read on.
   */
  private cursor: string | undefined;
  private readonly stopped = new AbortController();

  constructor(
    private readonly store: ObjectStore,
    private readonly group: string,
    private readonly kind: string,
    private readonly pacing: FeedPacing,
  ) {}

  get idle(): boolean {
    return this.joining.length === 0 && this.reading.size === 0;
  }

  join(reader: FeedReader): void {
    this.joining.push(reader);
  }

  leave(reader: FeedReader): void {
    const waiting = this.joining.indexOf(reader);
    if (waiting >= 0) this.joining.splice(waiting, 1);
    this.reading.delete(reader);
  }

  /** Polls until stopped: the first poll at once, for the reader that started the feed. */
  async run(): Promise<void> {
    while (!this.stopped.signal.aborted) {
      await this.poll().catch((error: unknown) => this.failEveryone(error));
      await this.pacing.sleep(this.pacing.pollIntervalMs, this.stopped.signal);
    }
  }

  stop(): void {
    this.stopped.abort();
  }

  private async poll(): Promise<void> {
    const now = this.store.cursorAt(this.store.currentVersion());
    if (now === undefined) throw new Error('the store gives no cursor for its current version');
    const joining = this.joining.splice(0);
    const receiving = [...this.reading];
    const read = receiving.length > 0 ? this.store.changes(this.group, this.kind, this.cursor) : undefined;
    for (const reader of joining) {
      reader.begin();
      this.reading.add(reader);
    }
    if (!read) {
      this.cursor = now;
      return;
    }
    try {
      const page = await read;
      this.cursor = page.cursor;
      for (const reader of receiving) if (this.reading.has(reader)) reader.receive(page);
    } catch (error) {
      // Those who began at this poll read from its time on; the others end, as a watch whose read failed.
      this.cursor = now;
      for (const reader of receiving) if (this.reading.delete(reader)) reader.fail(error);
    }
  }

  private failEveryone(error: unknown): void {
    const everyone = [...this.joining.splice(0), ...this.reading];
    this.reading.clear();
    for (const reader of everyone) reader.fail(error);
  }
}

/** The feeds of this process, by store (a test's store has its own) and kind. */
const feeds = new WeakMap<ObjectStore, Map<string, SharedChangeFeed>>();

/**
 * Joins the reader to the shared feed of the kind on this store, read at this pacing; the feed starts
 * with its first reader and stops with its last. Returns what leaves it.
 */
export function joinChangeFeed(store: ObjectStore, group: string, kind: string, pacing: FeedPacing, reader: FeedReader): () => void {
  let byKind = feeds.get(store);
  if (!byKind) feeds.set(store, (byKind = new Map()));
  const key = `${kind}.${group}@${pacing.pollIntervalMs}`;
  let feed = byKind.get(key);
  const starting = feed === undefined;
  if (!feed) byKind.set(key, (feed = new SharedChangeFeed(store, group, kind, pacing)));
  feed.join(reader);
  if (starting) void feed.run();
  const joined = feed;
  return () => {
    joined.leave(reader);
    if (!joined.idle || byKind.get(key) !== joined) return;
    joined.stop();
    byKind.delete(key);
  };
}
