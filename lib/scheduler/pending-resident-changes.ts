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
    /** [rank, replicas now or RELEASED], by rank. */
    const changed = [...this.changes].sort((a, b) => a[0] - b[0]);
    this.changes.clear();
    let length = ranks.length;
    let differs = false;
    for (const [rank, now] of changed) {
      const at = firstAtOrAbove(ranks, rank);
      const held = ranks[at] === rank;
      if (now === RELEASED) {
        if (held) length--;
        differs ||= held;
      } else {
        if (!held) length++;
        differs ||= !held || replicas[at] !== now;
      }
    }
    if (!differs) return residents;
    const mergedRanks = new Int32Array(length);
    const mergedReplicas = new Float64Array(length);
    let out = 0;
    let next = 0;
    for (let at = 0; at <= ranks.length; at++) {
      const rank = at < ranks.length ? ranks[at]! : Number.POSITIVE_INFINITY;
      // Ranks admitted that were not resident, up to this one.
      for (; next < changed.length && changed[next]![0] < rank; next++) {
        const [admitted, now] = changed[next]!;
        if (now === RELEASED) continue;
        mergedRanks[out] = admitted;
        mergedReplicas[out++] = now;
      }
      if (at === ranks.length) break;
      let count = replicas[at]!;
      if (next < changed.length && changed[next]![0] === rank) {
        count = changed[next++]![1];
        if (count === RELEASED) continue;
      }
      mergedRanks[out] = rank;
      mergedReplicas[out++] = count;
    }
    return { ranks: mergedRanks, replicas: mergedReplicas };
  }
}
