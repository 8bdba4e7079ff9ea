/**
 * Mirrors Karmada's Duplicated replica scheduling (pkg/scheduler/core/assignment.go, assignByDuplicatedStrategy):
 * every candidate cluster receives the full replica count. Unlike Karmada, which ignores capacity for Duplicated,
 * outrank fails when a cluster has no room for all of them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { divideDuplicated } from '../../../../lib/scheduler/divide/duplicated';
import { capacities, permutation } from './support';

const c = (name: string, availableReplicas: number) => ({ name, availableReplicas });

describe('divideDuplicated', () => {
  it.each([
    {
      title: 'every cluster runs all replicas, sorted by name',
      replicas: 3,
      clusters: [c('b', 3), c('a', 5)],
      want: { ok: true, targets: [{ name: 'a', replicas: 3 }, { name: 'b', replicas: 3 }] },
    },
    {
      title: 'zero replicas (a non-workload) lists every cluster with 0, even a full one',
      replicas: 0,
      clusters: [c('b', 4), c('a', 0)],
      want: { ok: true, targets: [{ name: 'a', replicas: 0 }, { name: 'b', replicas: 0 }] },
    },
    {
      title: 'clusters short of room fail, shortfall adds up what each lacks',
      replicas: 3,
      clusters: [c('c', 5), c('b', 0), c('a', 2)],
      want: {
        ok: false,
        reason: 'clusters without room for all 3 replicas: a (2 available), b (0 available)',
        shortfall: 4,
      },
    },
    {
      title: 'no clusters fail with the replicas as shortfall',
      replicas: 3,
      clusters: [],
      want: { ok: false, reason: 'no candidate clusters', shortfall: 3 },
    },
    {
      title: 'no clusters fail even for zero replicas, counting one unit short',
      replicas: 0,
      clusters: [],
      want: { ok: false, reason: 'no candidate clusters', shortfall: 1 },
    },
  ])('$title', ({ replicas, clusters, want }) => {
    expect(divideDuplicated(replicas, clusters)).toEqual(want);
  });

  it.each([
    { replicas: -1, clusters: [c('a', 1)] },
    { replicas: 1, clusters: [c('a', -1)] },
    { replicas: 1, clusters: [c('a', 1), c('a', 2)] },
  ])('rejects malformed input %#', ({ replicas, clusters }) => {
    expect(() => divideDuplicated(replicas, clusters)).toThrow(RangeError);
  });

  it('places everything everywhere exactly when every cluster has room, else reports the total deficit', () => {
    fc.assert(
      fc.property(fc.nat({ max: 20 }), capacities(20), (replicas, clusters) => {
        const division = divideDuplicated(replicas, clusters);
        const deficit = clusters.reduce((sum, cl) => sum + Math.max(0, replicas - cl.availableReplicas), 0);
        if (clusters.length > 0 && deficit === 0) {
          expect(division).toEqual({
            ok: true,
            targets: clusters.map((cl) => ({ name: cl.name, replicas })).sort((a, b) => (a.name < b.name ? -1 : 1)),
          });
        } else {
          const shortfall = clusters.length === 0 ? Math.max(replicas, 1) : deficit;
          expect(division).toMatchObject({ ok: false, shortfall });
        }
      }),
    );
  });

  it('does not depend on the order of the clusters', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 20 }),
        capacities(20).chain((clusters) => fc.tuple(fc.constant(clusters), permutation(clusters))),
        (replicas, [clusters, shuffled]) => {
          expect(divideDuplicated(replicas, shuffled)).toEqual(divideDuplicated(replicas, clusters));
        },
      ),
    );
  });
});
