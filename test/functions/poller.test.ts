import { describe, expect, it, vi } from 'vitest';
import { Poller } from '../../functions/local/poller';

/** A poller whose rounds the test ends, each with a result or a failure. */
class ScriptedPoller extends Poller {
  readonly rounds: Array<{ resolve: (count: number) => void; reject: (error: Error) => void }> = [];
  private readonly started: Array<() => void> = [];

  pollOnce(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.rounds.push({ resolve, reject });
      this.started.shift()?.();
    });
  }

  /** Resolves once round `n` (1-based) has begun. */
  roundBegun(n: number): Promise<void> {
    return this.rounds.length >= n ? Promise.resolve() : new Promise((resolve) => this.started.push(resolve));
  }
}

describe('Poller: a local event source mapping', () => {
  it('reports a failed round, but not one the stop cut short (Ctrl-C stops the local endpoint too)', async () => {
    vi.useFakeTimers();
    try {
      const reported: unknown[] = [];
      const poller = new ScriptedPoller((error) => reported.push(error));
      poller.start();
      await poller.roundBegun(1);
      poller.rounds[0]!.reject(new Error('throttled'));
      await vi.advanceTimersByTimeAsync(1_000);
      await poller.roundBegun(2);
      expect(reported).toEqual([new Error('throttled')]);

      const stopped = poller.stop();
      poller.rounds[1]!.reject(new Error('connect ECONNREFUSED'));
      await vi.advanceTimersByTimeAsync(1_000);
      await stopped;
      expect(reported).toEqual([new Error('throttled')]);
      expect(poller.rounds).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
