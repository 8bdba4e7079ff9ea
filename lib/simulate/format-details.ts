import { renderTable } from '../format/table';
import type { SimulatedBinding, SimulationResult } from './run-scenario';

const NONE = '<none>';

/** kind/namespace/name as an event names its object; a cluster-scoped one without the namespace. */
export function objectName(object: { kind: string; namespace?: string; name: string }): string {
  return `${object.kind}/${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}

/** member1:2,member2:1 as `outrank get bindings` prints a placement. */
export function placement(clusters: ReadonlyArray<{ name: string; replicas: number }>): string {
  return clusters.length === 0 ? NONE : clusters.map((c) => `${c.name}:${c.replicas}`).join(',');
}

function policyName(policy: SimulatedBinding['policy']): string {
  return policy ? `${policy.kind.toLowerCase()}/${policy.name}` : NONE;
}

/** One row per binding (-o wide): where it is placed, why it is not, and what put it there. */
export function bindingsTable(bindings: readonly SimulatedBinding[]): string {
  return renderTable(
    ['NAMESPACE', 'BINDING', 'PRIORITY', 'PREEMPTIBILITY', 'REPLICAS', 'POLICY', 'CLUSTERS', 'SCHEDULED', 'REASON'],
    bindings.map((b) => {
      const scheduled = b.conditions.find((c) => c.type === 'Scheduled');
      return [
        b.namespace || '-',
        b.name,
        String(b.priority),
        b.preemptibility,
        String(b.replicas),
        policyName(b.policy),
        placement(b.clusters),
        b.suspended ? 'Suspended' : (scheduled?.status ?? 'Pending'),
        scheduled?.reason ?? '',
      ];
    }),
  );
}

/** Every event (--events), with the step that led to it and the virtual time it was recorded at. */
export function eventsTable(events: SimulationResult['events']): string {
  return renderTable(
    ['STEP', 'TIME', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'],
    events.map((e) => [String(e.step), e.time, e.type, e.reason, objectName(e.object), e.message]),
  );
}
