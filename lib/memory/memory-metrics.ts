import type { Metrics } from '../ports/metrics';

/** `name{a=1,b=2}`, the dimensions by name; counted on every commit, so without an entries array for the common one or none. */
function seriesKey(name: string, dimensions?: Readonly<Record<string, string>>): string {
  if (dimensions === undefined) return name;
  const keys = Object.keys(dimensions);
  if (keys.length === 0) return name;
  if (keys.length === 1) return `${name}{${keys[0]}=${dimensions[keys[0]!]}}`;
  // Any fixed order of the names makes one key per series: code-unit order, without a collator.
  const labels = keys
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((k) => `${k}=${dimensions[k]}`)
    .join(',');
  return `${name}{${labels}}`;
}

/** Metrics kept in memory, read back by the simulator and tests. */
export class MemoryMetrics implements Metrics {
  private readonly counters = new Map<string, number>();
  private readonly observations = new Map<string, number[]>();

  count(name: string, dimensions?: Readonly<Record<string, string>>, value = 1): void {
    const key = seriesKey(name, dimensions);
    this.counters.set(key, (this.counters.get(key) ?? 0) + value);
  }

  observe(name: string, value: number, dimensions?: Readonly<Record<string, string>>): void {
    const key = seriesKey(name, dimensions);
    const values = this.observations.get(key);
    if (values) values.push(value);
    else this.observations.set(key, [value]);
  }

  counter(name: string, dimensions?: Readonly<Record<string, string>>): number {
    return this.counters.get(seriesKey(name, dimensions)) ?? 0;
  }

  observed(name: string, dimensions?: Readonly<Record<string, string>>): readonly number[] {
    return this.observations.get(seriesKey(name, dimensions)) ?? [];
  }
}
