export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

let lastReading: number | undefined;
let lastTimestamp = '';

/**
 * The clock's time as objects and events carry it (RFC 3339 with milliseconds). The last one is kept:
 * the writes of one decision, and of a simulation's virtual instant, share it.
 */
export function timestampOf(clock: Clock): string {
  const now = clock.now();
  if (now !== lastReading) {
    lastTimestamp = new Date(now).toISOString();
    lastReading = now;
  }
  return lastTimestamp;
}
