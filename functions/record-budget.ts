import type { Context } from 'aws-lambda';
import { LongestStep } from '../lib/controllers/longest-step';

/**
 * Records are not started with less time than this left, plus twice the longest record of the
 * invocation so far: they fail instead and come back (after the queue's visibility timeout, or as the
 * stream's retry), rather than being cut off mid-way when the function times out.
 */
export const STOP_TAKING_WORK_MS = 5_000;

/** The time an invocation has for its records, one after another (LongestStep's rule). */
export class RecordBudget {
  private readonly records = new LongestStep(Date.now);

  constructor(private readonly context: Pick<Context, 'getRemainingTimeInMillis'>) {}

  /** Runs `work` if there is time for it, else fails saying what happens to the record (`leftFor`). */
  async run<T>(leftFor: string, work: () => Promise<T>): Promise<T> {
    const neededMs = STOP_TAKING_WORK_MS + this.records.nextNeedsMs;
    if (this.context.getRemainingTimeInMillis() < neededMs) {
      throw new Error(`left for ${leftFor}: under ${neededMs} ms of the invocation's time remained`);
    }
    return this.records.timed(work);
  }
}
