import { describe, expect, it } from 'vitest';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { isVictimCandidate, planPreemption } from '../../../lib/scheduler/preemption/plan-preemption';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { bindingState, SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

const SPEC = 'binding priority and preemption (000)';
const BUDGET = 20_000;

const preemptor = bindingState(binding('pending', { priority: 10 }));

describe(`isVictimCandidate (${SPEC}, "Preemption scenario"; preemptibility separate from priority (001))`, () => {
  it.each<[string, ResourceBinding, boolean]>([
    ['a lower-priority preemptible ResourceBinding that requests resources', binding('v', { priority: 9, clusters: { m1: 1 } }), true],
    ['a negative priority', binding('v', { priority: -100 }), true],
    ['equal priority', binding('v', { priority: 10 }), false],
    ['higher priority', binding('v', { priority: 11 }), false],
    ['non-preemptible', binding('v', { priority: 1, preemptible: false }), false],
    ['a ClusterResourceBinding', binding('v', { kind: 'ClusterResourceBinding', priority: 1 }), false],
    ['a binding that requests no resources', binding('v', { priority: 1, request: {} }), false],
    ['the preemptor itself', binding('pending', { priority: 1 }), false],
  ])('%s → %s', (_, candidate, expected) => {
    expect(isVictimCandidate(bindingState(candidate), preemptor)).toBe(expected);
  });
});

function plan(
  clusters: ReturnType<typeof cluster>[],
  running: ResourceBinding[],
  pending: ResourceBinding,
  requirement: Requirement,
  names: string[] = clusters.map((c) => c.metadata.name),
) {
  const snapshot = new SchedulingSnapshot(clusters, running);
  const states = names.map((name) => snapshot.clusters.get(name)!);
  const result = planPreemption(bindingState(pending), states, requirement, snapshot, BUDGET);
  return result && { victims: result.victims.map((victim) => victim.binding.metadata.name).sort(), exact: result.exact };
}

const one = (name: string, replicas = 1): Requirement => ({ type: 'per-cluster', need: new Map([[name, replicas]]) });

describe(`planPreemption (${SPEC}, "Preemption order")`, () => {
  it('the capacity-10 example: only the priority-2 binding is preempted', () => {
    const running = [
      binding('p0', { priority: 0, request: { cpu: '1' }, clusters: { m1: 1 } }),
      binding('p1', { priority: 1, request: { cpu: '2' }, clusters: { m1: 1 } }),
      binding('p2', { priority: 2, request: { cpu: '5' }, clusters: { m1: 1 } }),
      binding('p3', { priority: 3, request: { cpu: '2' }, clusters: { m1: 1 } }),
    ];
    const pending = binding('pending', { priority: 10, request: { cpu: '5' } });
    expect(plan([cluster('m1', { allocatable: { cpu: '10' } })], running, pending, one('m1'))).toEqual({ victims: ['p2'], exact: true });
  });

  it('preempts nobody when evicting every candidate would not be enough', () => {
    const running = [binding('low', { priority: 0, request: { cpu: '2' }, clusters: { m1: 1 } }), binding('high', { priority: 50, request: { cpu: '2' }, clusters: { m1: 1 } })];
    const pending = binding('pending', { priority: 10, request: { cpu: '3' } });
    expect(plan([cluster('m1', { allocatable: { cpu: '4' } })], running, pending, one('m1'))).toBeNull();
  });

  it('preempts nobody when there is no candidate', () => {
    const running = [binding('crb', { kind: 'ClusterResourceBinding', priority: 0, clusters: { m1: 1 } })];
    expect(plan([cluster('m1', { allocatable: { cpu: '1' } })], running, binding('pending', { priority: 10 }), one('m1'))).toBeNull();
  });

  it('looks only at the clusters the requirement names', () => {
    const running = [binding('on-m1', { priority: 0, clusters: { m1: 1 } }), binding('on-m2', { priority: 0, clusters: { m2: 1 } })];
    const clusters = [cluster('m1', { allocatable: { cpu: '1' } }), cluster('m2', { allocatable: { cpu: '1' } })];
    expect(plan(clusters, running, binding('pending', { priority: 10 }), one('m2'))).toEqual({ victims: ['on-m2'], exact: true });
  });

  it('a per-cluster requirement needs room on every named cluster', () => {
    const running = [binding('a', { priority: 0, clusters: { m1: 1 } }), binding('b', { priority: 0, clusters: { m2: 1 } })];
    const clusters = [cluster('m1', { allocatable: { cpu: '1' } }), cluster('m2', { allocatable: { cpu: '1' } })];
    const requirement: Requirement = { type: 'per-cluster', need: new Map([['m1', 1], ['m2', 1]]) };
    expect(plan(clusters, running, binding('pending', { priority: 10 }), requirement)).toEqual({ victims: ['a', 'b'], exact: true });
  });

  it('a pooled requirement sums the room over the clusters (the flowchart gap)', () => {
    // Two replicas of 2 cores: m1 has room for one; evicting v on m2 makes room for the other.
    const clusters = [cluster('m1', { allocatable: { cpu: '3' } }), cluster('m2', { allocatable: { cpu: '2' } })];
    const running = [binding('v', { priority: 1, request: { cpu: '2' }, clusters: { m2: 1 } }), binding('w', { priority: 0, request: { cpu: '1' }, clusters: { m1: 1 } })];
    const pending = binding('pending', { priority: 10, request: { cpu: '2' }, replicas: 2 });
    expect(plan(clusters, running, pending, { type: 'pooled', replicas: 2 })).toEqual({ victims: ['v'], exact: true });
  });

  it.each<[string, ResourceBinding[], string[]]>([
    [
      'fewest victims, even of higher priority',
      [
        binding('c1', { priority: 0, clusters: { m1: 1 } }),
        binding('c2', { priority: 0, clusters: { m1: 1 } }),
        binding('d', { priority: 8, request: { cpu: '2' }, clusters: { m2: 1 } }),
      ],
      ['d'],
    ],
    [
      'then the lower highest victim priority',
      [binding('a', { priority: 5, request: { cpu: '2' }, clusters: { m1: 1 } }), binding('b', { priority: 3, request: { cpu: '2' }, clusters: { m2: 1 } })],
      ['b'],
    ],
    [
      'then the lower sum of priorities',
      [
        binding('a1', { priority: 4, clusters: { m1: 1 } }),
        binding('a2', { priority: 4, clusters: { m1: 1 } }),
        binding('b1', { priority: 4, clusters: { m2: 1 } }),
        binding('b2', { priority: 1, clusters: { m2: 1 } }),
      ],
      ['b1', 'b2'],
    ],
  ])('across clusters: %s', (_, running, victims) => {
    const clusters = [cluster('m1', { allocatable: { cpu: '2' } }), cluster('m2', { allocatable: { cpu: '2' } })];
    const pending = binding('pending', { priority: 10, request: { cpu: '2' } });
    expect(plan(clusters, running, pending, { type: 'pooled', replicas: 1 })?.victims).toEqual(victims);
  });

  it('counts the preemptor\'s own placement as free', () => {
    // Rescheduling from 1 to 2 replicas of 2 cores on a 4-core cluster: one victim of 2 cores is enough.
    const running = [binding('pending', { priority: 10, request: { cpu: '2' }, replicas: 1, clusters: { m1: 1 } }), binding('v', { priority: 0, request: { cpu: '2' }, clusters: { m1: 1 } })];
    const pending = binding('pending', { priority: 10, request: { cpu: '2' }, replicas: 2, clusters: { m1: 1 } });
    expect(plan([cluster('m1', { allocatable: { cpu: '4' } })], running, pending, one('m1', 2))).toEqual({ victims: ['v'], exact: true });
  });
});
