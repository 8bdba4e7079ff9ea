import type { CandidatePlacements } from './preemption-candidates';
import { exactIntegers } from './victim-amounts';

/**
 * A set found enough with more victims than this rules little out: the candidates are kept as they
 * are, and finding it stops there (each victim picked reads every candidate).
 */
const MOST_USEFUL = 64;
/** Kept candidates before one read for its dominators: what the filter costs stays linear in the candidates. */
const DOMINATORS_READ = 256;

/**
 * The candidates without those no best set holds, for a requirement of gaps to close on clusters (a
 * per-cluster requirement, or one cluster's), so that the victim search proves its answer among fewer
 * (binding priority and preemption (000), "Preemption order").
 *
 * A candidate y dominates a later one x (search order: priority, then the preemptor's order among
 * equals) when y frees at least as much as x of every resource each cluster lacks. A set holding x but
 * not y is never the best: with y in x's place it is still enough (it frees no less of any gap), has as
 * many victims, no higher priority and no higher sum, and, when nothing else differs, its most important
 * differing victim comes earlier. So a best set holds every candidate dominating any of its victims,
 * and a candidate with `most` or more dominators is in no best set of at most `most` victims. `most` is
 * the size of a set found enough: on each cluster with a gap, the candidates by their amounts there of
 * one lacking resource, largest first, until its gaps are closed; the union over the clusters. Only the
 * DOMINATORS_READ candidates kept before one are read for its dominators (withFewDominators): fewer
 * found rule out no more.
 *
 * `gaps` ([cluster × slots + slot], clusters as the placements index them): what a cluster lacks of
 * each requested resource, 0 where it lacks nothing; `usage` ([entry × slots + slot]): what each
 * entry frees. The candidates are kept as they are when amounts are not integers small enough to add
 * exactly (or are below 0), no set is enough, or the set found has more than MOST_USEFUL victims.
 */
export function withoutDominated(placements: CandidatePlacements, gaps: ArrayLike<number>, usage: Float64Array): CandidatePlacements {
  const slots = usage.length / Math.max(1, placements.entryCluster.length);
  /** By [cluster × slots + slot]: its index among the lacking ones, −1 where nothing lacks. */
  const lackingAt = new Int32Array(gaps.length).fill(-1);
  const lacking: number[] = [];
  for (let at = 0; at < gaps.length; at++) {
    if (gaps[at]! > 0) {
      lackingAt[at] = lacking.length;
      lacking.push(at);
    }
  }
  const width = lacking.length;
  const n = placements.candidates.length;
  if (width === 0 || n === 0) return placements;
  // Plain loops throughout: this runs over every candidate of every search it shortens.
  const amounts = new Float64Array(n * width);
  for (let candidate = 0; candidate < n; candidate++) {
    for (let entry = placements.firstEntry[candidate]!; entry < placements.firstEntry[candidate + 1]!; entry++) {
      for (let slot = 0; slot < slots; slot++) {
        const at = lackingAt[placements.entryCluster[entry]! * slots + slot]!;
        if (at >= 0) amounts[candidate * width + at] = usage[entry * slots + slot]!;
      }
    }
  }
  if (!exactIntegers(amounts) || amounts.some((amount) => amount < 0)) return placements;
  const clusterOf = lacking.map((at) => Math.floor(at / slots));
  const most = enoughSetSize(
    amounts,
    lacking.map((at) => gaps[at]!),
    clusterOf,
  );
  if (most > MOST_USEFUL) return placements;

  const kept = withFewDominators(amounts, clusterOf, most);
  return kept.length === n ? placements : subset(placements, kept);
}

/**
 * The candidates (indexes, ascending) with fewer than `most` dominators among the DOMINATORS_READ
 * candidates kept before each: `amounts` [candidate × width + lacking resource] (none below 0),
 * `clusterOf` the cluster of each lacking resource (a cluster's consecutive). y dominates x when it
 * frees at least as much of every lacking resource.
 *
 * Counting among the kept candidates alone rules out as much as counting among all of them would, as
 * long as fewer than DOMINATORS_READ are kept: a dominator of x that is ruled out has `most` earlier
 * dominators, which dominate x too, and the earliest such one's are all kept. So the reads follow the
 * candidates kept, which are few, rather than how many there are.
 */
export function withFewDominators(amounts: Float64Array, clusterOf: readonly number[], most: number): number[] {
  const width = clusterOf.length;
  const n = amounts.length / width;
  const kept: number[] = [];
  const largest = new LargestEarlier(width, most);
  const keptOn = new KeptByCluster(clusterOf);
  const recent = new RecentDominators(keptOn.clusters);
  /** By candidate: the candidate it was last counted a dominator of, + 1. */
  const counted = new Int32Array(n);
  const freeing: number[] = [];
  for (let x = 0; x < n; x++) {
    // Only a candidate that `most` kept ones match on every lacking resource may have `most` dominators.
    let dominators = 0;
    if (largest.coverAll(amounts, x)) {
      const oldest = kept.length > DOMINATORS_READ ? kept[kept.length - DOMINATORS_READ]! : 0;
      // A dominator frees at least as much wherever x frees something, so it frees something on x's
      // clusters: the kept candidates of one of them are read, for the resources x frees alone; first
      // those found dominating others there lately, which are the likeliest to dominate x too.
      freeing.length = 0;
      for (let at = 0; at < width; at++) if (amounts[x * width + at]! > 0) freeing.push(at);
      // Freeing nothing, x is dominated by every kept candidate, of which coverAll found `most`.
      if (freeing.length === 0) dominators = most;
      const cluster = freeing.length === 0 ? -1 : keptOn.clusterAt(freeing[0]!);
      for (let i = 0; cluster >= 0 && i < RECENT_DOMINATORS && dominators < most; i++) {
        const y = recent.at(cluster, i);
        if (y >= oldest && freesAt(amounts, y, x, width, freeing)) {
          counted[y] = x + 1;
          dominators++;
        }
      }
      const on = cluster < 0 || dominators >= most ? [] : keptOn.on(cluster);
      for (let i = on.length - 1; i >= 0 && on[i]! >= oldest && dominators < most; i--) {
        const y = on[i]!;
        if (counted[y] === x + 1 || !freesAt(amounts, y, x, width, freeing)) continue;
        dominators++;
        recent.remember(cluster, y);
      }
    }
    if (dominators < most) {
      kept.push(x);
      largest.add(amounts, x);
      keptOn.add(amounts, x);
    }
  }
  return kept;
}

/** Dominators remembered per cluster. */
const RECENT_DOMINATORS = 8;

/** Per cluster, the candidates last found dominating another there (−1: none yet). */
class RecentDominators {
  private readonly candidates: Int32Array;
  private readonly next: Int32Array;

  constructor(clusters: number) {
    this.candidates = new Int32Array(clusters * RECENT_DOMINATORS).fill(-1);
    this.next = new Int32Array(clusters);
  }

  at(cluster: number, index: number): number {
    return this.candidates[cluster * RECENT_DOMINATORS + index]!;
  }

  remember(cluster: number, candidate: number): void {
    for (let index = 0; index < RECENT_DOMINATORS; index++) if (this.at(cluster, index) === candidate) return;
    this.candidates[cluster * RECENT_DOMINATORS + this.next[cluster]!] = candidate;
    this.next[cluster] = (this.next[cluster]! + 1) % RECENT_DOMINATORS;
  }
}

/** Per cluster (numbered in the order of their lacking resources), the kept candidates freeing something it lacks, ascending. */
class KeptByCluster {
  readonly clusters: number;
  /** By lacking resource: its cluster's number. */
  private readonly numbers: Int32Array;
  private readonly kept: number[][] = [];
  private readonly width: number;

  constructor(clusterOf: readonly number[]) {
    this.width = clusterOf.length;
    this.numbers = new Int32Array(this.width);
    let clusters = 0;
    for (let at = 0; at < this.width; at++) this.numbers[at] = at > 0 && clusterOf[at] === clusterOf[at - 1] ? clusters - 1 : clusters++;
    this.clusters = clusters;
    for (let cluster = 0; cluster < clusters; cluster++) this.kept.push([]);
  }

  /** The number of the cluster of lacking resource `at`. */
  clusterAt(at: number): number {
    return this.numbers[at]!;
  }

  /** The kept candidates freeing something `cluster` lacks, ascending. */
  on(cluster: number): readonly number[] {
    return this.kept[cluster]!;
  }

  /** Keeps candidate x on each cluster it frees something of. */
  add(amounts: Float64Array, x: number): void {
    let last = -1;
    for (let at = 0; at < this.width; at++) {
      const cluster = this.numbers[at]!;
      if (cluster !== last && amounts[x * this.width + at]! > 0) {
        this.kept[cluster]!.push(x);
        last = cluster;
      }
    }
  }
}

/** Per lacking resource, the `most` largest amounts of the candidates added so far, largest first. */
class LargestEarlier {
  private readonly values: Float64Array;

  constructor(
    private readonly width: number,
    private readonly most: number,
  ) {
    this.values = new Float64Array(width * most).fill(Number.NEGATIVE_INFINITY);
  }

  /** Whether, for each resource, `most` candidates added so far free at least as much of it as candidate x. */
  coverAll(amounts: Float64Array, x: number): boolean {
    for (let at = 0; at < this.width; at++) if (this.values[at * this.most + this.most - 1]! < amounts[x * this.width + at]!) return false;
    return true;
  }

  add(amounts: Float64Array, x: number): void {
    for (let at = 0; at < this.width; at++) {
      const amount = amounts[x * this.width + at]!;
      let place = at * this.most + this.most - 1;
      if (this.values[place]! >= amount) continue;
      for (; place > at * this.most && this.values[place - 1]! < amount; place--) this.values[place] = this.values[place - 1]!;
      this.values[place] = amount;
    }
  }
}

/** Whether candidate y frees at least as much as candidate x of every lacking resource: of those x frees (`freeing`), amounts being no less than 0. */
function freesAt(amounts: Float64Array, y: number, x: number, width: number, freeing: readonly number[]): boolean {
  for (const at of freeing) if (amounts[y * width + at]! < amounts[x * width + at]!) return false;
  return true;
}

/**
 * The size of a set that closes every gap: per cluster (`clusterOf` each gap), the fewest candidates
 * taken largest first by one of its gaps (the best of those orders) that close all of its gaps, the
 * union over the clusters; +∞ when even all the candidates do not, or a cluster's takes more than
 * MOST_USEFUL. The largest are picked one at a time rather than sorted: such sets are small, and a set
 * found stops the picking of the next order.
 */
function enoughSetSize(amounts: Float64Array, gaps: readonly number[], clusterOf: readonly number[]): number {
  const width = gaps.length;
  const n = amounts.length / width;
  const left = new Float64Array(width);
  for (let candidate = 0; candidate < n; candidate++) for (let at = 0; at < width; at++) left[at]! += amounts[candidate * width + at]!;
  for (let at = 0; at < width; at++) if (left[at]! < gaps[at]!) return Number.POSITIVE_INFINITY;
  const inUnion = new Uint8Array(n);
  const taken = new Uint8Array(n);
  const picked: number[] = [];
  for (const cluster of new Set(clusterOf)) {
    const own = clusterOf.flatMap((of, at) => (of === cluster ? [at] : []));
    let best: number[] = [];
    for (const by of own) {
      taken.fill(0);
      picked.length = 0;
      for (const at of own) left[at] = gaps[at]!;
      let open = true;
      while (open && picked.length < (best.length === 0 ? MOST_USEFUL + 1 : best.length - 1)) {
        let largest = -1;
        for (let candidate = 0; candidate < n; candidate++) {
          if (taken[candidate] === 0 && (largest < 0 || amounts[candidate * width + by]! > amounts[largest * width + by]!)) largest = candidate;
        }
        taken[largest] = 1;
        picked.push(largest);
        open = false;
        for (const at of own) {
          left[at]! -= amounts[largest * width + at]!;
          if (left[at]! > 0) open = true;
        }
      }
      if (!open && (best.length === 0 || picked.length < best.length)) best = picked.slice();
    }
    if (best.length === 0) return Number.POSITIVE_INFINITY;
    for (const candidate of best) inUnion[candidate] = 1;
  }
  let size = 0;
  for (let candidate = 0; candidate < n; candidate++) size += inUnion[candidate]!;
  return size;
}

function ranksOf(ranks: Int32Array, kept: readonly number[]): Int32Array {
  const subset = new Int32Array(kept.length);
  for (let at = 0; at < kept.length; at++) subset[at] = ranks[kept[at]!]!;
  return subset;
}

/** The placements of the candidates at `kept` (ascending) alone, in the same order. */
function subset(placements: CandidatePlacements, kept: readonly number[]): CandidatePlacements {
  const firstEntry = new Int32Array(kept.length + 1);
  kept.forEach((candidate, at) => (firstEntry[at + 1] = firstEntry[at]! + placements.firstEntry[candidate + 1]! - placements.firstEntry[candidate]!));
  const entryCluster = new Int32Array(firstEntry[kept.length]!);
  const entryReplicas = new Float64Array(entryCluster.length);
  kept.forEach((candidate, at) => {
    for (let entry = placements.firstEntry[candidate]!, to = firstEntry[at]!; entry < placements.firstEntry[candidate + 1]!; entry++, to++) {
      entryCluster[to] = placements.entryCluster[entry]!;
      entryReplicas[to] = placements.entryReplicas[entry]!;
    }
  });
  return {
    candidates: kept.map((candidate) => placements.candidates[candidate]!),
    order: placements.order,
    ranks: ranksOf(placements.ranks, kept),
    firstEntry,
    entryCluster,
    entryReplicas,
  };
}
