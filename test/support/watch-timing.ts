import { setTimeout as delay } from 'node:timers/promises';
import type { WatchTiming } from '../../lib/http/watch';

/** Watch timing for tests: the feed read every few milliseconds so that events come at once, on real time. */
export function testWatchTiming(pollIntervalMs: number, bookmarkIntervalMs: number): WatchTiming {
  return {
    pollIntervalMs,
    bookmarkIntervalMs,
    maxTimeoutSeconds: 60,
    now: Date.now,
    sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
  };
}
