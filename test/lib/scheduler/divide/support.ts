/** Arbitraries and invariant checks shared by the replica-division tests. */
import fc from 'fast-check';
import { expect } from 'vitest';
import type { ClusterCapacity, Division } from '../../../../lib/scheduler/divide/division';

/** Short names over few letters, so that name order and name ties in other keys come up often. */
export const clusterName = fc.stringMatching(/^[a-d][a-d0-9-]{0,3}$/);

export function capacities(maxAvailable: number, maxLength = 8): fc.Arbitrary<ClusterCapacity[]> {
  return fc.uniqueArray(
    fc.record({ name: clusterName, availableReplicas: fc.nat({ max: maxAvailable }) }),
    { selector: (cluster) => cluster.name, maxLength },
  );
}

/** The same elements in an arbitrary order. */
export function permutation<T>(items: readonly T[]): fc.Arbitrary<T[]> {
  return fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });
}

/** What every Divided result promises: exact sum, within availability, sorted by name, no empty entries. */
export function expectSoundDivided(division: Division, replicas: number, clusters: readonly ClusterCapacity[]): void {
  if (!division.ok) {
    expect(division.shortfall).toBeGreaterThanOrEqual(1);
    return;
  }
  const available = new Map(clusters.map((cluster) => [cluster.name, cluster.availableReplicas]));
  const names = division.targets.map((target) => target.name);
  expect(division.targets.reduce((sum, target) => sum + target.replicas, 0)).toBe(replicas);
  expect(names).toEqual([...names].sort());
  for (const target of division.targets) {
    expect(target.replicas).toBeGreaterThan(0);
    expect(target.replicas).toBeLessThanOrEqual(available.get(target.name) ?? -1);
  }
}
