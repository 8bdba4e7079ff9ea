import { firstAtOrAbove } from '../rank-search';
import type { OracleLayout } from './victim-count-bound';

/** What the pair search settled: the best set of two victims, or a lower bound on the victims of any feasible set. */
export type PairSearch =
  | { readonly found: 'pair'; readonly victims: readonly [number, number] }
  /**
   * `fewest`: 3 when no pair is enough; 2 when none is enough alone but the search stopped at its read
   * limit; 1 when one is enough alone; 0 when no cluster is short or too many are.
   */
  | { readonly found: 'undecided'; readonly fewest: number };

/** Partners a search reads at most before it leaves the decision to the victim search. */
const PARTNERS_READ = 20_000;
/** Short clusters the search handles at most: it keeps a list of candidates per set of them. */
const MOST_SHORT = 8;

/**
 * The best set of two victims for a per-cluster requirement, at a cost that follows the candidates
 * read rather than the pairs (binding priority and preemption (000), "Preemption order").
 *
 * Candidates are listed in search order (priority, then the preemptor's order among equals), so a
 * pair {a, b}, a before b, compares as the victim search compares sets of two: b's priority (the
 * highest), then a's (the sum less the highest), then b's place, then a's. For each b in order the
 * best partner is the first candidate before it that closes every gap b leaves open on the short
 * clusters. Once a pair is found, a later b of the same priority needs a partner of lower priority
 * than the pair's, and a later b of higher priority cannot win.
 *
 * The partner must be resident on every cluster b leaves open, and where b is not resident it must
 * close the whole gap alone: so only the candidates of one list are read, those resident on each open
 * cluster or those closing each open cluster b is not on, whichever has fewer before the limit (a list
 * per set of short clusters). A b whose gap on some cluster exceeds the largest amount any candidate
 * before it frees there has no partner, and reads nothing.
 *
 * Sound for integer amounts below 2^52 (the oracle's `small`): a cluster holds its share when what
 * the victims free there reaches the gap, needed − room, of each resource. A set of two is the best
 * only when no candidate is enough alone, that is, none closes every gap alone, which this checks first.
 */
export function bestVictimPair({ amounts, room, needed, usage, placements, requirement }: OracleLayout): PairSearch {
  if (requirement.type !== 'per-cluster') return { found: 'undecided', fewest: 0 };
  const slots = amounts.length;
  const { candidates, firstEntry, entryCluster } = placements;
  const gaps = new ShortClusters(room, needed, slots);
  if (gaps.short.length === 0) return { found: 'undecided', fewest: 0 };
  if (gaps.short.length > MOST_SHORT) return { found: 'undecided', fewest: 0 };
  const { resident, closing } = gaps.lists(placements, usage);
  // A candidate enough alone closes every gap alone.
  if (closing[(1 << gaps.short.length) - 1]!.length > 0) return { found: 'undecided', fewest: 1 };

  // From the order's own array: reading each candidate's state costs more.
  const priorities = new Float64Array(candidates.length);
  for (let index = 0; index < candidates.length; index++) priorities[index] = placements.order.priorities[placements.ranks[index]!]!;
  /** [cluster × slots + slot]: the largest amount a candidate before b frees there. */
  const largestBefore = new Float64Array(room.length);
  let best: [number, number] | undefined;
  let read = 0;
  for (let b = 1; b < candidates.length; b++) {
    for (let entry = firstEntry[b - 1]!; entry < firstEntry[b]!; entry++) {
      const base = entryCluster[entry]! * slots;
      for (let slot = 0; slot < slots; slot++) largestBefore[base + slot] = Math.max(largestBefore[base + slot]!, usage[entry * slots + slot]!);
    }
    if (best && priorities[b]! > priorities[best[1]]!) break;
    // A partner comes before b and, against a pair of b's priority, is of lower priority than its partner.
    const limit = best ? Math.min(b, firstAtOrAbove(priorities, priorities[best[0]]!)) : b;
    if (limit === 0) break;
    gaps.leaveOpen(b, placements, usage);
    if (!gaps.reachable(largestBefore)) continue;
    const onEvery = resident[gaps.openMask]!;
    const closingWhereAbsent = gaps.absentMask === 0 ? undefined : closing[gaps.absentMask]!;
    const onEveryBefore = firstAtOrAbove(onEvery, limit);
    const closingBefore = closingWhereAbsent ? firstAtOrAbove(closingWhereAbsent, limit) : Number.POSITIVE_INFINITY;
    const [list, before] = closingBefore < onEveryBefore ? [closingWhereAbsent!, closingBefore] : [onEvery, onEveryBefore];
    for (let at = 0; at < before; at++) {
      if (++read > PARTNERS_READ) return { found: 'undecided', fewest: 2 };
      if (gaps.closesOpen(list[at]!, placements, usage)) {
        best = [list[at]!, b];
        break;
      }
    }
  }
  return best ? { found: 'pair', victims: best } : { found: 'undecided', fewest: 3 };
}

/** The short clusters of a layout, their gaps, and what one candidate leaves open of them. */
class ShortClusters {
  /** Clusters with a gap, ascending; the i-th is bit i of a mask. */
  readonly short: number[] = [];
  /** Of the candidate last given to leaveOpen: the short clusters it leaves open, and those of them it is not resident on. */
  openMask = 0;
  absentMask = 0;
  /** [cluster × slots + slot]: needed − room where positive, else 0. */
  private readonly gap: Float64Array;
  /** [cluster × slots + slot], on the short clusters: what the gap is after the candidate last given to leaveOpen. */
  private readonly residual: Float64Array;
  /** By cluster: its bit, 0 for a cluster without a gap. */
  private readonly bit: Int32Array;

  constructor(
    room: Float64Array,
    needed: Float64Array,
    private readonly slots: number,
  ) {
    const clusters = room.length / slots;
    this.gap = new Float64Array(room.length);
    this.residual = new Float64Array(room.length);
    this.bit = new Int32Array(clusters);
    for (let cluster = 0; cluster < clusters; cluster++) {
      for (let slot = 0; slot < slots; slot++) {
        const at = cluster * slots + slot;
        if (needed[at]! > 0 && room[at]! < needed[at]!) this.gap[at] = needed[at]! - room[at]!;
      }
      if (this.gap.subarray(cluster * slots, (cluster + 1) * slots).some((lacking) => lacking > 0)) {
        this.bit[cluster] = this.short.length < 31 ? 1 << this.short.length : 0;
        this.short.push(cluster);
      }
    }
  }

  /** Works out what candidate `b` leaves open: openMask, absentMask, the residual gaps. */
  leaveOpen(b: number, { firstEntry, entryCluster }: OracleLayout['placements'], usage: Float64Array): void {
    const slots = this.slots;
    // Only the short clusters' residual gaps are read: they alone are reset and lessened, however
    // many clusters the requirement has.
    for (const cluster of this.short) for (let slot = 0; slot < slots; slot++) this.residual[cluster * slots + slot] = this.gap[cluster * slots + slot]!;
    let onMask = 0;
    for (let entry = firstEntry[b]!; entry < firstEntry[b + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      if (this.bit[cluster] === 0) continue;
      onMask |= this.bit[cluster]!;
      for (let slot = 0; slot < slots; slot++) this.residual[cluster * slots + slot]! -= usage[entry * slots + slot]!;
    }
    this.openMask = 0;
    for (const cluster of this.short) if (this.isOpen(cluster)) this.openMask |= this.bit[cluster]!;
    this.absentMask = this.openMask & ~onMask;
  }

  /** Whether the largest amounts before the candidate (by cluster and slot) could close what it leaves open. */
  reachable(largest: Float64Array): boolean {
    for (const cluster of this.short) {
      for (let at = cluster * this.slots; at < (cluster + 1) * this.slots; at++) if (this.residual[at]! > largest[at]! && this.gap[at]! > 0) return false;
    }
    return true;
  }

  /** Whether candidate `a` closes every gap the candidate last given to leaveOpen leaves open. */
  closesOpen(a: number, { firstEntry, entryCluster }: OracleLayout['placements'], usage: Float64Array): boolean {
    const slots = this.slots;
    let closed = 0;
    for (let entry = firstEntry[a]!; entry < firstEntry[a + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      if ((this.openMask & this.bit[cluster]!) === 0) continue;
      let enough = true;
      for (let slot = 0; slot < slots && enough; slot++) {
        const left = this.residual[cluster * slots + slot]!;
        enough = left <= 0 || usage[entry * slots + slot]! >= left;
      }
      if (enough) closed |= this.bit[cluster]!;
    }
    return closed === this.openMask;
  }

  /**
   * By set of short clusters (a mask): the candidates resident on each of them, and those closing each
   * of their gaps alone, ascending.
   */
  lists({ firstEntry, entryCluster }: OracleLayout['placements'], usage: Float64Array): { resident: Int32Array[]; closing: Int32Array[] } {
    const slots = this.slots;
    const n = firstEntry.length - 1;
    const residentMask = new Int32Array(n);
    const closingMask = new Int32Array(n);
    for (let candidate = 0; candidate < n; candidate++) {
      for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
        const cluster = entryCluster[entry]!;
        const bit = this.bit[cluster]!;
        if (bit === 0) continue;
        residentMask[candidate]! |= bit;
        let closes = true;
        for (let slot = 0; slot < slots && closes; slot++) {
          const lacking = this.gap[cluster * slots + slot]!;
          closes = lacking <= 0 || usage[entry * slots + slot]! >= lacking;
        }
        if (closes) closingMask[candidate]! |= bit;
      }
    }
    return { resident: bySubset(residentMask, 1 << this.short.length), closing: bySubset(closingMask, 1 << this.short.length) };
  }

  private isOpen(cluster: number): boolean {
    for (let slot = 0; slot < this.slots; slot++) if (this.residual[cluster * this.slots + slot]! > 0) return true;
    return false;
  }
}

/** By mask m (below `size`): the candidates whose mask holds m, ascending. */
function bySubset(masks: Int32Array, size: number): Int32Array[] {
  const counts = new Int32Array(size);
  for (let candidate = 0; candidate < masks.length; candidate++) {
    const mask = masks[candidate]!;
    for (let subset = mask; subset !== 0; subset = (subset - 1) & mask) counts[subset]!++;
  }
  const lists: Int32Array[] = [];
  for (let subset = 0; subset < size; subset++) lists.push(new Int32Array(counts[subset]!));
  const filled = new Int32Array(size);
  for (let candidate = 0; candidate < masks.length; candidate++) {
    const mask = masks[candidate]!;
    for (let subset = mask; subset !== 0; subset = (subset - 1) & mask) lists[subset]![filled[subset]!++] = candidate;
  }
  return lists;
}
