/**
 * The one-cluster search reads a cluster's residents in the preemptor's order until the gaps may
 * close (binding priority and preemption (000), "Preemption order"): taken smallest first, the numbers
 * must come out as sorting them would put them, however many are taken.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SmallestFirst } from '../../../lib/scheduler/preemption/smallest-first';

describe(`SmallestFirst (binding priority and preemption (000), "Preemption order")`, () => {
  it('gives the numbers in ascending order, the array longer than the numbers included', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 2 ** 40 }), { maxLength: 200 }), fc.nat(5), fc.nat(200), (numbers, spare, taken) => {
        const values = Float64Array.from([...numbers, ...Array.from({ length: spare }, () => -1)]);
        const heap = new SmallestFirst(values, numbers.length);
        const out: number[] = [];
        while (heap.remaining > 0 && out.length < taken) out.push(heap.take());
        expect(out).toEqual([...numbers].sort((a, b) => a - b).slice(0, taken));
        expect(heap.remaining).toBe(numbers.length - out.length);
      }),
      { numRuns: 500 },
    );
  });
});
