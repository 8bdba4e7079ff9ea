import type { ChangePage } from '../ports/object-store';
import type { FeedPacing, FeedReader } from './shared-change-feed';

/**
 * One watch's place on a shared feed: its first reads, begun when the feed lets it join, then the
 * pages the feed reads after them, kept in order until the watch takes them.
 */
export class FeedSubscription<First> implements FeedReader {
  private first: Promise<First> | undefined;
  private readonly pages: ChangePage[] = [];
  private failure: { readonly error: unknown } | undefined;
  /** Ends the current wait early: a page, a failure or the first reads came. */
  private wake: (() => void) | undefined;

  /** `firstReads` must start every read before it awaits anything (see FeedReader.begin). */
  constructor(
    private readonly firstReads: () => Promise<First>,
    private readonly pacing: FeedPacing,
  ) {}

  begin(): void {
    this.first = this.firstReads();
    // Awaited by `begun`; a watch gone before then must not leave a rejection unhandled.
    this.first.catch(() => undefined);
    this.wake?.();
  }

  receive(page: ChangePage): void {
    this.pages.push(page);
    this.wake?.();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake?.();
  }

  /** The first reads' result once the feed has let the watch join; undefined if `signal` aborts first. */
  async begun(signal: AbortSignal): Promise<First | undefined> {
    while (this.first === undefined && this.failure === undefined && !signal.aborted) await this.pause(this.pacing.pollIntervalMs, signal);
    if (this.failure) throw this.failure.error;
    return this.first;
  }

  /** The next page, waiting at most `ms` for it; undefined when none came by then or `signal` aborted. Throws the feed's failure. */
  async next(ms: number, signal: AbortSignal): Promise<ChangePage | undefined> {
    if (this.pages.length === 0 && this.failure === undefined && !signal.aborted) await this.pause(ms, signal);
    if (this.pages.length === 0 && this.failure) throw this.failure.error;
    return this.pages.shift();
  }

  private async pause(ms: number, signal: AbortSignal): Promise<void> {
    const woken = new AbortController();
    const wake = () => woken.abort();
    signal.addEventListener('abort', wake, { once: true });
    this.wake = wake;
    try {
      await this.pacing.sleep(ms, woken.signal);
    } finally {
      this.wake = undefined;
      signal.removeEventListener('abort', wake);
    }
  }
}
