/** What the console derives from the API's objects (console/model.ts), rule by rule. */
import { describe, expect, it } from 'vitest';
import { bandOf, duration, pendingRows, placedOn, preemptionRows, type Binding, type KubeEvent } from '../../console/model';

const BANDS = [
  { name: 'system', minPriority: 1_000_000_000 },
  { name: 'high', minPriority: 1_000 },
  { name: 'default', minPriority: 0 },
  { name: 'low', minPriority: -2_147_483_648 },
];

function binding(name: string, priority: number, extra: Partial<Binding['spec']> = {}, created = '2026-01-01T00:00:00Z', status?: Binding['status']): Binding {
  return {
    kind: 'ResourceBinding',
    metadata: { name, namespace: 'default', creationTimestamp: created },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name }, schedulePriority: { priority }, ...extra },
    ...(status ? { status } : {}),
  };
}

const NOW = Date.parse('2026-01-01T00:10:00Z');

describe('console model', () => {
  it.each([
    [2_000_000_000, 'system'],
    [1_000, 'high'],
    [999, 'default'],
    [0, 'default'],
    [-1, 'low'],
  ])('puts priority %i in band %s, as the scheduler does (binding priority and preemption (000))', (priority, band) => {
    expect(bandOf(priority, BANDS)).toBe(band);
  });

  it('lists what waits band by band, highest priority first, then the longest waiting; placed bindings are left out', () => {
    const rows = pendingRows(
      [
        binding('placed', 5, { clusters: [{ name: 'm1', replicas: 1 }] }),
        binding('low', -5),
        binding('old', 10, {}, '2026-01-01T00:00:00Z'),
        binding('young', 10, {}, '2026-01-01T00:09:00Z'),
        binding('urgent', 5_000, {}, '2026-01-01T00:09:30Z', { conditions: [{ type: 'Scheduled', status: 'False', reason: 'Unschedulable', message: 'no room' }] }),
        binding('held', 20, { suspension: { scheduling: true } }),
      ],
      BANDS,
      NOW,
    );
    expect(rows.map((row) => [row.band, row.name, row.state, row.waitingSeconds])).toEqual([
      ['high', 'urgent', 'Unschedulable', 30],
      ['default', 'held', 'Suspended', 600],
      ['default', 'old', 'Pending', 600],
      ['default', 'young', 'Pending', 60],
      ['low', 'low', 'Pending', 600],
    ]);
    expect(rows[0]).toMatchObject({ reason: 'Unschedulable', message: 'no room' });
  });

  it('lists the bindings placed on a cluster, highest priority first, with what each replica asks (preemptibility separate from priority (001))', () => {
    const rows = placedOn('m1', [
      binding('a', 1, { clusters: [{ name: 'm1', replicas: 2 }], replicaRequirements: { resourceRequest: { 'nvidia.com/gpu': '1', cpu: '500m', memory: '1Gi' } } }),
      binding('b', 7, { clusters: [{ name: 'm2', replicas: 1 }, { name: 'm1', replicas: 1 }], preemptibility: 'non-preemptible' }),
      binding('c', 3, { clusters: [{ name: 'm2', replicas: 3 }] }),
    ]);
    expect(rows.map((row) => [row.namespace, row.name, row.replicas, row.preemptible, row.request])).toEqual([
      ['default', 'b', 1, false, ''],
      ['default', 'a', 2, true, 'cpu 500m, memory 1Gi, nvidia.com/gpu 1'],
    ]);
  });

  const event = (name: string, reason: string, time: string, extra: Partial<KubeEvent> = {}): KubeEvent => ({
    metadata: { name, annotations: { 'outrank.io/preemptor-priority': '10', 'outrank.io/victim-priority': '2', 'outrank.io/victim-preemptibility': 'preemptible' } },
    involvedObject: { kind: 'ResourceBinding', namespace: 'default', name: 'victim' },
    related: { kind: 'ResourceBinding', namespace: 'default', name: 'preemptor' },
    type: 'Warning',
    reason,
    message: 'preempted',
    lastTimestamp: time,
    ...extra,
  });

  it('lists preemptions newest first with the priorities they were decided on (binding priority and preemption (000))', () => {
    const rows = preemptionRows([event('e1', 'Preempted', '2026-01-01T00:01:00Z'), event('e2', 'ScheduleBindingSucceed', '2026-01-01T00:02:00Z'), event('e3', 'Preempted', '2026-01-01T00:03:00Z')]);
    expect(rows.map((row) => row.time)).toEqual(['2026-01-01T00:03:00Z', '2026-01-01T00:01:00Z']);
    expect(rows[0]).toMatchObject({ victim: 'default/victim', preemptor: 'default/preemptor', preemptorPriority: '10', victimPriority: '2', victimPreemptibility: 'preemptible' });
  });

  it.each([
    [45, '45s'],
    [180, '3m'],
    [7_200, '2h'],
    [200_000, '2d'],
  ])('writes %i seconds as %s, as kubectl shows ages', (seconds, text) => {
    expect(duration(seconds)).toBe(text);
  });
});
