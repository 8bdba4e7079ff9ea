import { ConflictError } from '../ports/object-store';

/**
 * Runs `attempt` until it commits without a conflict, at most `maxAttempts` times; the last conflict,
 * and any other error, is thrown. `attempt` is told whether it is the last, so that it can report a
 * failure that will not be retried.
 */
export async function retryOnConflict<T>(maxAttempts: number, attempt: (lastAttempt: boolean) => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries += 1) {
    try {
      return await attempt(tries >= maxAttempts);
    } catch (error) {
      if (!(error instanceof ConflictError) || tries >= maxAttempts) throw error;
    }
  }
}
