import type { RankedResidents } from '../snapshot';
import { firstAtOrAbove } from '../rank-search';

/** The residents of several clusters (kept by rank) within a range of ranks. */
export class ResidentsInRange {
  private readonly cursor: Int32Array;
  private readonly stop: Int32Array;

  constructor(private readonly lists: readonly RankedResidents[]) {
    this.cursor = new Int32Array(lists.length);
    this.stop = new Int32Array(lists.length);
  }

  /** Reads the ranks in [from, to) from now on. */
  within(from: number, to: number): void {
    this.lists.forEach(({ ranks }, at) => {
      this.cursor[at] = firstAtOrAbove(ranks, from);
      this.stop[at] = firstAtOrAbove(ranks, to);
    });
  }

  /** The lowest rank in the range on any of the clusters, −1 when none is. */
  lowest(): number {
    let lowest = -1;
    this.lists.forEach(({ ranks }, at) => {
      if (this.cursor[at]! < this.stop[at]! && (lowest < 0 || ranks[this.cursor[at]!]! < lowest)) lowest = ranks[this.cursor[at]!]!;
    });
    return lowest;
  }

  /** How many residents are in the range, a binding counted once per cluster it is on. */
  count(): number {
    let count = 0;
    for (let at = 0; at < this.lists.length; at++) count += this.stop[at]! - this.cursor[at]!;
    return count;
  }

  /** Each resident in the range, cluster by cluster: the cluster (index in the lists), its rank and replicas there. */
  forEach(visit: (at: number, rank: number, replicas: number) => void): void {
    this.lists.forEach(({ ranks, replicas }, at) => {
      for (let index = this.cursor[at]!; index < this.stop[at]!; index++) visit(at, ranks[index]!, replicas[index]!);
    });
  }
}

/**
 * The residents in a range of ranks, grouped by rank: each rank's entries (cluster, replicas), in the
 * order of the lists, found by a hash of the rank's offset from the range's first. Its size follows the
 * residents, not the range, and building it reads each resident once, never a binding's object.
 */
export class ResidentsByRank {
  /** Open addressing by offset: the offset a slot holds (−1: none), its first and last entries. */
  private readonly slotOffset: Int32Array;
  private readonly slotFirst: Int32Array;
  private readonly slotLast: Int32Array;
  private readonly shift: number;
  private readonly nextEntry: Int32Array;
  private readonly entryCluster: Int32Array;
  private readonly entryReplicas: Float64Array;

  /** `first`: the range's first rank; `held`: the residents in range (residents.count()); `clusterAt`: each list's cluster. */
  constructor(residents: ResidentsInRange, private readonly first: number, held: number, clusterAt: readonly number[]) {
    let bits = 1;
    while (1 << bits < 2 * held) bits++;
    this.shift = 32 - bits;
    this.slotOffset = new Int32Array(1 << bits).fill(-1);
    this.slotFirst = new Int32Array(1 << bits);
    this.slotLast = new Int32Array(1 << bits);
    this.nextEntry = new Int32Array(held);
    this.entryCluster = new Int32Array(held);
    this.entryReplicas = new Float64Array(held);
    let entries = 0;
    residents.forEach((list, rank, replicas) => {
      const entry = entries++;
      this.entryCluster[entry] = clusterAt[list]!;
      this.entryReplicas[entry] = replicas;
      this.nextEntry[entry] = -1;
      const slot = this.slotOf(rank - first);
      if (this.slotOffset[slot]! < 0) {
        this.slotOffset[slot] = rank - first;
        this.slotFirst[slot] = entry;
      } else {
        this.nextEntry[this.slotLast[slot]!] = entry;
      }
      this.slotLast[slot] = entry;
    });
  }

  /** The clusters and replicas of `rank`, into the arrays given: how many (0: on none of the clusters). */
  placementInto(rank: number, clusterOf: Int32Array, replicasOf: Float64Array): number {
    const slot = this.slotOf(rank - this.first);
    if (this.slotOffset[slot]! < 0) return 0;
    let count = 0;
    for (let entry = this.slotFirst[slot]!; entry >= 0; entry = this.nextEntry[entry]!, count++) {
      clusterOf[count] = this.entryCluster[entry]!;
      replicasOf[count] = this.entryReplicas[entry]!;
    }
    return count;
  }

  /** The slot holding `offset`, or the empty one where it would go (a Fibonacci hash, then the next slots). */
  private slotOf(offset: number): number {
    const mask = this.slotOffset.length - 1;
    let slot = Math.imul(offset, 0x9e3779b1) >>> this.shift;
    while (this.slotOffset[slot]! >= 0 && this.slotOffset[slot] !== offset) slot = (slot + 1) & mask;
    return slot;
  }
}
