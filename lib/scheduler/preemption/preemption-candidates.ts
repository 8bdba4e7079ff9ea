import type { BindingState, ClusterState, PriorityOrder, SchedulingSnapshot } from '../snapshot';
import { firstAbove, firstAtOrAbove } from '../rank-search';
import { inVictimOrder, preemptorStart } from './victim-tie-order';

/**
 * The victim candidates on a set of clusters and where each is placed among them, as flat arrays: the
 * victim search asks about them thousands of times per decision.
 */
export interface CandidatePlacements {
  /** By priority, then the preemptor's order among equals (victim-tie-order.ts): the order the victim search uses. */
  readonly candidates: readonly BindingState[];
  /** The snapshot's priority order when the candidates were read, and each candidate's rank in it. */
  readonly order: PriorityOrder;
  readonly ranks: Int32Array;
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
 * preemptor, by priority and within each priority in the preemptor's own order (victim-tie-order.ts),
 * and nothing is read from a binding per decision; keys are looked up only when a
 * cluster's residents have changed (SchedulingSnapshot.rankedResidents).
 */
export function candidatePlacements(
  clusters: readonly ClusterState[],
  snapshot: SchedulingSnapshot,
  preemptor: BindingState,
  /** Only candidates of this priority or lower (a caller that wants no victim above it). */
  highestPriority = Number.POSITIVE_INFINITY,
): CandidatePlacements {
  const order = snapshot.priorityOrder();
  const { states, rank, priorities, mayBeVictim } = order;
  const below = Math.min(firstAtOrAbove(priorities, preemptor.priority), firstAbove(priorities, highestPriority));
  const own = rank.get(preemptor.key) ?? -1;
  const residents = clusters.map((cluster) => snapshot.rankedResidents(cluster));

  // A bit per rank below the preemptor's for the bindings on the clusters; reading the bits in order
  // gives them sorted, 32 ranks to a word.
  const resident = new Uint32Array(Math.ceil(below / 32));
  for (const { ranks } of residents) {
    for (let r = 0; r < ranks.length; r++) if (ranks[r]! < below) resident[ranks[r]! >>> 5]! |= 1 << (ranks[r]! & 31);
  }
  const ascending: number[] = [];
  for (let word = 0; word < resident.length; word++) {
    for (let bits = resident[word]!; bits !== 0; bits &= bits - 1) {
      const position = (word << 5) + 31 - Math.clz32(bits & -bits);
      if (mayBeVictim[position] === 1 && position !== own) ascending.push(position);
    }
  }
  const candidateRanks = inVictimOrder(order, ascending, preemptorStart(preemptor.key));
  // By rank: 1 + its index for a candidate, in a buffer kept between calls and cleared after each: a
  // new one the size of the order would cost more than the candidates.
  const slot = slotsFor(below);
  const candidates = new Array<BindingState>(candidateRanks.length);
  for (let index = 0; index < candidateRanks.length; index++) {
    candidates[index] = states[candidateRanks[index]!]!;
    slot[candidateRanks[index]!] = index + 1;
  }

  const firstEntry = new Int32Array(candidates.length + 1);
  for (const { ranks } of residents) {
    for (let r = 0; r < ranks.length; r++) {
      const candidate = ranks[r]! < below ? slot[ranks[r]!]! : 0;
      if (candidate > 0) firstEntry[candidate]!++;
    }
  }
  for (let i = 0; i < candidates.length; i++) firstEntry[i + 1]! += firstEntry[i]!;
  const next = firstEntry.slice(0, candidates.length);
  const entryCluster = new Int32Array(firstEntry[candidates.length]!);
  const entryReplicas = new Float64Array(entryCluster.length);
  residents.forEach(({ ranks, replicas }, cluster) => {
    for (let r = 0; r < ranks.length; r++) {
      const candidate = ranks[r]! < below ? slot[ranks[r]!]! : 0;
      if (candidate <= 0) continue;
      const entry = next[candidate - 1]!++;
      entryCluster[entry] = cluster;
      entryReplicas[entry] = replicas[r]!;
    }
  });
  for (let index = 0; index < candidateRanks.length; index++) slot[candidateRanks[index]!] = 0;
  return { candidates, order, ranks: candidateRanks, firstEntry, entryCluster, entryReplicas };
}

/** candidatePlacements' rank-to-candidate buffer: all zeros between calls. */
let slots = new Int32Array(0);

function slotsFor(ranks: number): Int32Array {
  if (slots.length < ranks) slots = new Int32Array(Math.max(ranks, slots.length * 2));
  return slots;
}
