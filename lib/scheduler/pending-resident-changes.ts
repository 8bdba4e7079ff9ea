import { firstAtOrAbove } from './rank-search';
import type { RankedResidents } from './snapshot';

const RELEASED = -1;

/**
 * The residents a cluster admitted or released, by rank, since its residents by rank were last read.
 * A decision placed and its victims evicted change many clusters, and a schedule cycle reads few of
 * them before the next change: the changes are merged into the residents when they are next read, all
 * at once, rather than each copying them. Changes that cancel out (a resident released and admitted
 * again as it was) leave them as they are.
 */
export class PendingResidentChanges {
  /** By rank: its replicas now, or RELEASED. */
  private readonly changes = new Map<number, number>();

  admitted(rank: number, replicas: number): void {
    this.changes.set(rank, replicas);
  }

  released(rank: number): void {
    this.changes.set(rank, RELEASED);
  }

  /** Ranks changed. */
  get size(): number {
    return this.changes.size;
  }

  /** Forgets the changes: the residents are read again from the cluster. */
  clear(): void {
    this.changes.clear();
  }

  /** The residents with the changes made (the same object when they change nothing); the changes are then forgotten. */
  appliedTo(residents: RankedResidents): RankedResidents {
    if (this.changes.size === 0) return residents;
    const { ranks, replicas } = residents;
    const changed = [...this.changes.keys()].sort((a, b) => a - b);
    let length = ranks.length;
    let differs = false;
    for (const rank of changed) {
      const at = firstAtOrAbove(ranks, rank);
      const held = ranks[at] === rank;
      const now = this.changes.get(rank)!;
      if (now === RELEASED) {
        if (held) length--;
        differs ||= held;
      } else {
        if (!held) length++;
        differs ||= !held || replicas[at] !== now;
      }
    }
    if (!differs) {
      this.changes.clear();
      return residents;
    }
    const mergedRanks = new Int32Array(length);
    const mergedReplicas = new Float64Array(length);
    let out = 0;
    let next = 0;
    for (let at = 0; at <= ranks.length; at++) {
      const rank = at < ranks.length ? ranks[at]! : Number.POSITIVE_INFINITY;
      // Ranks admitted that were not resident, up to this one.
      for (; next < changed.length && changed[next]! < rank; next++) {
        const now = this.changes.get(changed[next]!)!;
        if (now === RELEASED) continue;
        mergedRanks[out] = changed[next]!;
        mergedReplicas[out++] = now;
      }
      if (at === ranks.length) break;
      let count = replicas[at]!;
      if (next < changed.length && changed[next] === rank) {
        count = this.changes.get(rank)!;
        next++;
        if (count === RELEASED) continue;
      }
      mergedRanks[out] = rank;
      mergedReplicas[out++] = count;
    }
    this.changes.clear();
    return { ranks: mergedRanks, replicas: mergedReplicas };
  }
}
