import { LargestSums } from './largest-sums';
import type { OracleLayout } from './victim-count-bound';

/** Sets of candidates on several short clusters weighed at most, before the bound settles for their size. */
const SHARED_SETS_WEIGHED = 256;

/**
 * How many victims, at least, any feasible set of the candidates has: the count the staged search
 * (staged-victim-search.ts) must meet to prove a prefix's best set the best of all. Sound for integer
 * amounts below 2^52 (the oracle's `small`), as victim-count-bound.ts; 0 where it knows nothing better
 * than that module's bound.
 *
 * A requirement met on one cluster (a pooled requirement of one replica: some cluster must hold it)
 * has its fewest victims on that cluster: a victim on no other cluster is needed there, so at least
 * the fewest that close that cluster's gaps, the least of that over the clusters.
 *
 * A per-cluster requirement needs every short cluster's gaps closed. A victim on one short cluster
 * closes that cluster's gaps alone; the few on several (shared) close several. Any feasible set is
 * some shared victims Q and, on each short cluster, victims of that cluster alone closing what Q
 * leaves open there: at least |Q| plus, per cluster, the fewest of its own victims' largest amounts
 * that close each gap. The bound is the least of that over every Q weighed, and no more than the size
 * of the sets not weighed when there are too many of them.
 */
export function fewestVictims({ amounts, room, needed, usage, placements, requirement }: OracleLayout): number {
  if (requirement.type === 'per-cluster') return fewestClosingEveryCluster(new ClusterGaps(amounts, room, needed, usage, placements));
  if (requirement.replicas !== 1) return 0;
  const oneReplica = new Float64Array(room.length);
  for (let at = 0; at < room.length; at++) oneReplica[at] = amounts[at % amounts.length]!;
  const gaps = new ClusterGaps(amounts, room, oneReplica, usage, placements);
  // A cluster without a gap holds the replica already.
  if (gaps.shortClusters.length < room.length / amounts.length) return 0;
  let fewest = Number.POSITIVE_INFINITY;
  for (const cluster of gaps.shortClusters) fewest = Math.min(fewest, gaps.fewestOn(cluster, gaps.shortfall, false));
  return fewest;
}

function fewestClosingEveryCluster(gaps: ClusterGaps): number {
  const shared = gaps.shared;
  const left = gaps.shortfall.slice();
  let best = Number.POSITIVE_INFINITY;
  let weighed = 0;
  // Sets of shared victims by size, all of one size before the next: a set of `size` or more weighs at least `size`.
  for (let size = 0; size <= shared.length && size < best; size++) {
    if (weighed + combinations(shared.length, size) > SHARED_SETS_WEIGHED) return Math.min(best, size);
    let chosen = 0;
    const visit = (from: number): void => {
      if (chosen === size) {
        weighed++;
        let total = size;
        for (const cluster of gaps.shortClusters) total += gaps.fewestOn(cluster, left, true);
        best = Math.min(best, total);
        return;
      }
      for (let m = from; m <= shared.length - (size - chosen); m++) {
        chosen++;
        gaps.close(left, m, -1);
        visit(m + 1);
        gaps.close(left, m, 1);
        chosen--;
      }
    };
    visit(0);
  }
  return best;
}

function combinations(n: number, k: number): number {
  let result = 1;
  for (let i = 0; i < k; i++) result = (result * (n - i)) / (i + 1);
  return result;
}

/**
 * The gaps of a layout, a cluster's resource lacking what `wanted` asks there ([cluster × slots +
 * slot], room below it), and what the candidates close of them.
 */
class ClusterGaps {
  /** By gap: what it lacks before any eviction. */
  readonly shortfall: Float64Array;
  /** Clusters with a gap, ascending. */
  readonly shortClusters: number[] = [];
  /** Candidates that close gaps on two short clusters or more. */
  readonly shared: number[] = [];
  /** By cluster: its gaps. */
  private readonly gapsOf = new Map<number, number[]>();
  /** By shared candidate (its index in `shared`): what it closes of each gap. */
  private readonly sharedCloses: Float64Array[] = [];
  /** By gap: the largest amounts that close it, of every candidate and of the unshared only. */
  private readonly largest: LargestSums[];
  private readonly unsharedLargest: LargestSums[];

  constructor(
    amounts: readonly number[],
    room: Float64Array,
    wanted: Float64Array,
    usage: Float64Array,
    { firstEntry, entryCluster }: OracleLayout['placements'],
  ) {
    const slots = amounts.length;
    const gapAt = new Int32Array(room.length).fill(-1);
    const shortfall: number[] = [];
    for (let at = 0; at < room.length; at++) {
      if (wanted[at]! > 0 && room[at]! < wanted[at]!) {
        const cluster = Math.floor(at / slots);
        gapAt[at] = shortfall.length;
        shortfall.push(wanted[at]! - room[at]!);
        if (!this.gapsOf.has(cluster)) {
          this.gapsOf.set(cluster, []);
          this.shortClusters.push(cluster);
        }
        this.gapsOf.get(cluster)!.push(gapAt[at]!);
      }
    }
    this.shortfall = Float64Array.from(shortfall);
    const all: number[][] = shortfall.map(() => []);
    const unshared: number[][] = shortfall.map(() => []);
    for (let candidate = 0; candidate < firstEntry.length - 1; candidate++) {
      let on = 0;
      for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
        for (let slot = 0; slot < slots; slot++) {
          if (gapAt[entryCluster[entry]! * slots + slot]! >= 0 && usage[entry * slots + slot]! > 0) {
            on++;
            break;
          }
        }
      }
      if (on > 1) this.shared.push(candidate);
      const closes = on > 1 ? new Float64Array(shortfall.length) : undefined;
      if (closes) this.sharedCloses.push(closes);
      for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
        for (let slot = 0; slot < slots; slot++) {
          const gap = gapAt[entryCluster[entry]! * slots + slot]!;
          const amount = usage[entry * slots + slot]!;
          if (gap < 0 || amount <= 0) continue;
          all[gap]!.push(amount);
          if (closes) closes[gap] = amount;
          else unshared[gap]!.push(amount);
        }
      }
    }
    this.largest = all.map((values) => new LargestSums(values));
    this.unsharedLargest = unshared.map((values) => new LargestSums(values));
  }

  /** The fewest candidates (of those on this cluster alone when `unshared`) that close every gap of `cluster` left open in `left` (by gap). */
  fewestOn(cluster: number, left: Float64Array, unshared: boolean): number {
    let fewest = 0;
    for (const gap of this.gapsOf.get(cluster) ?? []) {
      fewest = Math.max(fewest, (unshared ? this.unsharedLargest : this.largest)[gap]!.fewestReaching(left[gap]!));
    }
    return fewest;
  }

  /** Adds `direction` × what the shared candidate `shared[m]` closes to every gap in `left`. */
  close(left: Float64Array, m: number, direction: 1 | -1): void {
    const closes = this.sharedCloses[m]!;
    for (let gap = 0; gap < left.length; gap++) left[gap]! += direction * closes[gap]!;
  }
}
