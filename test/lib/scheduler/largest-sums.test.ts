import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LargestSums } from '../../../lib/scheduler/preemption/largest-sums';

/** The sums of the m largest by sorting them all. */
function sortedSums(values: readonly number[]): number[] {
  const descending = [...values].sort((a, b) => b - a);
  const sums = [0];
  for (const value of descending) sums.push(sums[sums.length - 1]! + value);
  return sums;
}

describe('LargestSums', () => {
  it('answers as sorting every value would: the sum of the m largest, and the fewest of the largest reaching a target', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 50 }), { maxLength: 60 }), fc.integer({ min: -5, max: 1_500 }), fc.nat(70), (values, target, m) => {
        const sums = sortedSums(values);
        const largest = new LargestSums(values);
        expect(largest.sumOfLargest(m)).toBe(sums[Math.min(m, values.length)]);
        const fewest = sums.findIndex((sum) => sum >= target);
        expect(largest.fewestReaching(target)).toBe(fewest < 0 ? Number.POSITIVE_INFINITY : fewest);
      }),
      { numRuns: 3000 },
    );
  });
});
