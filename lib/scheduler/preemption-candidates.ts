import type { BindingState, ClusterState, SchedulingSnapshot } from './snapshot';

/**
 * The victim candidates on a set of clusters and where each is placed among them, as flat arrays: the
 * victim search asks about them thousands of times per decision.
 */
export interface CandidatePlacements {
  /** By priority, then key: the order the victim search itself uses. */
  readonly candidates: readonly BindingState[];
  /** Candidate i holds entries [firstEntry[i], firstEntry[i + 1]). */
  readonly firstEntry: Int32Array;
  /** Index, in the clusters given, of the cluster an entry is on. */
  readonly entryCluster: Int32Array;
  readonly entryReplicas: Float64Array;
}

/**
 * The victim candidates of `preemptor` (isVictimCandidate) on the clusters, read from their residents
 * (a binding once, however many of the clusters it is on) as ranks in the snapshot's priority order:
 * the candidates are the residents below the preemptor's priority that may be victims, other than the
 * preemptor, and nothing is sorted or read from a binding per decision; keys are looked up only when a
 * cluster's residents have changed (SchedulingSnapshot.rankedResidents).
 */
export function candidatePlacements(
  clusters: readonly ClusterState[],
  snapshot: SchedulingSnapshot,
  preemptor: BindingState,
): CandidatePlacements {
  const { states, rank, priorities, mayBeVictim } = snapshot.priorityOrder();
  const below = firstRankAtOrAbove(priorities, preemptor.priority);
  const own = rank.get(preemptor.key) ?? -1;
  const ranked = clusters.map((cluster) => snapshot.rankedResidents(cluster));
  const size = ranked.reduce((sum, residents) => sum + residents.ranks.length, 0);
  const residentRank = new Int32Array(size);
  const residentCluster = new Int32Array(size);
  const residentReplicas = new Float64Array(size);
  const isResident = new Uint8Array(states.length);
  let offset = 0;
  ranked.forEach(({ ranks, replicas }, index) => {
    residentRank.set(ranks, offset);
    residentReplicas.set(replicas, offset);
    residentCluster.fill(index, offset, offset + ranks.length);
    offset += ranks.length;
  });
  for (const position of residentRank) isResident[position] = 1;

  // One pass over the order below the preemptor, a byte or two per binding, gives the candidates sorted.
  const candidates: BindingState[] = [];
  const candidateAt = new Int32Array(states.length).fill(-1);
  for (let position = 0; position < below; position++) {
    if (isResident[position] === 1 && mayBeVictim[position] === 1 && position !== own) {
      candidateAt[position] = candidates.push(states[position]!) - 1;
    }
  }

  const firstEntry = new Int32Array(candidates.length + 1);
  for (let r = 0; r < size; r++) {
    const candidate = candidateAt[residentRank[r]!]!;
    if (candidate >= 0) firstEntry[candidate + 1]!++;
  }
  for (let i = 0; i < candidates.length; i++) firstEntry[i + 1]! += firstEntry[i]!;
  const next = firstEntry.slice(0, candidates.length);
  const entryCluster = new Int32Array(firstEntry[candidates.length]!);
  const entryReplicas = new Float64Array(entryCluster.length);
  for (let r = 0; r < size; r++) {
    const candidate = candidateAt[residentRank[r]!]!;
    if (candidate < 0) continue;
    const entry = next[candidate]!++;
    entryCluster[entry] = residentCluster[r]!;
    entryReplicas[entry] = residentReplicas[r]!;
  }
  return { candidates, firstEntry, entryCluster, entryReplicas };
}

/** The first rank whose priority is not below `priority`: every rank before it is strictly lower. */
function firstRankAtOrAbove(priorities: Float64Array, priority: number): number {
  let low = 0;
  let high = priorities.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (priorities[mid]! < priority) low = mid + 1;
    else high = mid;
  }
  return low;
}
