import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PendingResidentChanges } from '../../../lib/scheduler/pending-resident-changes';
import type { RankedResidents } from '../../../lib/scheduler/snapshot';

const residents = (entries: ReadonlyArray<readonly [rank: number, replicas: number]>): RankedResidents => ({
  ranks: Int32Array.from(entries, ([rank]) => rank),
  replicas: Float64Array.from(entries, ([, replicas]) => replicas),
});
const entriesOf = ({ ranks, replicas }: RankedResidents) => [...ranks].map((rank, at) => [rank, replicas[at]!] as const);

type Change = readonly ['admitted', number, number] | readonly ['released', number];

describe('PendingResidentChanges', () => {
  const cases: ReadonlyArray<{ name: string; before: Array<[number, number]>; changes: Change[]; after: Array<[number, number]> }> = [
    { name: 'a resident admitted between two others', before: [[2, 1], [9, 3]], changes: [['admitted', 5, 2]], after: [[2, 1], [5, 2], [9, 3]] },
    { name: 'admitted before the first and after the last', before: [[4, 1]], changes: [['admitted', 7, 1], ['admitted', 0, 2]], after: [[0, 2], [4, 1], [7, 1]] },
    { name: 'a resident released', before: [[1, 1], [3, 2], [8, 1]], changes: [['released', 3]], after: [[1, 1], [8, 1]] },
    { name: 'its replicas changed', before: [[1, 1], [3, 2]], changes: [['admitted', 3, 5]], after: [[1, 1], [3, 5]] },
    { name: 'the last change of a rank stands', before: [[3, 2]], changes: [['released', 3], ['admitted', 3, 4], ['admitted', 6, 1], ['released', 6]], after: [[3, 4]] },
    { name: 'released when it was never resident', before: [[1, 1]], changes: [['released', 2]], after: [[1, 1]] },
    { name: 'every resident released', before: [[1, 1], [2, 2]], changes: [['released', 2], ['released', 1]], after: [] },
    { name: 'onto no residents', before: [], changes: [['admitted', 3, 1], ['admitted', 1, 1]], after: [[1, 1], [3, 1]] },
  ];

  it.each(cases)('merges the changes into the residents by rank: $name', ({ before, changes, after }) => {
    const pending = new PendingResidentChanges();
    for (const change of changes) {
      if (change[0] === 'admitted') pending.admitted(change[1], change[2]);
      else pending.released(change[1]);
    }
    expect(entriesOf(pending.appliedTo(residents(before)))).toEqual(after);
  });

  it('hands back the same residents, copying nothing, when the changes cancel out (an eviction undone)', () => {
    const held = residents([[1, 1], [4, 2]]);
    const pending = new PendingResidentChanges();
    pending.released(4);
    pending.admitted(4, 2);
    pending.admitted(6, 1);
    pending.released(6);
    expect(pending.appliedTo(held)).toBe(held);
  });

  it('forgets the changes once applied, and when cleared', () => {
    const pending = new PendingResidentChanges();
    pending.admitted(2, 1);
    expect(entriesOf(pending.appliedTo(residents([])))).toEqual([[2, 1]]);
    const held = residents([[5, 1]]);
    expect(pending.appliedTo(held)).toBe(held);
    pending.released(5);
    pending.clear();
    expect(pending.appliedTo(held)).toBe(held);
  });

  it('reads as the residents changed one at a time, in rank order', () => {
    const change = fc.oneof(
      fc.tuple(fc.constant('admitted' as const), fc.integer({ min: 0, max: 30 }), fc.integer({ min: 1, max: 4 })),
      fc.tuple(fc.constant('released' as const), fc.integer({ min: 0, max: 30 })),
    );
    fc.assert(
      fc.property(fc.dictionary(fc.integer({ min: 0, max: 30 }).map(String), fc.integer({ min: 1, max: 4 })), fc.array(change, { maxLength: 20 }), (start, changes) => {
        const model = new Map(Object.entries(start).map(([rank, replicas]) => [Number(rank), replicas]));
        const before = residents([...model].sort((a, b) => a[0] - b[0]));
        const pending = new PendingResidentChanges();
        for (const c of changes) {
          if (c[0] === 'admitted') {
            pending.admitted(c[1], c[2]);
            model.set(c[1], c[2]);
          } else {
            pending.released(c[1]);
            model.delete(c[1]);
          }
        }
        expect(entriesOf(pending.appliedTo(before))).toEqual([...model].sort((a, b) => a[0] - b[0]));
      }),
      { numRuns: 500 },
    );
  });
});
