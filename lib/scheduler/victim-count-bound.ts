import type { CandidatePlacements } from './preemption-candidates';
import type { Requirement } from './replica-strategy';

/** What PlacementOracle lays out per decision, [cluster × slots + slot] and [entry × slots + slot]. */
export interface OracleLayout {
  /** The preemptor's per-replica amount of each requested resource (its slot). */
  readonly amounts: readonly number[];
  /** Free room on each cluster before any eviction. */
  readonly room: Float64Array;
  /** Per-cluster requirement: share × amount (−∞ on clusters without a share). */
  readonly needed: Float64Array;
  /** What each entry of each candidate frees. */
  readonly usage: Float64Array;
  readonly placements: CandidatePlacements;
  readonly requirement: Requirement;
}

/**
 * How many more candidates, at least, any feasible set has that consists of `evicted` and candidates
 * with indexes below `below` (FeasibilityOracle.lowerBound).
 */
export type VictimCountBound = (evicted: readonly number[], below: number) => number;

/**
 * Lower bounds for the victim search, so that it need not prove by enumeration that no smaller set
 * works. Exact for integer amounts below 2^52 (the oracle's `small`), which is when it is used.
 *
 * Per-cluster requirements: a resource a cluster lacks for its share, after what `evicted` frees,
 * takes at least as many more victims as the largest usages of it there need to cover the shortfall.
 * Among the candidates below `below` it also takes at least the shortfall over the largest usage there.
 * A victim counts on every short cluster it is on, so with k_c victims needed on cluster c, V more
 * victims satisfy V + (the V largest numbers of extra short clusters one candidate is on) ≥ Σ k_c,
 * and V × (1 + the largest such number below `below`) ≥ Σ k_c.
 *
 * Pooled requirements: evicting a candidate adds at most ⌈usage / request⌉ replicas on a cluster, in
 * the resource that limits the cluster before any eviction, and no more than the cluster lacks of the
 * whole requirement. These gains add up to at least what is missing in any feasible set, so a set
 * containing `evicted` needs as many more as the largest gains take to cover what `evicted` leaves, and
 * as many as the largest gain below `below` takes.
 */
export function victimCountBound(layout: OracleLayout): VictimCountBound {
  return layout.requirement.type === 'per-cluster' ? perClusterBound(layout) : pooledBound(layout, layout.requirement.replicas);
}

function perClusterBound({ amounts, room, needed, usage, placements }: OracleLayout): VictimCountBound {
  const slots = amounts.length;
  const { firstEntry, entryCluster } = placements;
  // A gap is a (cluster, resource) short of the cluster's share before any eviction.
  const gapAt = new Int32Array(room.length).fill(-1);
  const gapCluster: number[] = [];
  const shortfall: number[] = [];
  for (let at = 0; at < room.length; at++) {
    if (needed[at]! > 0 && room[at]! < needed[at]!) {
      gapAt[at] = shortfall.length;
      gapCluster.push(Math.floor(at / slots));
      shortfall.push(needed[at]! - room[at]!);
    }
  }
  const covering: number[][] = shortfall.map(() => []);
  const coveringOwners: number[][] = shortfall.map(() => []);
  const extraClusters: number[] = [];
  const extraOwners: number[] = [];
  const isShort = new Uint8Array(room.length / slots);
  for (const cluster of gapCluster) isShort[cluster] = 1;
  for (let candidate = 0; candidate + 1 < firstEntry.length; candidate++) {
    let spans = 0;
    for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      if (isShort[cluster] === 0) continue;
      spans++;
      for (let slot = 0; slot < slots; slot++) {
        const gap = gapAt[cluster * slots + slot]!;
        if (gap >= 0) {
          covering[gap]!.push(usage[entry * slots + slot]!);
          coveringOwners[gap]!.push(candidate);
        }
      }
    }
    if (spans > 1) {
      extraClusters.push(spans - 1);
      extraOwners.push(candidate);
    }
  }
  const coverage = covering.map((usages, gap) => new LargestFirst(usages, coveringOwners[gap]!));
  const extra = new LargestFirst(extraClusters, extraOwners);
  const extraSums = extra.sums();
  const shortClusters = [...new Set(gapCluster)];
  const needOn = new Float64Array(isShort.length);
  const left = new Float64Array(shortfall.length);

  return (evicted, below) => {
    left.set(shortfall);
    for (const candidate of evicted) {
      for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
        for (let slot = 0; slot < slots; slot++) {
          const gap = gapAt[entryCluster[entry]! * slots + slot]!;
          if (gap >= 0) left[gap]! -= usage[entry * slots + slot]!;
        }
      }
    }
    for (const cluster of shortClusters) needOn[cluster] = 0;
    for (let gap = 0; gap < left.length; gap++) {
      const cluster = gapCluster[gap]!;
      if (left[gap]! > 0) needOn[cluster] = Math.max(needOn[cluster]!, coverage[gap]!.fewestReaching(left[gap]!, below));
    }
    let most = 0;
    let total = 0;
    for (const cluster of shortClusters) {
      most = Math.max(most, needOn[cluster]!);
      total += needOn[cluster]!;
    }
    if (!Number.isFinite(total)) return Number.POSITIVE_INFINITY;
    let bound = Math.max(most, Math.ceil(total / (1 + extra.largestBelow(below))));
    while (bound + extraSums[Math.min(bound, extraSums.length - 1)]! < total) bound++;
    return bound;
  };
}

function pooledBound({ amounts, room, usage, placements }: OracleLayout, wanted: number): VictimCountBound {
  const slots = amounts.length;
  const clusters = room.length / slots;
  const limiting = new Int32Array(clusters);
  const lacking = new Float64Array(clusters);
  let pooled = 0;
  for (let cluster = 0; cluster < clusters; cluster++) {
    let replicas = Number.POSITIVE_INFINITY;
    for (let slot = 0; slot < slots; slot++) {
      const fit = Math.floor(Math.max(room[cluster * slots + slot]!, 0) / amounts[slot]!);
      if (fit < replicas) {
        replicas = fit;
        limiting[cluster] = slot;
      }
    }
    pooled += Math.min(replicas, wanted);
    lacking[cluster] = wanted - Math.min(replicas, wanted);
  }
  const { firstEntry, entryCluster } = placements;
  const gains: number[] = [];
  const owners: number[] = [];
  for (let candidate = 0; candidate + 1 < firstEntry.length; candidate++) {
    let gain = 0;
    for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      const slot = limiting[cluster]!;
      gain += Math.min(Math.ceil(usage[entry * slots + slot]! / amounts[slot]!), lacking[cluster]!);
    }
    gains.push(gain);
    owners.push(candidate);
  }
  const gainOf = Float64Array.from(gains);
  const largest = new LargestFirst(gains, owners);
  return (evicted, below) => {
    let missing = wanted - pooled;
    for (const candidate of evicted) missing -= gainOf[candidate]!;
    return largest.fewestReaching(missing, below);
  };
}

/**
 * Non-negative values, each owned by a candidate (owners ascending), for "how many of them, at least, to
 * reach a target": sorted only when a question needs more than the largest one.
 */
class LargestFirst {
  private readonly values: readonly number[];
  private readonly owners: readonly number[];
  /** largestOfFirst[m]: the largest of the first m values, those of the lowest owners. */
  private readonly largestOfFirst: Float64Array;
  private sorted: Float64Array | undefined;

  constructor(values: readonly number[], owners: readonly number[]) {
    this.values = values;
    this.owners = owners;
    this.largestOfFirst = new Float64Array(values.length + 1);
    values.forEach((value, m) => (this.largestOfFirst[m + 1] = Math.max(this.largestOfFirst[m]!, value)));
  }

  /** sums()[m]: the sum of the m largest values. */
  sums(): Float64Array {
    if (!this.sorted) {
      // A typed array sorts numbers without a comparator call per comparison.
      const ascending = Float64Array.from(this.values).sort();
      this.sorted = new Float64Array(ascending.length + 1);
      for (let m = 1; m <= ascending.length; m++) this.sorted[m] = this.sorted[m - 1]! + ascending[ascending.length - m]!;
    }
    return this.sorted;
  }

  /**
   * The fewest values of owners below `below` whose sum reaches `target`, at least: no fewer than the
   * largest of all values take, nor than the target over the largest value of those owners; +∞ when
   * none of them can reach it.
   */
  fewestReaching(target: number, below: number): number {
    if (target <= 0) return 0;
    const largestBelow = this.largestBelow(below);
    if (largestBelow <= 0) return Number.POSITIVE_INFINITY;
    return Math.max(this.fewestOfAll(target), Math.ceil(target / largestBelow));
  }

  /** The largest value of the owners below `below`, 0 when they have none. */
  largestBelow(below: number): number {
    return this.largestOfFirst[this.countBelow(below)]!;
  }

  private fewestOfAll(target: number): number {
    if (target <= this.largestOfFirst[this.values.length]!) return 1;
    const sums = this.sums();
    if (sums[sums.length - 1]! < target) return Number.POSITIVE_INFINITY;
    let low = 2;
    let high = sums.length - 1;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (sums[mid]! >= target) high = mid;
      else low = mid + 1;
    }
    return low;
  }

  /** How many values belong to owners below `below`. */
  private countBelow(below: number): number {
    let low = 0;
    let high = this.owners.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.owners[mid]! < below) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
