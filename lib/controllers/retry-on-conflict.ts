import { ConflictError } from '../ports/object-store';

/** Which attempt a retried write is making, so that the last can report a failure that will not be retried. */
export interface Attempt {
  readonly number: number;
  readonly last: boolean;
}

export interface RetryOptions {
  /** Told of every conflict, the last included, before the next attempt: to read again what conflicted. */
  readonly onConflict?: (conflict: ConflictError) => Promise<void>;
}

/**
 * Runs `attempt` until it commits without a conflict, at most `maxAttempts` times; the last conflict,
 * and any other error at once, is thrown. The one rule for every write that is decided again on a
 * conflict: claims, schedule-cycle commits, API patches and applies without a resourceVersion.
 */
export async function retryOnConflict<T>(maxAttempts: number, attempt: (current: Attempt) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  for (let number = 1; ; number += 1) {
    const last = number >= maxAttempts;
    try {
      return await attempt({ number, last });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      await options.onConflict?.(error);
      if (last) throw error;
    }
  }
}
