import { describe, expect, it } from 'vitest';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  applyAll,
  cluster,
  deployment,
  expectAllocationsMatchBindings,
  newSystem,
  placementOfDeployment,
  podPriorityPolicy,
  priorityClass,
  refs,
  SPEC,
} from './support';

const AGGREGATED = { placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } } };

interface AllocationCase {
  readonly name: string;
  readonly steps: ReadonlyArray<(system: MemorySystem) => Promise<unknown>>;
}

const CASES: readonly AllocationCase[] = [
  {
    name: 'bindings placed, then a template deleted',
    steps: [
      (s) => s.objects.apply(deployment('a', { replicas: 2, requests: { cpu: '1', memory: '1Gi' } })),
      (s) => s.objects.apply(deployment('b', { requests: { cpu: '500m' } })),
      (s) => s.objects.delete(refs.deployment('a')),
    ],
  },
  {
    name: 'a binding preempted and its preemptor placed',
    steps: [
      (s) => s.objects.apply(deployment('low', { priorityClassName: 'low', requests: { cpu: '4' } })),
      (s) => s.objects.apply(deployment('high', { priorityClassName: 'urgent', requests: { cpu: '4' } })),
    ],
  },
  {
    name: 'a binding moved off a cluster that is not ready',
    steps: [
      (s) => s.objects.apply(deployment('a', { requests: { cpu: '2' } })),
      (s) => s.objects.patch(refs.cluster('m1'), { status: { conditions: [{ type: 'Ready', status: 'False' }] } }),
    ],
  },
  {
    name: 'a cluster deleted, its binding moved, the cluster added again',
    steps: [
      (s) => s.objects.apply(deployment('a', { requests: { cpu: '2' } })),
      (s) => s.objects.delete(refs.cluster('m1')),
      (s) => s.objects.apply(cluster('m1', { cpu: '4' })),
      (s) => s.objects.apply(deployment('b', { requests: { cpu: '4' } })),
    ],
  },
  {
    name: 'the per-replica request of a placed template grows and shrinks',
    steps: [
      (s) => s.objects.apply(deployment('a', { replicas: 2, requests: { cpu: '1' } })),
      (s) => s.objects.apply(deployment('a', { replicas: 2, requests: { cpu: '2' } })),
      (s) => s.objects.apply(deployment('a', { replicas: 2, requests: { cpu: '500m', memory: '1Gi' } })),
    ],
  },
  {
    name: 'a template whose request changed without room to reschedule, then deleted',
    steps: [
      (s) => s.objects.apply(deployment('a', { replicas: 2, requests: { cpu: '1' } })),
      (s) => s.objects.apply(deployment('a', { replicas: 3, requests: { cpu: '3' } })),
      (s) => s.objects.delete(refs.deployment('a')),
    ],
  },
];

describe(`ClusterAllocation is what the placed bindings occupy (${SPEC.priority}: room freed and taken; issue rule 5, "what this scheduler already placed")`, () => {
  it.each(CASES)(`${SPEC.priority}: $name`, async ({ steps }) => {
    const system = newSystem();
    await applyAll(system, [
      cluster('m1', { cpu: '4', memory: '8Gi' }),
      cluster('m2', { cpu: '4', memory: '8Gi' }),
      priorityClass('low', 1, { preemptionPolicy: 'Never' }),
      priorityClass('urgent', 10),
      podPriorityPolicy('by-pod-priority', AGGREGATED),
    ]);
    for (const step of steps) {
      await step(system);
      await system.runUntilIdle();
      await expectAllocationsMatchBindings(system);
    }
    expect(system.handlerErrors).toEqual([]);
  });

  it(`${SPEC.priority}: a deleted cluster keeps no allocation once nothing is placed on it`, async () => {
    const system = newSystem();
    await applyAll(system, [cluster('m1', { cpu: '4' }), cluster('m2', { cpu: '4' }), podPriorityPolicy('by-pod-priority', AGGREGATED)]);
    await applyAll(system, [deployment('a', { requests: { cpu: '2' } })]);
    const [first] = Object.keys(await placementOfDeployment(system, 'a'));
    await system.objects.delete(refs.cluster(first!));
    await system.runUntilIdle();
    expect(Object.keys(await placementOfDeployment(system, 'a'))).not.toContain(first);
    const names = (await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation')).map((a) => a.metadata.name);
    expect(names).not.toContain(first);
  });
});
