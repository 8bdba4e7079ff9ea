/**
 * Mirrors Karmada's Aggregated division (pkg/scheduler/core/division_algorithm.go, dynamicDivideReplicas,
 * AggregatedStrategy case, which falls through to the dynamic-weight division): sort clusters by available replicas,
 * largest first, keep the shortest prefix that holds all replicas, and apportion with Webster weighted by available
 * replicas within that prefix. Examples come from Karmada's division_algorithm_test.go and assignment_test.go; equal
 * availability is ordered by name here, where Karmada's unstable sort leaves it to input order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideAggregated } from '../../../../lib/scheduler/divide/aggregated';
import type { Division } from '../../../../lib/scheduler/divide/division';
import { capacities, expectSoundDivided, permutation } from './support';

const clustersOf = (spec: Record<string, number>) =>
  Object.entries(spec).map(([name, availableReplicas]) => ({ name, availableReplicas }));
const targets = (spec: Record<string, number>): Division => ({
  ok: true,
  targets: Object.entries(spec).map(([name, replicas]) => ({ name, replicas })),
});
const sumAvailable = (clusters: readonly { availableReplicas: number }[]) =>
  clusters.reduce((sum, cluster) => sum + cluster.availableReplicas, 0);

interface Case {
  title: string;
  replicas: number;
  available: Record<string, number>;
  want: Division;
}

describe('divideAggregated', () => {
  it.each<Case>([
    { title: 'one big cluster beats two small ones', replicas: 10, available: { a: 6, b: 6, c: 12 }, want: targets({ c: 10 }) },
    { title: 'Karmada 12:6:6', replicas: 12, available: { m2: 12, m1: 6, m3: 6 }, want: targets({ m2: 12 }) },
    { title: 'Karmada 12:8:10', replicas: 12, available: { m1: 12, m2: 8, m3: 10 }, want: targets({ m1: 12 }) },
    // The two roomiest are needed, and the replicas are split 8:10 between them rather than filling one first.
    { title: 'Karmada 6:8:10', replicas: 12, available: { m1: 6, m2: 8, m3: 10 }, want: targets({ m2: 5, m3: 7 }) },
    { title: 'Karmada 6:6:6, equal room goes by name', replicas: 12, available: { m3: 6, m2: 6, m1: 6 }, want: targets({ m1: 6, m2: 6 }) },
    { title: 'prefix filled to the brim', replicas: 9, available: { a: 5, b: 4, c: 1 }, want: targets({ a: 5, b: 4 }) },
    { title: 'every cluster needed', replicas: 10, available: { a: 5, b: 4, c: 1 }, want: targets({ a: 5, b: 4, c: 1 }) },
    { title: 'zero replicas', replicas: 0, available: { a: 5, b: 4 }, want: targets({}) },
    { title: 'zero replicas and no clusters', replicas: 0, available: {}, want: targets({}) },
    {
      title: 'Karmada 3:3:3 is unschedulable',
      replicas: 12,
      available: { m1: 3, m2: 3, m3: 3 },
      want: { ok: false, reason: 'clusters have room for 9 of 12 replicas', shortfall: 3 },
    },
    { title: 'no room anywhere', replicas: 2, available: { a: 0 }, want: { ok: false, reason: 'clusters have room for 0 of 2 replicas', shortfall: 2 } },
  ])('$title', ({ replicas, available, want }) => {
    expect(divideAggregated(replicas, clustersOf(available))).toEqual(want);
  });

  it.each([
    { replicas: 1.5, clusters: clustersOf({ a: 3 }) },
    { replicas: 1, clusters: clustersOf({ a: Number.POSITIVE_INFINITY }) },
    // The malformed entry lies beyond the prefix that would be used; it is still rejected.
    { replicas: 1, clusters: [...clustersOf({ a: 3 }), ...clustersOf({ b: -1 })] },
  ])('rejects malformed input %#', ({ replicas, clusters }) => {
    expect(() => divideAggregated(replicas, clusters)).toThrow(RangeError);
  });

  const scenario = (maxAvailable: number) =>
    capacities(maxAvailable).chain((clusters) =>
      fc.tuple(fc.nat({ max: sumAvailable(clusters) + 3 }), fc.constant(clusters), permutation(clusters)),
    );

  /** The fewest clusters any placement within availability needs: the roomiest ones, counted until they suffice. */
  const fewestNeeded = (replicas: number, clusters: readonly { availableReplicas: number }[]) => {
    const rooms = clusters.map((cluster) => cluster.availableReplicas).sort((a, b) => b - a);
    let room = 0;
    let count = 0;
    for (const next of rooms) {
      if (room >= replicas) break;
      room += next;
      count++;
    }
    return count;
  };

  it('places every replica within availability on the fewest clusters possible', () => {
    fc.assert(
      fc.property(fc.oneof(scenario(12), scenario(1_000_000)), ([replicas, clusters]) => {
        const division = divideAggregated(replicas, clusters);
        expectSoundDivided(division, replicas, clusters);
        const room = sumAvailable(clusters);
        expect(division.ok).toBe(room >= replicas);
        if (division.ok) expect(division.targets).toHaveLength(fewestNeeded(replicas, clusters));
        else expect(division.shortfall).toBe(replicas - room);
      }),
      { numRuns: 500 },
    );
  });

  it('does not depend on the order of the clusters', () => {
    fc.assert(
      fc.property(scenario(10), ([replicas, clusters, shuffled]) => {
        expect(divideAggregated(replicas, shuffled)).toEqual(divideAggregated(replicas, clusters));
      }),
    );
  });
});
