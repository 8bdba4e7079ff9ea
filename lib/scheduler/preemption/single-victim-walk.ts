import { amountOf, type ResourceList } from '../../resources';
import type { Requirement } from '../replica-strategy';
import type { BindingState, ClusterState, RankedResidents, SchedulingSnapshot } from '../snapshot';
import { firstRankAtOrAbove } from './preemption-candidates';
import { placeOf, preemptorStart, rankAt, tieRun } from './victim-tie-order';
import { firstAtOrAbove } from '../rank-search';

/** What the walk found: the best victim set when it is one victim, or that the full search must decide. */
export type SingleVictimWalk =
  | { readonly found: 'victim'; readonly victim: BindingState }
  /** The requirement is met with nobody evicted: there is nothing to preempt. */
  | { readonly found: 'nothing-needed' }
  | { readonly found: 'undecided' };

/**
 * One victim is the commonest answer, and when one is enough the best is the first candidate in the
 * victim search's order (lowest priority, then the preemptor's order among equals, victim-tie-order.ts)
 * that is enough alone: any single victim beats any
 * set of two or more, and among single victims the order is the tie-break itself (victim-search.ts).
 * This steps through each priority's ranks in that order, from the lowest priority the clusters hold
 * up (the clusters' residents kept by rank tell which that is), and stops at that candidate, reading
 * only the ranks before it, so that its cost follows where the victim is in the order, not how many
 * bindings the clusters hold; the full search then never lays the clusters' residents out. Where few
 * of a priority's bindings are on the clusters, their residents of that priority are read and put in
 * the order instead.
 *
 * A candidate is what candidatePlacements reads: a binding below the preemptor's priority that may be a
 * victim, other than the preemptor, resident on one of `clusters`. Enough alone is what the oracle
 * answers (placement-oracle.ts) with only it evicted: each cluster holds ⌊(room + freed) / request⌋
 * replicas, the least over the requested resources. After `limit` ranks read without one enough the
 * walk gives up (undecided), and what it costs then is bounded by `limit`, whatever the density. Spread
 * requirements are left to the search (their rule reads every cluster's replicas at once).
 */
export function walkToSingleVictim(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
  room: (cluster: ClusterState) => ResourceList,
  limit: number,
): SingleVictimWalk {
  if (requirement.type === 'spread') return { found: 'undecided' };
  const resources = Object.keys(preemptor.request).filter((resource) => preemptor.request[resource]! > 0);
  const amounts = resources.map((resource) => preemptor.request[resource]!);
  const slots = resources.length;
  const free = new Float64Array(clusters.length * slots);
  const before = new Float64Array(clusters.length);
  /** Per-cluster requirement: the replicas each cluster must hold (−∞ without a share). */
  const shares = new Float64Array(clusters.length).fill(Number.NEGATIVE_INFINITY);
  clusters.forEach((cluster, at) => {
    const list = room(cluster);
    for (let slot = 0; slot < slots; slot++) free[at * slots + slot] = amountOf(list, resources[slot]!);
    before[at] = replicasWith(free, at, amounts);
    if (requirement.type === 'per-cluster') shares[at] = requirement.need.get(cluster.name) ?? Number.NEGATIVE_INFINITY;
  });

  // Per-cluster: the clusters short of their share, each of which one victim must fill. Pooled: the
  // replicas missing, counted as the oracle counts them (at most the whole requirement per cluster).
  const short: number[] = [];
  let missing = 0;
  if (requirement.type === 'per-cluster') {
    clusters.forEach((_, at) => {
      if (before[at]! < shares[at]!) short.push(at);
    });
    if (short.length === 0) return { found: 'nothing-needed' };
  } else {
    let pooled = 0;
    for (let at = 0; at < clusters.length; at++) pooled += Math.min(before[at]!, requirement.replicas);
    if (pooled >= requirement.replicas) return { found: 'nothing-needed' };
    missing = requirement.replicas - pooled;
  }

  const order = snapshot.priorityOrder();
  const { priorities, mayBeVictim, states } = order;
  const below = firstRankAtOrAbove(priorities, preemptor.priority);
  const own = order.rank.get(preemptor.key) ?? -1;
  const residents = new LowestRanksFirst(clusters.map((cluster) => snapshot.rankedResidents(cluster)));
  const indexOf = new Map(clusters.map((cluster, at) => [cluster.name, at]));
  const columns = resources.map((resource) => order.requests(resource));
  const seed = preemptorStart(preemptor.key);
  const freed = new Float64Array(slots);
  const clusterOf = new Int32Array(clusters.length);
  const replicasOf = new Float64Array(clusters.length);
  let read = 0;

  /** Whether candidate `rank` is enough alone, read from where it is placed among the clusters (none: it is not on them). */
  const enoughAlone = (rank: number): boolean => {
    const { key, clusters: targets } = states[rank]!;
    let entries = 0;
    for (const target of targets) {
      const at = indexOf.get(target.name);
      const replicas = at === undefined ? undefined : clusters[at]!.residents.get(key);
      if (replicas === undefined || isListed(clusterOf, entries, at!)) continue;
      clusterOf[entries] = at!;
      replicasOf[entries++] = replicas;
    }
    if (entries === 0) return false;
    let gained = 0;
    let filled = 0;
    for (let entry = 0; entry < entries; entry++) {
      const at = clusterOf[entry]!;
      for (let slot = 0; slot < slots; slot++) freed[slot] = columns[slot]![rank]! * replicasOf[entry]!;
      const after = replicasWith(free, at, amounts, freed);
      if (requirement.type === 'per-cluster') {
        if (before[at]! < shares[at]! && after >= shares[at]!) filled++;
      } else {
        gained += Math.min(after, requirement.replicas) - Math.min(before[at]!, requirement.replicas);
      }
    }
    return requirement.type === 'per-cluster' ? filled === short.length : gained >= missing;
  };
  const isCandidate = (rank: number) => mayBeVictim[rank] === 1 && rank !== own;

  // Priority by priority, each in the preemptor's order among equals (victim-tie-order.ts).
  for (let first = 0; first < below && read < limit; ) {
    // The next priority any of the clusters holds: priorities none holds are passed over at once.
    residents.within(first, below);
    const lowest = residents.peek();
    if (lowest < 0) break;
    const run = tieRun(order, lowest, seed);
    residents.within(run.first, run.end);
    const held = residents.left();
    if (held * SPARSE < run.end - run.first && held <= limit - read) {
      // Few of the priority are on the clusters: stepping through all its ranks would mostly read
      // others, so its residents there are read and put in order.
      const places = new Int32Array(held);
      let count = 0;
      for (let rank = residents.next(); rank >= 0; rank = residents.next()) places[count++] = placeOf(run, rank);
      const inOrder = places.subarray(0, count).sort();
      for (const place of inOrder) {
        read++;
        const rank = rankAt(run, place);
        if (isCandidate(rank) && enoughAlone(rank)) return { found: 'victim', victim: states[rank]! };
      }
    } else {
      const n = run.end - run.first;
      for (let j = 0, offset = run.start; j < n && read < limit; j++, read++) {
        const rank = run.first + offset;
        if (isCandidate(rank) && enoughAlone(rank)) return { found: 'victim', victim: states[rank]! };
        offset += run.stride;
        if (offset >= n) offset -= n;
      }
    }
    first = run.end;
  }
  return { found: 'undecided' };
}

/** A binding listing one cluster twice is placed there once. */
function isListed(clusterOf: Int32Array, entries: number, at: number): boolean {
  for (let entry = 0; entry < entries; entry++) if (clusterOf[entry] === at) return true;
  return false;
}

/**
 * Below one resident on the clusters in this many ranks of a priority, the walk reads that priority's
 * residents there and sorts them rather than stepping through all its ranks.
 */
const SPARSE = 8;

/**
 * The residents of several clusters merged in rank order, within a range of ranks: a heap of the
 * clusters by their lowest rank not read yet. A binding on several of the clusters is one rank.
 */
class LowestRanksFirst {
  private readonly heap: number[] = [];
  private readonly cursor: Int32Array;
  private readonly stop: Int32Array;

  constructor(private readonly lists: readonly RankedResidents[]) {
    this.cursor = new Int32Array(lists.length);
    this.stop = new Int32Array(lists.length);
  }

  /** Reads the ranks in [from, to) from now on. */
  within(from: number, to: number): void {
    this.heap.length = 0;
    this.lists.forEach(({ ranks }, at) => {
      this.cursor[at] = firstAtOrAbove(ranks, from);
      this.stop[at] = firstAtOrAbove(ranks, to);
      this.push(at);
    });
  }

  /** How many residents are left in the range, a binding counted once per cluster it is on. */
  left(): number {
    let count = 0;
    for (let at = 0; at < this.lists.length; at++) count += this.stop[at]! - this.cursor[at]!;
    return count;
  }

  /** The lowest rank not read yet, −1 when none is left in the range; it is not read. */
  peek(): number {
    return this.heap.length === 0 ? -1 : this.head(this.heap[0]!);
  }

  /** The lowest rank not read yet, read on every cluster it is on; −1 when none is left in the range. */
  next(): number {
    if (this.heap.length === 0) return -1;
    const rank = this.head(this.heap[0]!);
    while (this.heap.length > 0 && this.head(this.heap[0]!) === rank) {
      const at = this.pop();
      this.cursor[at]!++;
      this.push(at);
    }
    return rank;
  }

  private head(at: number): number {
    return this.lists[at]!.ranks[this.cursor[at]!]!;
  }

  private push(at: number): void {
    if (this.cursor[at]! >= this.stop[at]!) return;
    const heap = this.heap;
    let child = heap.push(at) - 1;
    while (child > 0) {
      const parent = (child - 1) >>> 1;
      if (this.head(heap[parent]!) <= this.head(heap[child]!)) break;
      [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
      child = parent;
    }
  }

  private pop(): number {
    const heap = this.heap;
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length > 0) {
      heap[0] = last;
      for (let parent = 0; ; ) {
        const left = 2 * parent + 1;
        if (left >= heap.length) break;
        const right = left + 1;
        const child = right < heap.length && this.head(heap[right]!) < this.head(heap[left]!) ? right : left;
        if (this.head(heap[parent]!) <= this.head(heap[child]!)) break;
        [heap[parent], heap[child]] = [heap[child]!, heap[parent]!];
        parent = child;
      }
    }
    return top;
  }
}

/**
 * ⌊(room + freed) / request⌋ on cluster `at`, the least over the slots, as the oracle's availableReplicas
 * (remainder arithmetic, exact for any amount; ⌊x / a⌋ for the integers below 2^52 the oracle's shortcut takes).
 */
function replicasWith(free: Float64Array, at: number, amounts: readonly number[], freed?: Float64Array): number {
  let replicas = Number.MAX_SAFE_INTEGER;
  for (let slot = 0; slot < amounts.length; slot++) {
    const amount = amounts[slot]!;
    const available = Math.max(free[at * amounts.length + slot]! + (freed ? freed[slot]! : 0), 0);
    replicas = Math.min(replicas, (available - (available % amount)) / amount);
  }
  return replicas;
}

