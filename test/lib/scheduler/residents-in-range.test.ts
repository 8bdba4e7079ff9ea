/**
 * The single-victim walk reads a priority's residents on the clusters from their lists by rank
 * (binding priority and preemption (000), "Preemption order"): grouped by rank, each rank's clusters
 * and replicas must be exactly those the lists hold, however the ranks' hashes collide.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ResidentsByRank, ResidentsInRange } from '../../../lib/scheduler/preemption/residents-in-range';
import type { RankedResidents } from '../../../lib/scheduler/snapshot';

const SPEC = 'binding priority and preemption (000)';

/** A cluster's residents: distinct ranks below 200, ascending, each with its replicas. */
const residentList = fc
  .uniqueArray(fc.record({ rank: fc.integer({ min: 0, max: 199 }), replicas: fc.integer({ min: 1, max: 4 }) }), { selector: (entry) => entry.rank, maxLength: 120 })
  .map((entries): RankedResidents => {
    const sorted = [...entries].sort((a, b) => a.rank - b.rank);
    return { ranks: Int32Array.from(sorted, (entry) => entry.rank), replicas: Float64Array.from(sorted, (entry) => entry.replicas) };
  });

describe(`ResidentsByRank (${SPEC}, "Preemption order")`, () => {
  it("gives each rank of the range the clusters and replicas the lists hold for it, and none to ranks they do not hold", () => {
    fc.assert(
      fc.property(fc.array(residentList, { minLength: 1, maxLength: 5 }), fc.integer({ min: 0, max: 199 }), fc.integer({ min: 1, max: 200 }), (lists, first, length) => {
        const end = Math.min(200, first + length);
        const n = end - first;
        // Each list stands for a cluster at another index among the walk's clusters.
        const clusterAt = lists.map((_, list) => 10 + 3 * list);
        const residents = new ResidentsInRange(lists);
        residents.within(first, end);
        const grouped = new ResidentsByRank(residents, first, residents.count(), clusterAt);
        const clusterOf = new Int32Array(lists.length);
        const replicasOf = new Float64Array(lists.length);
        for (let offset = 0; offset < n; offset++) {
          const expected = lists.flatMap(({ ranks, replicas }, list) => {
            const index = ranks.indexOf(first + offset);
            return index < 0 ? [] : [[clusterAt[list]!, replicas[index]!]];
          });
          const count = grouped.placementInto(first + offset, clusterOf, replicasOf);
          const found = Array.from({ length: count }, (_, entry) => [clusterOf[entry]!, replicasOf[entry]!]);
          expect(found).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("lists a rank held on several clusters once per cluster, in the lists' order, and a rank held by none as on none", () => {
    const lists: RankedResidents[] = [
      { ranks: Int32Array.of(3, 5, 9), replicas: Float64Array.of(1, 2, 3) },
      { ranks: Int32Array.of(5), replicas: Float64Array.of(4) },
      { ranks: Int32Array.of(2, 5, 9), replicas: Float64Array.of(5, 6, 7) },
    ];
    const residents = new ResidentsInRange(lists);
    residents.within(4, 10);
    const grouped = new ResidentsByRank(residents, 4, residents.count(), [7, 8, 9]);
    const clusterOf = new Int32Array(3);
    const replicasOf = new Float64Array(3);
    expect(grouped.placementInto(5, clusterOf, replicasOf)).toBe(3);
    expect([...clusterOf]).toEqual([7, 8, 9]);
    expect([...replicasOf]).toEqual([2, 4, 6]);
    expect(grouped.placementInto(9, clusterOf, replicasOf)).toBe(2);
    expect([...clusterOf.subarray(0, 2)]).toEqual([7, 9]);
    expect([...replicasOf.subarray(0, 2)]).toEqual([3, 7]);
    expect(grouped.placementInto(6, clusterOf, replicasOf)).toBe(0);
  });
});
