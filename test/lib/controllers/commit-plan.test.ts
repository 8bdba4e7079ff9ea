import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { PREEMPTED_BY_ANNOTATION } from '../../../lib/controllers/binding-informers';
import { freedClusters, planCommit, preemptedByMarker } from '../../../lib/controllers/commit-plan';
import type { ScheduleDecision } from '../../../lib/scheduler/schedule-binding';
import { bindingState } from '../../../lib/scheduler/snapshot';
import { binding } from '../scheduler/support';

const NOW = '2026-01-01T00:00:00.000Z';
const stored = (b: ResourceBinding, resourceVersion: string): ResourceBinding => ({ ...b, metadata: { ...b.metadata, resourceVersion } });
const cpuDeltas = (plan: ReturnType<typeof planCommit>) => Object.fromEntries([...plan.deltas].map(([cluster, delta]) => [cluster, delta.cpu ?? 0]));
const scheduled = (b: ResourceBinding) => b.status?.conditions?.find((c) => c.type === 'Scheduled');

interface PlanCase {
  readonly name: string;
  readonly binding: ResourceBinding;
  readonly decision: ScheduleDecision;
  /** Expected cpu moved per cluster, in millicores. */
  readonly deltas: Record<string, number>;
  readonly freed: readonly string[];
  readonly writes: number;
  readonly events: readonly string[];
}

const victim = stored(binding('victim', { priority: 1, clusters: { m2: 2 } }), 'v7');

const CASES: readonly PlanCase[] = [
  {
    name: 'unschedulable: the condition only, nothing moves',
    binding: stored(binding('waiting', { priority: 5 }), 'r1'),
    decision: { result: 'unschedulable', reason: 'Unschedulable', message: 'clusters have room for 0 of 1 replicas' },
    deltas: {},
    freed: [],
    writes: 1,
    events: ['ScheduleBindingFailed'],
  },
  {
    name: 'a first placement: the binding, and its request added where it goes',
    binding: stored(binding('new', { replicas: 3 }), 'r1'),
    decision: { result: 'scheduled', targets: [{ name: 'm1', replicas: 2 }, { name: 'm2', replicas: 1 }], affinityName: undefined, victims: [], exactVictims: true },
    deltas: { m1: 2000, m2: 1000 },
    freed: [],
    writes: 1,
    events: ['ScheduleBindingSucceed'],
  },
  {
    name: 'a move: taken off the cluster it leaves, added where it goes',
    binding: stored(binding('moving', { clusters: { m1: 1 } }), 'r4'),
    decision: { result: 'scheduled', targets: [{ name: 'm2', replicas: 1 }], affinityName: undefined, victims: [], exactVictims: true },
    deltas: { m1: -1000, m2: 1000 },
    freed: ['m1'],
    writes: 1,
    events: ['ScheduleBindingSucceed'],
  },
  {
    name: 'binding priority and preemption (000): a preemption evicts the victim in the same commit and frees its room',
    binding: stored(binding('urgent', { priority: 10, replicas: 2 }), 'r1'),
    decision: { result: 'scheduled', targets: [{ name: 'm2', replicas: 2 }], affinityName: undefined, victims: [bindingState(victim)], exactVictims: true },
    deltas: { m2: 0 },
    freed: [],
    writes: 2,
    events: ['ScheduleBindingSucceed', 'Preempted'],
  },
];

describe('the commit plan of a decision: pure, every write conditional on the version decided on', () => {
  it.each(CASES)('$name', ({ binding: subject, decision, deltas, freed, writes, events }) => {
    const plan = planCommit(subject, decision, NOW);
    expect(plan.result).toBe(decision.result);
    expect(cpuDeltas(plan)).toEqual(deltas);
    expect(freedClusters(plan)).toEqual(freed);
    expect(plan.writes).toHaveLength(writes);
    expect(plan.events.map((event) => event.reason)).toEqual(events);
    const own = plan.writes[0];
    expect(own).toMatchObject({ op: 'put', expectedVersion: subject.metadata.resourceVersion });
    if (own?.op !== 'put') throw new Error('the binding is written first');
    const written = own.object as ResourceBinding;
    expect(scheduled(written)).toMatchObject({ status: decision.result === 'scheduled' ? 'True' : 'False', lastTransitionTime: NOW });
    if (decision.result === 'scheduled') {
      expect(written.spec.clusters).toEqual(decision.targets);
      expect(written.status?.schedulerObservedGeneration).toBe(subject.metadata.generation);
    } else {
      expect(written.spec.clusters).toEqual(subject.spec.clusters);
    }
  });

  it('binding priority and preemption (000): the victim loses its placement, is marked with its preemptor for recovery after a crash, and the event carries the priorities', () => {
    const preemptor = stored(binding('urgent', { priority: 10, replicas: 2 }), 'r1');
    const plan = planCommit(preemptor, { result: 'scheduled', targets: [{ name: 'm2', replicas: 2 }], affinityName: undefined, victims: [bindingState(victim)], exactVictims: true }, NOW);
    const eviction = plan.writes[1];
    if (eviction?.op !== 'put') throw new Error('the victim is written second');
    expect(eviction.expectedVersion).toBe('v7');
    const evicted = eviction.object as ResourceBinding;
    expect(evicted.spec.clusters).toBeUndefined();
    expect(evicted.metadata.annotations?.[PREEMPTED_BY_ANNOTATION]).toBe(preemptedByMarker(preemptor, NOW));
    expect(scheduled(evicted)).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(plan.events[1]).toMatchObject({ type: 'Warning', reason: 'Preempted', object: { name: 'victim' }, related: { name: 'urgent' } });
    expect(plan.events[1]?.annotations).toEqual(expect.objectContaining({ 'outrank.io/preemptor-priority': '10', 'outrank.io/victim-priority': '1' }));
    expect(plan.victims).toBe(1);
  });
});
