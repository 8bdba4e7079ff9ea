/**
 * Mirrors Karmada's DynamicWeight "AvailableReplicas" division (pkg/scheduler/core/division_algorithm.go,
 * dynamicDivideReplicas → helper.SpreadReplicasByTargetClusters → Dispenser.AllocateByWeight): unschedulable when the
 * clusters' available replicas add up to less than the replicas, otherwise Webster apportionment weighted by
 * available replicas. Examples come from Karmada's division_algorithm_test.go and assignment_test.go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideByAvailableReplicas } from '../../../../lib/scheduler/divide/dynamic-weight';
import { websterApportion } from '../../../../lib/scheduler/divide/webster';
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
  replicas: number;
  available: Record<string, number>;
  want: Division;
}

describe('divideByAvailableReplicas', () => {
  it.each<Case>([
    { replicas: 12, available: { m1: 18, m2: 12, m3: 6 }, want: targets({ m1: 6, m2: 4, m3: 2 }) },
    { replicas: 12, available: { m1: 20, m2: 12, m3: 6 }, want: targets({ m1: 6, m2: 4, m3: 2 }) },
    { replicas: 12, available: { m1: 6, m2: 12, m3: 6 }, want: targets({ m1: 3, m2: 6, m3: 3 }) },
    { replicas: 12, available: { m1: 6, m2: 8, m3: 10 }, want: targets({ m1: 3, m2: 4, m3: 5 }) },
    { replicas: 12, available: { m1: 8, m2: 8, m3: 10 }, want: targets({ m1: 4, m2: 4, m3: 4 }) },
    { replicas: 3, available: { a: 10, b: 20 }, want: targets({ a: 1, b: 2 }) },
    { replicas: 4, available: { a: 10, b: 20 }, want: targets({ a: 1, b: 3 }) },
    { replicas: 5, available: { a: 10, b: 20 }, want: targets({ a: 2, b: 3 }) },
    // Filling every cluster to the brim: Webster never hands out a seat beyond a cluster's weight.
    { replicas: 5, available: { b: 3, a: 2 }, want: targets({ a: 2, b: 3 }) },
    { replicas: 3, available: { a: 0, b: 5 }, want: targets({ b: 3 }) },
    { replicas: 0, available: { a: 4, b: 5 }, want: targets({}) },
    { replicas: 0, available: {}, want: targets({}) },
    {
      replicas: 12,
      available: { m1: 3, m2: 3, m3: 3 },
      want: { ok: false, reason: 'clusters have room for 9 of 12 replicas', shortfall: 3 },
    },
    { replicas: 1, available: {}, want: { ok: false, reason: 'clusters have room for 0 of 1 replicas', shortfall: 1 } },
  ])('$replicas replicas over $available', ({ replicas, available, want }) => {
    expect(divideByAvailableReplicas(replicas, clustersOf(available))).toEqual(want);
  });

  it.each([
    { replicas: -2, clusters: clustersOf({ a: 1 }) },
    { replicas: 1, clusters: clustersOf({ a: 0.5 }) },
    { replicas: 1, clusters: [...clustersOf({ a: 1 }), ...clustersOf({ a: 1 })] },
  ])('rejects malformed input %#', ({ replicas, clusters }) => {
    expect(() => divideByAvailableReplicas(replicas, clusters)).toThrow(RangeError);
  });

  /** Replica counts around the clusters' total room, where capacity limits bite hardest. */
  const scenario = (maxAvailable: number) =>
    capacities(maxAvailable).chain((clusters) =>
      fc.tuple(fc.nat({ max: sumAvailable(clusters) + 3 }), fc.constant(clusters), permutation(clusters)),
    );

  it('places every replica within availability exactly when the total room suffices', () => {
    fc.assert(
      fc.property(fc.oneof(scenario(12), scenario(1_000_000)), ([replicas, clusters]) => {
        const division = divideByAvailableReplicas(replicas, clusters);
        expectSoundDivided(division, replicas, clusters);
        const room = sumAvailable(clusters);
        expect(division.ok).toBe(room >= replicas);
        if (!division.ok) expect(division.shortfall).toBe(replicas - room);
      }),
      { numRuns: 500 },
    );
  });

  it('is Webster weighted by available replicas', () => {
    fc.assert(
      fc.property(scenario(40), ([replicas, clusters]) => {
        const division = divideByAvailableReplicas(replicas, clusters);
        fc.pre(division.ok);
        const weights = clusters.map((cluster) => ({ name: cluster.name, weight: cluster.availableReplicas }));
        expect(division).toEqual({ ok: true, targets: websterApportion(replicas, weights) });
      }),
    );
  });

  it('does not depend on the order of the clusters', () => {
    fc.assert(
      fc.property(scenario(40), ([replicas, clusters, shuffled]) => {
        expect(divideByAvailableReplicas(replicas, shuffled)).toEqual(divideByAvailableReplicas(replicas, clusters));
      }),
    );
  });
});
