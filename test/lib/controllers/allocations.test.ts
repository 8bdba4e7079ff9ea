import { describe, expect, it } from 'vitest';
import { allocationAdds, type ClusterAllocation } from '../../../lib/controllers/allocations';
import type { MemorySystem } from '../../../lib/runtime/memory-system';
import {
  AGGREGATED,
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

describe(`the allocation adds of a commit (${SPEC.priority}: never over-commit, without a read first)`, () => {
  const capacities: Record<string, Record<string, number>> = { m1: { cpu: 4000, pods: 110 } };
  it.each([
    {
      name: 'a placement: each resource it grows limited to the capacity',
      deltas: { m1: { cpu: 2000, pods: 1 } },
      limited: true,
      adds: [{ name: 'm1', amounts: { cpu: 2000, pods: 1 }, limits: { cpu: 4000, pods: 110 } }],
    },
    {
      name: 'a preemption on one cluster: what it frees is not limited, nothing that does not move is written',
      deltas: { m1: { cpu: -1000, memory: 0, pods: 1 } },
      limited: true,
      adds: [{ name: 'm1', amounts: { cpu: -1000, pods: 1 }, limits: { pods: 110 } }],
    },
    {
      name: 'a cluster the snapshot does not know: no room at all',
      deltas: { gone: { cpu: 1000 } },
      limited: true,
      adds: [{ name: 'gone', amounts: { cpu: 1000 }, limits: { cpu: 0 } }],
    },
    {
      name: 'a request changed where the binding stays: not limited, clusters in name order, unmoved ones left out',
      deltas: { m2: { cpu: 500 }, m1: { cpu: 500 }, m3: { cpu: 0 } },
      limited: false,
      adds: [
        { name: 'm1', amounts: { cpu: 500 }, limits: {} },
        { name: 'm2', amounts: { cpu: 500 }, limits: {} },
      ],
    },
  ])('$name', ({ deltas, limited, adds }) => {
    const now = '2026-11-27T10:00:00Z';
    const writes = allocationAdds(new Map(Object.entries(deltas)), { now, ...(limited ? { capacityOf: (name: string) => capacities[name] } : {}) });
    expect(writes.map((write) => ({ name: write.object.metadata.name, amounts: write.amounts, limits: write.limits }))).toEqual(adds);
    // A record the adds create says when (kubectl's AGE); one that exists keeps its own.
    expect(writes.every((write) => (write.object.metadata as { creationTimestamp?: string }).creationTimestamp === now)).toBe(true);
    expect(writes.every((write) => write.object.kind === 'ClusterAllocation' && write.field === 'placed')).toBe(true);
  });
});
