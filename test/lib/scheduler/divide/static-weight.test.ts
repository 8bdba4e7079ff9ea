/**
 * Mirrors Karmada's StaticWeight division (pkg/scheduler/core/assignment.go, assignByStaticWeightStrategy;
 * getStaticWeightInfoList in pkg/scheduler/core/division_algorithm.go): clusters without a positive weight are
 * ignored, all candidates weigh 1 when none has a weight, and replicas are apportioned with Webster. Where Karmada
 * would overfill a cluster, outrank fails with the excess as shortfall instead of redistributing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Division } from '../../../../lib/scheduler/divide/division';
import { divideByStaticWeight } from '../../../../lib/scheduler/divide/static-weight';
import { websterApportion } from '../../../../lib/scheduler/divide/webster';
import { clusterName, expectSoundDivided, permutation } from './support';

interface Weighted {
  name: string;
  availableReplicas: number;
  weight: number;
}

const c = (name: string, availableReplicas: number, weight: number): Weighted => ({ name, availableReplicas, weight });
const weightsOf = (clusters: readonly Weighted[]) => (name: string) =>
  clusters.find((cluster) => cluster.name === name)?.weight ?? 0;
const divide = (replicas: number, clusters: readonly Weighted[]) =>
  divideByStaticWeight(replicas, clusters, weightsOf(clusters));
const targets = (spec: Record<string, number>): Division => ({
  ok: true,
  targets: Object.entries(spec).map(([name, replicas]) => ({ name, replicas })),
});

const roomy = 1000;

describe('divideByStaticWeight', () => {
  it.each([
    { title: '3:2:1 with 12 replicas', replicas: 12, clusters: [c('m1', roomy, 3), c('m2', roomy, 2), c('m3', roomy, 1)], want: targets({ m1: 6, m2: 4, m3: 2 }) },
    { title: '3:2:1 with 13 replicas', replicas: 13, clusters: [c('m3', roomy, 1), c('m2', roomy, 2), c('m1', roomy, 3)], want: targets({ m1: 7, m2: 4, m3: 2 }) },
    { title: '1:2 with 3 replicas', replicas: 3, clusters: [c('a', roomy, 1), c('b', roomy, 2)], want: targets({ a: 1, b: 2 }) },
    { title: '1:2 with 4 replicas', replicas: 4, clusters: [c('a', roomy, 1), c('b', roomy, 2)], want: targets({ a: 1, b: 3 }) },
    { title: '1:2 with 5 replicas', replicas: 5, clusters: [c('a', roomy, 1), c('b', roomy, 2)], want: targets({ a: 2, b: 3 }) },
    { title: 'a cluster without weight is ignored', replicas: 2, clusters: [c('a', roomy, 1), c('b', roomy, 0)], want: targets({ a: 2 }) },
    { title: 'a negative weight counts as none', replicas: 2, clusters: [c('a', roomy, -5), c('b', roomy, 1)], want: targets({ b: 2 }) },
    { title: 'no weights at all: every candidate weighs 1', replicas: 12, clusters: [c('m1', roomy, 0), c('m2', roomy, 0), c('m3', roomy, 0)], want: targets({ m1: 4, m2: 4, m3: 4 }) },
    { title: 'default weights break ties by name', replicas: 4, clusters: [c('c', roomy, 0), c('b', roomy, 0), c('a', roomy, 0)], want: targets({ a: 2, b: 1, c: 1 }) },
    { title: 'shares that fit exactly', replicas: 6, clusters: [c('a', 2, 1), c('b', 4, 2)], want: targets({ a: 2, b: 4 }) },
    { title: 'zero replicas', replicas: 0, clusters: [c('a', 0, 1), c('b', 3, 1)], want: targets({}) },
    { title: 'zero replicas and no clusters', replicas: 0, clusters: [], want: targets({}) },
    {
      title: 'a full cluster fails instead of shifting replicas elsewhere',
      replicas: 6,
      clusters: [c('a', 2, 1), c('b', 10, 1)],
      want: { ok: false, reason: 'clusters cannot hold their static-weight share: a (weighted share 3, 2 available)', shortfall: 1 },
    },
    {
      title: 'every overfull cluster adds to the shortfall',
      replicas: 9,
      clusters: [c('c', 9, 1), c('b', 0, 1), c('a', 1, 1)],
      want: {
        ok: false,
        reason: 'clusters cannot hold their static-weight share: a (weighted share 3, 1 available), b (weighted share 3, 0 available)',
        shortfall: 5,
      },
    },
    { title: 'no clusters', replicas: 3, clusters: [], want: { ok: false, reason: 'no candidate clusters', shortfall: 3 } },
  ])('$title', ({ replicas, clusters, want }) => {
    expect(divide(replicas, clusters)).toEqual(want);
  });

  it.each([
    { replicas: 2.5, clusters: [c('a', 5, 1)] },
    { replicas: 2, clusters: [c('a', 5, 1.5)] },
    { replicas: 2, clusters: [c('a', 5, Number.NaN), c('b', 5, 0)] },
    { replicas: 2, clusters: [c('a', 5, 1), c('a', 5, 2)] },
  ])('rejects malformed input %#', ({ replicas, clusters }) => {
    expect(() => divide(replicas, clusters)).toThrow(RangeError);
  });

  const weightedClusters = fc.uniqueArray(
    fc.record({ name: clusterName, availableReplicas: fc.nat({ max: 30 }), weight: fc.integer({ min: -1, max: 6 }) }),
    { selector: (cluster) => cluster.name, maxLength: 8 },
  );

  it('is the Webster apportionment of the effective weights when it fits, else fails by the excess', () => {
    fc.assert(
      fc.property(fc.nat({ max: 60 }), weightedClusters, (replicas, clusters) => {
        const division = divide(replicas, clusters);
        expectSoundDivided(division, replicas, clusters);

        const weighted = clusters.filter((cluster) => cluster.weight > 0);
        const effective = weighted.length > 0 ? weighted : clusters.map((cluster) => ({ ...cluster, weight: 1 }));
        const shares = websterApportion(replicas, effective);
        const excess = shares.reduce((sum, share) => {
          const available = clusters.find((cluster) => cluster.name === share.name)?.availableReplicas ?? 0;
          return sum + Math.max(0, share.replicas - available);
        }, 0);
        if (replicas > 0 && clusters.length === 0) expect(division).toMatchObject({ ok: false, shortfall: replicas });
        else if (excess > 0) expect(division).toMatchObject({ ok: false, shortfall: excess });
        else expect(division).toEqual({ ok: true, targets: shares });
      }),
    );
  });

  it('does not depend on the order of the clusters', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 60 }),
        weightedClusters.chain((clusters) => fc.tuple(fc.constant(clusters), permutation(clusters))),
        (replicas, [clusters, shuffled]) => {
          expect(divide(replicas, shuffled)).toEqual(divide(replicas, clusters));
        },
      ),
    );
  });
});
