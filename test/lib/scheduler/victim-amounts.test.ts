/**
 * What a cluster's residents that may be victims free, by priority (binding priority and preemption (000),
 * "Preemption scenario": only preemptible ResourceBindings that request resources are victims): the bounds
 * of one-cluster-search.ts read it instead of the residents.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fewestReaching, KEPT_AMOUNTS, victimAmountsOf } from '../../../lib/scheduler/preemption/victim-amounts';
import { SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

describe('victimAmountsOf (binding priority and preemption (000))', () => {
  it('keeps, at each priority, the largest amounts of that priority or lower, of the residents that may be victims only', () => {
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: 100 } })],
      [
        binding('a', { priority: 0, request: { cpu: 1 }, clusters: { m1: 3 } }),
        binding('b', { priority: 0, request: { cpu: 2 }, clusters: { m1: 1 } }),
        binding('c', { priority: 5, request: { cpu: 10 }, preemptible: false, clusters: { m1: 1 } }),
        binding('d', { priority: 5, request: { cpu: 4 }, clusters: { m1: 2 } }),
        binding('e', { priority: 7, kind: 'ClusterResourceBinding', request: { cpu: 50 }, clusters: { m1: 1 } }),
        binding('f', { priority: 9, request: { cpu: 1 }, clusters: { m1: 1 } }),
      ],
    );
    const order = snapshot.priorityOrder();
    const amounts = victimAmountsOf(snapshot.rankedResidents(snapshot.clusters.get('m1')!), order, 'cpu');
    expect([...amounts.priorities]).toEqual([0, 5, 9]);
    // In millicores: a frees 3 × 1 cpu, b 2, d 2 × 4; c is not preemptible and e is a ClusterResourceBinding.
    expect([...amounts.largest]).toEqual([3000, 2000, 0, 0, 8000, 3000, 2000, 0, 8000, 3000, 2000, 1000]);
    expect(amounts.exact).toBe(true);
  });

  it('fewestReaching never passes the fewest amounts that sum to the gap, and meets it within the amounts kept', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 12 }), fc.integer({ min: 0, max: 120 }), (amounts, gap) => {
        const sorted = [...amounts].sort((a, b) => b - a);
        const kept = Float64Array.from({ length: KEPT_AMOUNTS }, (_, m) => sorted[m] ?? 0);
        let sum = 0;
        let fewest = gap <= 0 ? 0 : Number.POSITIVE_INFINITY;
        for (let m = 0; m < sorted.length && fewest === Number.POSITIVE_INFINITY; m++) if ((sum += sorted[m]!) >= gap) fewest = m + 1;
        const bound = fewestReaching(kept, 0, gap);
        expect(bound).toBeLessThanOrEqual(fewest);
        if (fewest <= KEPT_AMOUNTS) expect(bound).toBe(fewest);
      }),
      { numRuns: 2_000 },
    );
  });
});
