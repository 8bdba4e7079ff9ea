import type { Context } from 'aws-lambda';

/**
 * Records are not started with less time than this left, plus twice the longest record of the
 * invocation so far: they fail instead and come back (after the queue's visibility timeout, or as the
 * stream's retry), rather than being cut off mid-way when the function times out.
 */
export const STOP_TAKING_WORK_MS = 5_000;

/**
 * The time an invocation has for its records, one after another. The first record of a cold start
 * reads the informers' kinds whole, and records slow down under contention, so the margin grows with
 * the longest record seen.
 */
export class RecordBudget {
  private longestMs = 0;

  constructor(private readonly context: Pick<Context, 'getRemainingTimeInMillis'>) {}

  /** Runs `work` if there is time for it, else fails saying what happens to the record (`leftFor`). */
  async run<T>(leftFor: string, work: () => Promise<T>): Promise<T> {
    const neededMs = STOP_TAKING_WORK_MS + 2 * this.longestMs;
    if (this.context.getRemainingTimeInMillis() < neededMs) {
      throw new Error(`left for ${leftFor}: under ${neededMs} ms of the invocation's time remained`);
    }
    const started = Date.now();
    try {
      return await work();
    } finally {
      this.longestMs = Math.max(this.longestMs, Date.now() - started);
    }
  }
}
