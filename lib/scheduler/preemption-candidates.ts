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
 * Reads the candidates from the clusters' residents (a binding once, however many of the clusters it
 * is on) as ranks in the snapshot's priority order: nothing is sorted by key per decision, and keys are
 * looked up only when a cluster's residents have changed (SchedulingSnapshot.rankedResidents).
 */
export function candidatePlacements(
  clusters: readonly ClusterState[],
  snapshot: SchedulingSnapshot,
  isCandidate: (state: BindingState) => boolean,
): CandidatePlacements {
  const { states } = snapshot.priorityOrder();
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

  // One pass over the order, a byte per binding, gives the candidates already sorted.
  const candidates: BindingState[] = [];
  const candidateAt = new Int32Array(states.length).fill(-1);
  for (let position = 0; position < states.length; position++) {
    const state = states[position]!;
    if (isResident[position] === 1 && isCandidate(state)) candidateAt[position] = candidates.push(state) - 1;
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
