/**
 * Time series over the last hour, for the charts: one column per minute of the clock (so that a column
 * keeps what it counts as the hour moves on), the last column being the minute now is in. Times are
 * the server's.
 */

export const MINUTE_MS = 60_000;
export const COLUMNS = 60;

/** The column of the last hour a time falls in, or undefined when it is older (or later than now). */
export function columnOf(time: number, now: number): number | undefined {
  const column = Math.floor(time / MINUTE_MS) - Math.floor(now / MINUTE_MS) + COLUMNS - 1;
  return column >= 0 && column < COLUMNS ? column : undefined;
}

/** When each column starts: `Date.parse`-able times for titles. */
export function columnStart(column: number, now: number): number {
  return (Math.floor(now / MINUTE_MS) - (COLUMNS - 1 - column)) * MINUTE_MS;
}

/** How many of the times fall in each minute of the last hour, by key (a band, say), as columns. */
export function countPerMinute<T>(items: readonly T[], timeOf: (item: T) => number, keyOf: (item: T) => string, keys: readonly string[], now: number): Map<string, number[]> {
  const series = new Map(keys.map((key) => [key, new Array<number>(COLUMNS).fill(0)]));
  for (const item of items) {
    const column = columnOf(timeOf(item), now);
    const values = series.get(keyOf(item));
    if (column !== undefined && values) values[column]! += 1;
  }
  return series;
}

export interface Sample<T> {
  readonly time: number;
  readonly value: T;
}

/**
 * What was read, kept for an hour: the console samples what the API holds now (queue depths, what
 * waits, how full the clusters are) while it is open, as the API keeps no history of them.
 */
export class Samples<T> {
  private readonly samples: Array<Sample<T>> = [];

  /** A sample at `time`; one at the same time (the same server second) replaces the last. */
  add(time: number, value: T): void {
    const last = this.samples[this.samples.length - 1];
    if (last && last.time === time) this.samples[this.samples.length - 1] = { time, value };
    else if (!last || time > last.time) this.samples.push({ time, value });
    while (this.samples.length > 0 && columnOf(this.samples[0]!.time, time) === undefined) this.samples.shift();
  }

  /** The samples of the last hour, with `value` as the one at `now` (taken now, and not yet added). */
  through(now: number, value: T): Array<Sample<T>> {
    return [...this.samples.filter((sample) => sample.time < now && columnOf(sample.time, now) !== undefined), { time: now, value }];
  }
}

/**
 * The most each key held in each minute (its peak rather than whichever sample came last), by key;
 * undefined in minutes without a sample.
 */
export function peakPerMinute(samples: ReadonlyArray<Sample<Readonly<Record<string, number>>>>, keys: readonly string[], now: number): Map<string, Array<number | undefined>> {
  const series = new Map(keys.map((key) => [key, new Array<number | undefined>(COLUMNS).fill(undefined)]));
  for (const { time, value } of samples) {
    const column = columnOf(time, now);
    if (column === undefined) continue;
    for (const [key, values] of series) values[column] = Math.max(values[column] ?? 0, value[key] ?? 0);
  }
  return series;
}

/** The last sample of each minute (how things stood when it ended), or undefined in minutes without one. */
export function lastPerMinute<T>(samples: ReadonlyArray<Sample<T>>, now: number): Array<T | undefined> {
  const columns = new Array<T | undefined>(COLUMNS).fill(undefined);
  for (const { time, value } of samples) {
    const column = columnOf(time, now);
    if (column !== undefined) columns[column] = value;
  }
  return columns;
}
