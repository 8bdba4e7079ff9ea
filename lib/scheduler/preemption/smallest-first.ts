/**
 * Numbers taken smallest first from a typed array kept as a binary heap: ordering them costs what is
 * taken (and a pass to build the heap), not a sort of them all, where the reader most often stops part
 * way. The array is the caller's; its first `count` values are the numbers, and their order there changes.
 */
export class SmallestFirst {
  private size: number;

  constructor(
    private readonly values: Float64Array,
    count: number,
  ) {
    this.size = count;
    for (let at = (count >>> 1) - 1; at >= 0; at--) this.siftDown(at);
  }

  /** How many are left to take. */
  get remaining(): number {
    return this.size;
  }

  /** The smallest left, taken out. */
  take(): number {
    const smallest = this.values[0]!;
    this.size--;
    if (this.size > 0) {
      this.values[0] = this.values[this.size]!;
      this.siftDown(0);
    }
    return smallest;
  }

  private siftDown(from: number): void {
    const value = this.values[from]!;
    let at = from;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && this.values[child + 1]! < this.values[child]!) child++;
      if (this.values[child]! >= value) break;
      this.values[at] = this.values[child]!;
      at = child;
    }
    this.values[at] = value;
  }
}
