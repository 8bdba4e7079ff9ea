/** The first index of ascending `ranks` whose rank is not below `rank` (ranks.length when none). */
export function firstAtOrAbove(ranks: Int32Array, rank: number): number {
  let low = 0;
  let high = ranks.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (ranks[mid]! < rank) low = mid + 1;
    else high = mid;
  }
  return low;
}
