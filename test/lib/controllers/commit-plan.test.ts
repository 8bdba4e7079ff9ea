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
      // kube-apiserver moves the generation with every spec change, the placement's too; the scheduler observes its own.
      expect(written.metadata.generation).toBe((subject.metadata.generation ?? 0) + 1);
      expect(written.status?.schedulerObservedGeneration).toBe(written.metadata.generation);
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
    expect(evicted.metadata.generation).toBe((victim.metadata.generation ?? 0) + 1);
    expect(evicted.metadata.annotations?.[PREEMPTED_BY_ANNOTATION]).toBe(preemptedByMarker(preemptor, NOW));
    expect(scheduled(evicted)).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(plan.events[1]).toMatchObject({ type: 'Warning', reason: 'Preempted', object: { name: 'victim' }, related: { name: 'urgent' } });
    expect(plan.events[1]?.annotations).toEqual(expect.objectContaining({ 'outrank.io/preemptor-priority': '10', 'outrank.io/victim-priority': '1' }));
    expect(plan.victims).toBe(1);
  });
});

describe('a failed attempt gives up the targets the binding must leave, whatever the cause, and keeps the rest', () => {
  const placed = stored(binding('web', { replicas: 3, clusters: { gone: 1, refused: 1, kept: 1 } }), 'r4');
  const decision: ScheduleDecision = { result: 'unschedulable', reason: 'Unschedulable', message: 'clusters have room for 1 of 3 replicas' };

  it('a deleted cluster, a refused one and an eviction past its grace: each released with its allocation, the reason ClusterDeleted while one was deleted', () => {
    const evicting: ResourceBinding = {
      ...placed,
      spec: { ...placed.spec, clusters: [...placed.spec.clusters!, { name: 'tainted', replicas: 0 }], gracefulEvictionTasks: [{ fromCluster: 'tainted', reason: 'TaintUntolerated', producer: 'TaintManager' }] },
    };
    const plan = planCommit(evicting, decision, NOW, [
      { target: { name: 'gone', replicas: 1 }, cause: 'deleted' },
      { target: { name: 'refused', replicas: 1 }, cause: 'refused' },
      { target: { name: 'tainted', replicas: 0 }, cause: 'evicted' },
    ]);
    expect(cpuDeltas(plan)).toEqual({ gone: -1000, refused: -1000, tainted: 0 });
    const own = plan.writes[0];
    if (own?.op !== 'put') throw new Error('the binding is written');
    const written = own.object as ResourceBinding;
    expect(written.spec.clusters).toEqual([{ name: 'kept', replicas: 1 }]);
    expect(written.spec.gracefulEvictionTasks).toBeUndefined();
    expect(scheduled(written)).toMatchObject({ status: 'False', reason: 'ClusterDeleted' });
    expect(scheduled(written)?.message).toBe(
      'no longer placed on gone (1): the cluster was deleted since the binding was placed there; ' +
        'no longer placed on refused (1): the cluster affinity it was placed by no longer admits the cluster; ' +
        'no longer placed on tainted (0): its graceful eviction from the cluster (a NoExecute taint it does not tolerate) ran out before it was placed elsewhere; ' +
        'clusters have room for 1 of 3 replicas',
    );
    expect(plan.events.map((event) => [event.reason, event.message])).toEqual([
      ['ClusterDeleted', 'no longer placed on gone (1): the cluster was deleted since the binding was placed there'],
      ['ScheduleBindingFailed', 'clusters have room for 1 of 3 replicas'],
    ]);
  });

  it('a refused cluster alone: the reason is the attempt\'s', () => {
    const plan = planCommit(placed, decision, NOW, [{ target: { name: 'refused', replicas: 1 }, cause: 'refused' }]);
    const own = plan.writes[0];
    if (own?.op !== 'put') throw new Error('the binding is written');
    expect(scheduled(own.object as ResourceBinding)).toMatchObject({ status: 'False', reason: 'Unschedulable' });
    expect(freedClusters(plan)).toEqual(['refused']);
  });

  it('a placement elsewhere ends the gracefulEvictionTasks of the clusters it leaves', () => {
    const evicting: ResourceBinding = { ...placed, spec: { ...placed.spec, gracefulEvictionTasks: [{ fromCluster: 'refused', reason: 'TaintUntolerated', producer: 'TaintManager' }] } };
    const plan = planCommit(evicting, { result: 'scheduled', targets: [{ name: 'kept', replicas: 3 }], affinityName: undefined, victims: [], exactVictims: true }, NOW);
    const own = plan.writes[0];
    if (own?.op !== 'put') throw new Error('the binding is written');
    expect((own.object as ResourceBinding).spec).toMatchObject({ clusters: [{ name: 'kept', replicas: 3 }] });
    expect((own.object as ResourceBinding).spec.gracefulEvictionTasks).toBeUndefined();
  });
});
