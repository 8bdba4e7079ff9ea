import type { CandidatePlacements } from './preemption-candidates';
import type { Requirement } from '../replica-strategy';
import { LargestSums } from './largest-sums';

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

/** FeasibilityOracle.lowerBound and FeasibilityOracle.completions for a preemption decision. */
export interface VictimCountBound {
  /** How many more candidates, at least, a feasible set of `evicted` and candidates below `below` has. */
  lowerBound(evicted: readonly number[], below: number): number;
  /** The candidates below `below` that might complete `evicted` alone, ascending; undefined when any may (nothing is left open). */
  completions(evicted: readonly number[], below: number): readonly number[] | undefined;
}

/**
 * Bounds for the victim search, so that it need not prove by enumeration that no smaller set works.
 * Sound for integer amounts below 2^52 (the oracle's `small`), which is when it is used. Both kinds of
 * requirement become gaps that evicted candidates must close, each candidate closing a known amount of
 * each gap, and gaps grouped by cluster.
 *
 * Per-cluster requirements: a gap is a resource a cluster lacks for its share, closed by what a
 * candidate frees there. After what `evicted` frees, a gap takes at least as many more victims as the
 * largest amounts need to close it, and among the candidates below `below` at least the rest over the
 * largest amount there. A victim counts on every short cluster it is on, so with k_c victims needed on
 * cluster c, V more victims satisfy V + (the V largest numbers of extra short clusters one candidate is
 * on) ≥ Σ k_c, and V × (1 + the largest such number below `below`) ≥ Σ k_c.
 *
 * Pooled requirements: one gap, the replicas missing. Evicting a candidate adds at most ⌈usage /
 * request⌉ replicas on a cluster, in the resource that limits the cluster before any eviction, and no
 * more than the cluster lacks of the whole requirement; these gains add up to at least what is missing
 * in any feasible set.
 *
 * A candidate completes a set alone only if it closes every gap the set leaves open.
 */
export function victimCountBound(layout: OracleLayout): VictimCountBound {
  return new GapBound(layout.requirement.type === 'per-cluster' ? clusterGaps(layout) : replicaGap(layout, layout.requirement.replicas));
}

interface Gaps {
  /** What each gap lacks before any eviction. */
  readonly shortfall: readonly number[];
  /** The cluster (or other group) a gap counts towards: victims needed add up over groups. */
  readonly group: readonly number[];
  /** closes[gap][candidate]: how much of the gap the candidate closes. */
  readonly closes: readonly Float64Array[];
  /** For candidates on several groups: the number of extra groups, and the candidate. */
  readonly extraGroups: readonly number[];
  readonly extraOwners: readonly number[];
}

function clusterGaps({ amounts, room, needed, usage, placements }: OracleLayout): Gaps {
  const slots = amounts.length;
  const { firstEntry, entryCluster } = placements;
  const candidates = firstEntry.length - 1;
  const gapAt = new Int32Array(room.length).fill(-1);
  const shortfall: number[] = [];
  const group: number[] = [];
  const closes: Float64Array[] = [];
  for (let at = 0; at < room.length; at++) {
    if (needed[at]! > 0 && room[at]! < needed[at]!) {
      gapAt[at] = shortfall.length;
      shortfall.push(needed[at]! - room[at]!);
      group.push(Math.floor(at / slots));
      closes.push(new Float64Array(candidates));
    }
  }
  const isShort = new Uint8Array(room.length / slots);
  for (const cluster of group) isShort[cluster] = 1;
  const extraGroups: number[] = [];
  const extraOwners: number[] = [];
  for (let candidate = 0; candidate < candidates; candidate++) {
    let spans = 0;
    for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      if (isShort[cluster] === 0) continue;
      spans++;
      for (let slot = 0; slot < slots; slot++) {
        const gap = gapAt[cluster * slots + slot]!;
        if (gap >= 0) closes[gap]![candidate] = usage[entry * slots + slot]!;
      }
    }
    if (spans > 1) {
      extraGroups.push(spans - 1);
      extraOwners.push(candidate);
    }
  }
  return { shortfall, group, closes, extraGroups, extraOwners };
}

function replicaGap({ amounts, room, usage, placements }: OracleLayout, wanted: number): Gaps {
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
  if (pooled >= wanted) return { shortfall: [], group: [], closes: [], extraGroups: [], extraOwners: [] };
  const { firstEntry, entryCluster } = placements;
  const gains = new Float64Array(firstEntry.length - 1);
  for (let candidate = 0; candidate < gains.length; candidate++) {
    for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      const slot = limiting[cluster]!;
      gains[candidate]! += Math.min(Math.ceil(usage[entry * slots + slot]! / amounts[slot]!), lacking[cluster]!);
    }
  }
  return { shortfall: [wanted - pooled], group: [0], closes: [gains], extraGroups: [], extraOwners: [] };
}

class GapBound implements VictimCountBound {
  private readonly gaps: Gaps;
  private readonly closing: LargestFirst[];
  private readonly extra: LargestFirst;
  private readonly groups: number[];
  private readonly left: Float64Array;
  /** By group: the victims it needs at least. */
  private readonly needOn: Float64Array;

  constructor(gaps: Gaps) {
    this.gaps = gaps;
    this.closing = gaps.closes.map((closes) => LargestFirst.of(closes));
    this.extra = new LargestFirst(gaps.extraGroups, gaps.extraOwners);
    this.groups = [...new Set(gaps.group)];
    this.left = new Float64Array(gaps.shortfall.length);
    this.needOn = new Float64Array(Math.max(-1, ...this.groups) + 1);
  }

  lowerBound(evicted: readonly number[], below: number): number {
    const left = this.leftAfter(evicted);
    for (const group of this.groups) this.needOn[group] = 0;
    for (let gap = 0; gap < left.length; gap++) {
      const group = this.gaps.group[gap]!;
      if (left[gap]! > 0) this.needOn[group] = Math.max(this.needOn[group]!, this.closing[gap]!.fewestReaching(left[gap]!, below));
    }
    let most = 0;
    let total = 0;
    for (const group of this.groups) {
      most = Math.max(most, this.needOn[group]!);
      total += this.needOn[group]!;
    }
    if (!Number.isFinite(total)) return Number.POSITIVE_INFINITY;
    const extra = this.extra.largest();
    let bound = Math.max(most, Math.ceil(total / (1 + this.extra.largestBelow(below))));
    while (bound + extra.sumOfLargest(bound) < total) bound++;
    return bound;
  }

  completions(evicted: readonly number[], below: number): readonly number[] | undefined {
    const left = this.leftAfter(evicted);
    const open: number[] = [];
    for (let gap = 0; gap < left.length; gap++) if (left[gap]! > 0) open.push(gap);
    if (open.length === 0) return undefined;
    // The candidates that close the first open gap alone, ascending, that close every other one too.
    const [first, ...others] = open;
    const closingFirst = this.closing[first!]!.ownersReaching(left[first!]!, below);
    return others.length === 0
      ? closingFirst
      : closingFirst.filter((candidate) => others.every((gap) => this.gaps.closes[gap]![candidate]! >= left[gap]!));
  }

  private leftAfter(evicted: readonly number[]): Float64Array {
    this.left.set(this.gaps.shortfall);
    for (const candidate of evicted) {
      for (let gap = 0; gap < this.left.length; gap++) this.left[gap]! -= this.gaps.closes[gap]![candidate]!;
    }
    return this.left;
  }
}

/**
 * Positive values, each owned by a candidate (owners ascending), for "how many of them, at least, to
 * reach a target": their largest found only when a question needs more than the largest one.
 */
class LargestFirst {
  private readonly values: ArrayLike<number>;
  private readonly owners: ArrayLike<number>;
  /** largestOfFirst[m] and totalOfFirst[m]: the largest and the sum of the first m values, those of the lowest owners. */
  private readonly largestOfFirst: Float64Array;
  private readonly totalOfFirst: Float64Array;
  /** ownedBelow[b]: how many values belong to owners below b (the search asks at every node). */
  private readonly ownedBelow: Int32Array;
  private largestSums: LargestSums | undefined;

  /** The positive values of `byOwner`, owned by their indexes. */
  static of(byOwner: Float64Array): LargestFirst {
    let positive = 0;
    for (let owner = 0; owner < byOwner.length; owner++) if (byOwner[owner]! > 0) positive++;
    const values = new Float64Array(positive);
    const owners = new Int32Array(positive);
    for (let owner = 0, m = 0; owner < byOwner.length; owner++) {
      if (byOwner[owner]! > 0) {
        values[m] = byOwner[owner]!;
        owners[m++] = owner;
      }
    }
    return new LargestFirst(values, owners);
  }

  constructor(values: ArrayLike<number>, owners: ArrayLike<number>) {
    this.values = values;
    this.owners = owners;
    this.largestOfFirst = new Float64Array(values.length + 1);
    this.totalOfFirst = new Float64Array(values.length + 1);
    for (let m = 0; m < values.length; m++) {
      this.largestOfFirst[m + 1] = Math.max(this.largestOfFirst[m]!, values[m]!);
      this.totalOfFirst[m + 1] = this.totalOfFirst[m]! + values[m]!;
    }
    this.ownedBelow = new Int32Array((owners[owners.length - 1] ?? -1) + 2);
    for (let m = 0; m < owners.length; m++) this.ownedBelow[owners[m]! + 1] = m + 1;
    for (let b = 1; b < this.ownedBelow.length; b++) this.ownedBelow[b] = Math.max(this.ownedBelow[b]!, this.ownedBelow[b - 1]!);
  }

  /** The sums of the largest values. */
  largest(): LargestSums {
    this.largestSums ??= new LargestSums(this.values);
    return this.largestSums;
  }

  /** The owners below `below` whose value reaches `target` alone, ascending. */
  ownersReaching(target: number, below: number): number[] {
    const reaching: number[] = [];
    for (let m = 0; m < this.owners.length && this.owners[m]! < below; m++) {
      if (this.values[m]! >= target) reaching.push(this.owners[m]!);
    }
    return reaching;
  }

  /**
   * The fewest values of owners below `below` whose sum reaches `target`, at least: no fewer than the
   * largest of all values take, nor than the target over the largest value of those owners; +∞ when
   * all of those owners' values together fall short.
   */
  fewestReaching(target: number, below: number): number {
    if (target <= 0) return 0;
    const available = this.countBelow(below);
    if (this.totalOfFirst[available]! < target) return Number.POSITIVE_INFINITY;
    return Math.max(this.fewestOfAll(target), Math.ceil(target / this.largestOfFirst[available]!));
  }

  /** The largest value of the owners below `below`, 0 when they have none. */
  largestBelow(below: number): number {
    return this.largestOfFirst[this.countBelow(below)]!;
  }

  private fewestOfAll(target: number): number {
    if (target <= this.largestOfFirst[this.values.length]!) return 1;
    return this.largest().fewestReaching(target);
  }

  /** How many values belong to owners below `below`. */
  private countBelow(below: number): number {
    return below >= this.ownedBelow.length ? this.owners.length : this.ownedBelow[Math.max(below, 0)]!;
  }
}
