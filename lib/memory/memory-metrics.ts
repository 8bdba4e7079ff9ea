import type { Metrics } from '../ports/metrics';

/** `name{a=1,b=2}`, the dimensions by name; counted on every commit, so built without arrays beyond the names'. */
function seriesKey(name: string, dimensions?: Readonly<Record<string, string>>): string {
  if (dimensions === undefined) return name;
  const keys = Object.keys(dimensions);
  if (keys.length === 0) return name;
  // Any fixed order of the names makes one key per series: code-unit order, without a collator. Callers
  // mostly name them in that order already.
  if (!isAscending(keys)) keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let labels = `${keys[0]}=${dimensions[keys[0]!]}`;
  for (let index = 1; index < keys.length; index += 1) labels += `,${keys[index]}=${dimensions[keys[index]!]}`;
  return `${name}{${labels}}`;
}

function isAscending(keys: readonly string[]): boolean {
  for (let index = 1; index < keys.length; index += 1) if (keys[index - 1]! > keys[index]!) return false;
  return true;
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
