/**
 * The dynamic divisions of a placed binding in Karmada's Steady mode (pkg/scheduler/core/assignment.go,
 * assignByDynamicStrategy; division_algorithm.go, dynamicScaleUp and dynamicScaleDown). Karmada's own tables are
 * ported through scheduleBinding in ../karmada-assignment.test.ts; here, what every division promises.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ClusterCapacity, TargetCluster } from '../../../../lib/scheduler/divide/division';
import { assignDynamically, type DynamicPreference } from '../../../../lib/scheduler/divide/dynamic-assignment';
import type { TieOrder } from '../../../../lib/scheduler/divide/tie-order';
import { capacities, expectSoundDivided } from './support';

const PREFERENCES: readonly DynamicPreference[] = ['available-replicas', 'aggregated'];

/** Capacities (room beside what is kept) and what is kept, on some of the same clusters. */
const placed = capacities(6).chain((clusters) =>
  fc.tuple(
    fc.constant(clusters),
    fc.subarray(clusters.map((cluster) => cluster.name)).chain((names) =>
      fc.tuple(...names.map((name) => fc.integer({ min: 1, max: 5 }).map((replicas): TargetCluster => ({ name, replicas })))),
    ),
    fc.constantFrom<TieOrder>('name-ascending', 'name-descending'),
  ),
);

const sum = (targets: readonly { replicas: number }[]) => targets.reduce((total, target) => total + target.replicas, 0);
const byName = (targets: readonly TargetCluster[]) => new Map(targets.map((target) => [target.name, target.replicas]));

describe.each(PREFERENCES)('assignDynamically, %s', (preference) => {
  it('scaling up keeps every kept replica where it is and adds at most the room of each cluster; it fails only when the room in total is short', () => {
    fc.assert(
      fc.property(placed, fc.integer({ min: 1, max: 20 }), ([clusters, kept, ties], added) => {
        const replicas = sum(kept) + added;
        const division = assignDynamically(preference, replicas, clusters, kept, ties);
        const room = sum(clusters.map((cluster) => ({ replicas: cluster.availableReplicas })));
        expect(division.ok).toBe(room >= added);
        if (!division.ok) return;
        const before = byName(kept);
        const capacity = new Map(clusters.map((cluster) => [cluster.name, cluster.availableReplicas]));
        expect(sum(division.targets)).toBe(replicas);
        for (const target of division.targets) {
          expect(target.replicas - (before.get(target.name) ?? 0)).toBeLessThanOrEqual(capacity.get(target.name) ?? 0);
        }
        const result = byName(division.targets);
        for (const [name, replicas] of before) expect(result.get(name) ?? 0).toBeGreaterThanOrEqual(replicas);
        // Sorted by name, no empty entries.
        expectSoundDivided(division, replicas, division.targets.map(({ name, replicas: count }): ClusterCapacity => ({ name, availableReplicas: count })));
      }),
      { numRuns: 1_000 },
    );
  });

  it('scaling down only removes replicas, from the clusters kept, and needs no room', () => {
    fc.assert(
      fc.property(placed, fc.nat({ max: 30 }), ([clusters, kept, ties], fewer) => {
        fc.pre(sum(kept) > 0);
        const replicas = Math.max(0, sum(kept) - 1 - (fewer % sum(kept)));
        const full = clusters.map((cluster) => ({ ...cluster, availableReplicas: 0 }));
        const division = assignDynamically(preference, replicas, full, kept, ties);
        expect(division.ok).toBe(true);
        if (!division.ok) return;
        expect(sum(division.targets)).toBe(replicas);
        const before = byName(kept);
        for (const target of division.targets) expect(target.replicas).toBeLessThanOrEqual(before.get(target.name) ?? 0);
      }),
      { numRuns: 1_000 },
    );
  });

  it('as many replicas as kept: the placement as it is', () => {
    fc.assert(
      fc.property(placed, ([clusters, kept, ties]) => {
        const division = assignDynamically(preference, sum(kept), clusters, kept, ties);
        expect(division).toEqual({ ok: true, targets: [...kept].sort((a, b) => (a.name < b.name ? -1 : 1)) });
      }),
    );
  });
});

describe('assignDynamically, aggregated', () => {
  it('adds to the clusters in use while their room suffices, new clusters only beyond (assignment.go, resortAvailableClusters)', () => {
    fc.assert(
      fc.property(placed, fc.integer({ min: 1, max: 20 }), ([clusters, kept, ties], added) => {
        const inUse = new Set(kept.map((target) => target.name));
        const roomInUse = sum(clusters.filter((cluster) => inUse.has(cluster.name)).map((cluster) => ({ replicas: cluster.availableReplicas })));
        fc.pre(kept.length > 0 && roomInUse >= added);
        const division = assignDynamically('aggregated', sum(kept) + added, clusters, kept, ties);
        expect(division.ok && division.targets.every((target) => inUse.has(target.name))).toBe(true);
      }),
      { numRuns: 1_000 },
    );
  });

  it('12 placed 4:8 and scaled to 24 with room 6:6:20 stays on the clusters in use (Test_dynamicScale, "aggregated 6:6:20")', () => {
    const room = [
      { name: 'member1', availableReplicas: 6 },
      { name: 'member2', availableReplicas: 6 },
      { name: 'member3', availableReplicas: 20 },
    ];
    const kept = [
      { name: 'member1', replicas: 4 },
      { name: 'member2', replicas: 8 },
    ];
    expect(assignDynamically('aggregated', 24, room, kept, 'name-ascending')).toEqual({
      ok: true,
      targets: [
        { name: 'member1', replicas: 10 },
        { name: 'member2', replicas: 14 },
      ],
    });
  });

  it('rejects kept replicas that are not whole, or a cluster kept twice', () => {
    expect(() => assignDynamically('aggregated', 3, [], [{ name: 'a', replicas: 1.5 }], 'name-ascending')).toThrow(RangeError);
    expect(() => assignDynamically('aggregated', 3, [], [{ name: 'a', replicas: 1 }, { name: 'a', replicas: 1 }], 'name-ascending')).toThrow(RangeError);
  });
});
