import { renderTable } from '../format/table';
import type { SimulationResult } from './run-scenario';

function placement(clusters: ReadonlyArray<{ name: string; replicas: number }>): string {
  return clusters.length === 0 ? '<none>' : clusters.map((c) => `${c.name}:${c.replicas}`).join(',');
}

/** The simulation for people: one row per binding, then events, rejections and counters. */
export function formatSimulation(result: SimulationResult): string {
  const sections: string[] = [];
  sections.push(
    renderTable(
      ['NAMESPACE', 'BINDING', 'PRIORITY', 'PREEMPTIBILITY', 'CLUSTERS', 'SCHEDULED', 'REASON'],
      result.bindings.map((b) => {
        const scheduled = b.conditions.find((c) => c.type === 'Scheduled');
        return [
          b.namespace || '-',
          b.name,
          String(b.priority),
          b.preemptibility,
          placement(b.clusters),
          b.suspended ? 'Suspended' : (scheduled?.status ?? 'Pending'),
          scheduled?.reason ?? '',
        ];
      }),
    ),
  );
  if (result.events.length > 0) {
    sections.push(
      renderTable(
        ['TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
        result.events.map((e) => [e.type, e.reason, `${e.object.kind}/${e.object.namespace ? `${e.object.namespace}/` : ''}${e.object.name}`, e.message]),
      ),
    );
  }
  if (result.rejections.length > 0) {
    sections.push(
      renderTable(
        ['STEP', 'REJECTED', 'MESSAGE'],
        result.rejections.map((r) => [String(r.step), `${r.object.kind}/${r.object.name}`, r.message]),
      ),
    );
  }
  const { policyPreemptions, bindingPreemptions } = result.metrics;
  sections.push(
    `Policy preemptions: ${policyPreemptions.success} succeeded, ${policyPreemptions.error} failed. Binding preemptions: ${bindingPreemptions}.`,
  );
  if (result.errors.length > 0) sections.push(`Errors:\n${result.errors.map((e) => `  ${e}`).join('\n')}`);
  return sections.join('\n\n');
}
