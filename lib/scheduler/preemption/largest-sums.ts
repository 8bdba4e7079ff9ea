/** How many of the largest values are kept in order in one pass; a target that needs more sorts them all. */
const KEPT = 16;

/**
 * The sums of the m largest of some values, for "how many of the largest, at least, reach a target":
 * the bounds of the victim search ask it of every candidate's amount, and the answer is nearly always
 * a few of them, so the few largest are found in one pass and the whole list is sorted only when a
 * target needs more of them.
 */
export class LargestSums {
  private readonly values: ArrayLike<number>;
  /** firstSums[m]: the sum of the m largest, for m up to KEPT (or all of them, when fewer). */
  private readonly firstSums: Float64Array;
  private readonly total: number;
  private allSums: Float64Array | undefined;

  constructor(values: ArrayLike<number>) {
    this.values = values;
    const largest = new Float64Array(Math.min(KEPT, values.length));
    let kept = 0;
    let total = 0;
    for (let i = 0; i < values.length; i++) {
      const value = values[i]!;
      total += value;
      if (kept === largest.length && value <= largest[kept - 1]!) continue;
      let at = kept < largest.length ? kept++ : kept - 1;
      while (at > 0 && largest[at - 1]! < value) {
        largest[at] = largest[at - 1]!;
        at--;
      }
      largest[at] = value;
    }
    this.total = total;
    this.firstSums = new Float64Array(kept + 1);
    for (let m = 0; m < kept; m++) this.firstSums[m + 1] = this.firstSums[m]! + largest[m]!;
  }

  /** How many values there are. */
  get length(): number {
    return this.values.length;
  }

  /** The sum of the m largest values (of all of them when m passes their number). */
  sumOfLargest(m: number): number {
    if (m < this.firstSums.length) return this.firstSums[m]!;
    const sums = this.sorted();
    return sums[Math.min(m, sums.length - 1)]!;
  }

  /** The fewest of the largest values whose sum reaches `target`: 0 for a target of 0 or less, +∞ when all of them fall short. */
  fewestReaching(target: number): number {
    if (target <= 0) return 0;
    if (this.total < target) return Number.POSITIVE_INFINITY;
    const sums = target <= this.firstSums[this.firstSums.length - 1]! ? this.firstSums : this.sorted();
    let low = 1;
    let high = sums.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sums[mid]! >= target) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  private sorted(): Float64Array {
    if (!this.allSums) {
      // A typed array sorts numbers without a comparator call per comparison.
      const ascending = Float64Array.from(this.values).sort();
      this.allSums = new Float64Array(ascending.length + 1);
      for (let m = 1; m <= ascending.length; m++) this.allSums[m] = this.allSums[m - 1]! + ascending[ascending.length - m]!;
    }
    return this.allSums;
  }
}
