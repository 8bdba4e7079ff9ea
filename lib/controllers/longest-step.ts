/**
 * The rule both the schedule cycle and the queue handlers start work by: a step (a batch, a binding, a
 * record) is begun only with room for twice the longest step so far besides a fixed margin, since the
 * first step of a cold start reads the informers' kinds whole and steps slow down under contention, so
 * the next may take longer than any before it.
 */
export class LongestStep {
  private longestMs = 0;

  constructor(private readonly now: () => number) {}

  /** What the next step is given room for: twice the longest so far. */
  get nextNeedsMs(): number {
    return 2 * this.longestMs;
  }

  /** Times `work`, failed or not. */
  async timed<T>(work: () => Promise<T>): Promise<T> {
    const started = this.now();
    try {
      return await work();
    } finally {
      this.longestMs = Math.max(this.longestMs, this.now() - started);
    }
  }
}
