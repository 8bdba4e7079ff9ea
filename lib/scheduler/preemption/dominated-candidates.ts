import type { CandidatePlacements } from './preemption-candidates';
import { exactIntegers } from './victim-amounts';

/**
 * The candidates on one cluster without those no best set holds (binding priority and preemption
 * (000), "Preemption order"), so that the victim search proves its answer among fewer.
 *
 * A candidate y dominates a later one x (search order: priority, then the preemptor's order among
 * equals) when y frees at least as much as x of every resource the cluster lacks. A set holding x but
 * not y is never the best: with y in x's place it is still enough (it frees no less of any gap), has as
 * many victims, no higher priority and no higher sum, and, when nothing else differs, its most important
 * differing victim comes earlier. So a best set holds every candidate dominating any of its victims,
 * and a candidate with `most` or more dominators is in no best set of at most `most` victims. `most` is
 * the size of a set found enough: evicting the candidates by their amounts of one lacking resource,
 * largest first, until every gap is closed.
 *
 * `gaps`: what the cluster lacks of each requested resource (0 where it lacks nothing); `columns`: the
 * request of each binding (by rank in the placements' order) of the same resources. The candidates are
 * kept as they are when amounts are not integers small enough to add exactly, or no set is enough.
 */
export function withoutDominated(placements: CandidatePlacements, gaps: readonly number[], columns: readonly Float64Array[]): CandidatePlacements {
  const lacking: number[] = [];
  for (let slot = 0; slot < gaps.length; slot++) if (gaps[slot]! > 0) lacking.push(slot);
  const width = lacking.length;
  const n = placements.candidates.length;
  if (width === 0 || n === 0) return placements;
  // Plain loops throughout: this runs for every cluster searched, over every candidate on it.
  const amounts = new Float64Array(n * width);
  for (let candidate = 0; candidate < n; candidate++) {
    const replicas = placements.entryReplicas[placements.firstEntry[candidate]!]!;
    const rank = placements.ranks[candidate]!;
    for (let at = 0; at < width; at++) amounts[candidate * width + at] = columns[lacking[at]!]![rank]! * replicas;
  }
  if (!exactIntegers(amounts)) return placements;
  const most = enoughSetSize(
    amounts,
    lacking.map((slot) => gaps[slot]!),
  );
  if (most === Number.POSITIVE_INFINITY) return placements;

  const kept: number[] = [];
  const largest = new LargestEarlier(width, most);
  for (let x = 0; x < n; x++) {
    // Only a candidate that `most` earlier ones match on every lacking resource may have `most` dominators.
    let dominators = 0;
    if (largest.coverAll(amounts, x)) {
      for (let y = x - 1; y >= 0 && dominators < most; y--) if (frees(amounts, y, x, width)) dominators++;
    }
    if (dominators < most) kept.push(x);
    largest.add(amounts, x);
  }
  return kept.length === n ? placements : subset(placements, kept);
}

/** Per lacking resource, the `most` largest amounts of the candidates met so far, largest first. */
class LargestEarlier {
  private readonly values: Float64Array;

  constructor(
    private readonly width: number,
    private readonly most: number,
  ) {
    this.values = new Float64Array(width * most).fill(Number.NEGATIVE_INFINITY);
  }

  /** Whether, for each resource, `most` candidates met so far free at least as much of it as candidate x. */
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

/** Whether candidate y frees at least as much as candidate x of every lacking resource. */
function frees(amounts: Float64Array, y: number, x: number, width: number): boolean {
  for (let at = 0; at < width; at++) if (amounts[y * width + at]! < amounts[x * width + at]!) return false;
  return true;
}

/**
 * The fewest candidates, taken largest first by one lacking resource's amount (the best of those
 * orders), that close every gap: +∞ when even all of them do not. The largest are picked one at a
 * time rather than sorted: a set found enough is small, and stops the picking of the next order.
 */
function enoughSetSize(amounts: Float64Array, gaps: readonly number[]): number {
  const width = gaps.length;
  const n = amounts.length / width;
  const left = new Float64Array(width);
  for (let candidate = 0; candidate < n; candidate++) for (let at = 0; at < width; at++) left[at]! += amounts[candidate * width + at]!;
  for (let at = 0; at < width; at++) if (left[at]! < gaps[at]!) return Number.POSITIVE_INFINITY;
  const taken = new Uint8Array(n);
  let fewest = n;
  for (let by = 0; by < width; by++) {
    taken.fill(0);
    for (let at = 0; at < width; at++) left[at] = gaps[at]!;
    for (let count = 1; count < fewest; count++) {
      let largest = -1;
      for (let candidate = 0; candidate < n; candidate++) {
        if (taken[candidate] === 0 && (largest < 0 || amounts[candidate * width + by]! > amounts[largest * width + by]!)) largest = candidate;
      }
      taken[largest] = 1;
      let open = false;
      for (let at = 0; at < width; at++) {
        left[at]! -= amounts[largest * width + at]!;
        if (left[at]! > 0) open = true;
      }
      if (!open) fewest = count;
    }
  }
  return fewest;
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
