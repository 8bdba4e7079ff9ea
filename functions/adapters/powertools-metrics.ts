import { MetricUnit, type Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Metrics } from '../../lib/ports/metrics';

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/** The Metrics port as CloudWatch embedded metric format, one metric object per dimension set. */
export class PowertoolsMetricsAdapter implements Metrics {
  constructor(private readonly metrics: PowertoolsMetrics) {}

  count(name: string, dimensions: Readonly<Record<string, string>> = {}, value = 1): void {
    this.emit(name, MetricUnit.Count, value, dimensions);
  }

  observe(name: string, value: number, dimensions: Readonly<Record<string, string>> = {}): void {
    this.emit(name, name.endsWith('Ms') ? MetricUnit.Milliseconds : MetricUnit.Count, value, dimensions);
  }

  private emit(name: string, unit: Unit, value: number, dimensions: Readonly<Record<string, string>>): void {
    if (Object.keys(dimensions).length === 0) {
      this.metrics.addMetric(name, unit, value);
      return;
    }
    const single = this.metrics.singleMetric();
    for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension);
    single.addMetric(name, unit, value);
  }
}
