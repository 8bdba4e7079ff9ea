/** Counters and observations; the deployed adapter writes them as CloudWatch embedded metrics. */
export interface Metrics {
  count(name: string, dimensions?: Readonly<Record<string, string>>, value?: number): void;
  observe(name: string, value: number, dimensions?: Readonly<Record<string, string>>): void;
}
