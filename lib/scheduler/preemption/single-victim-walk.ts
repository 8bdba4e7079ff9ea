import { amountOf, type ResourceList } from '../../resources';
import type { Requirement } from '../replica-strategy';
import type { BindingState, ClusterState, RankedResidents, SchedulingSnapshot } from '../snapshot';
import { inVictimOrder, placeOf, preemptorStart, rankAt, tieRun, type TieRun } from './victim-tie-order';
import { firstAtOrAbove } from '../rank-search';
import { exactIntegers, lowestEnoughWith, type VictimAmounts } from './victim-amounts';

/** What the walk found: the best victim set when it is one victim, or that the full search must decide. */
export type SingleVictimWalk =
  | { readonly found: 'victim'; readonly victim: BindingState }
  /** The requirement is met with nobody evicted: there is nothing to preempt. */
  | { readonly found: 'nothing-needed' }
  /**
   * `short`: for a per-cluster requirement, the clusters short of their share (none otherwise).
   * `pairsFrom`: with several of them, the lowest priority at which two victims might close every one's
   * gaps, by the largest amounts the snapshot keeps, the highest of the short clusters' (+∞ when some
   * short cluster's two largest never do; −∞ when none of the clusters' amounts can tell, or otherwise):
   * no set of two has a lower highest priority.
   */
  | { readonly found: 'undecided'; readonly short: readonly ClusterState[]; readonly pairsFrom: number };

/**
 * One victim is the commonest answer, and when one is enough the best is the first candidate in the
 * victim search's order (lowest priority, then the preemptor's order among equals, victim-tie-order.ts)
 * that is enough alone: any single victim beats any
 * set of two or more, and among single victims the order is the tie-break itself (victim-search.ts).
 * This takes the priorities from the lowest the clusters hold up (their residents kept by rank tell
 * which that is), each in that order, and stops at that candidate: a priority with no more residents on
 * the clusters than are left to read is read whole from them and put in order (kept by rank and stepped
 * through when they hold most of the priority, sorted by place otherwise); a larger one is stepped
 * through rank by rank in the preemptor's order, reading only the ranks before the candidate (those not
 * on the clusters passed over unread, by a mark per resident when they number at most MARKED_PER_LIMIT
 * times the read limit), and past its first STEPPED_FIRST places, when its residents number at most a few
 * times the read limit, the rest of them are collected and put in order instead. Its cost follows where
 * the victim is in the order and a bounded multiple of the read limit; the full search then never lays
 * the clusters' residents out.
 *
 * A candidate is what candidatePlacements reads: a binding below the preemptor's priority that may be a
 * victim, other than the preemptor, resident on one of `clusters`. Enough alone is what the oracle
 * answers (placement-oracle.ts) with only it evicted: each cluster holds ⌊(room + freed) / request⌋
 * replicas, the least over the requested resources. The walk reads up to its read limit (a resident of
 * the clusters read, or a rank stepped through in a large priority, is a read) and gives up (undecided)
 * there without one enough. The read limit is `limit`, or `share` of the clusters' residents from the
 * lowest priority read up to the preemptor's where that is more: what the walk costs then is bounded by
 * a multiple of `limit` whatever the density, or by a share of what the search would lay out (but for
 * several short clusters, below). Spread requirements are left to the search (their rule reads every
 * cluster's replicas at once).
 *
 * For one replica more, anywhere, one victim enough alone makes room for it on one cluster: the walk
 * starts at the lowest priority at which some cluster holds a resident that might, by the largest amounts
 * the snapshot keeps (victim-amounts.ts), and gives up at once when none does, so that residents too
 * small to make room alone are not read. (For more replicas the same holds of a replica more on some
 * cluster, but over a fleet's clusters that bound cost more to work out than the reads it spared,
 * counted on the density benchmark's fleet-full decisions.)
 *
 * For a per-cluster requirement one victim must fill every short cluster: none below the priority at
 * which each short cluster holds a resident that might fill it alone, by the largest amounts the
 * snapshot keeps (victim-amounts.ts), and none at all when one holds no such resident. With one short
 * cluster its residents are read from that priority; with several, only the bindings resident on all of
 * them, each in order, however many there are (`limit` is not read): finding them merges the short
 * clusters' residents by rank, a few integer comparisons per resident, and the walk then settles
 * whether one victim is enough.
 */
export function walkToSingleVictim(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
  room: (cluster: ClusterState) => ResourceList,
  limit: number,
  /** The read limit as a share of the clusters' residents from the lowest priority read up to the preemptor's, where that is more than `limit`. */
  share = 0,
): SingleVictimWalk {
  if (requirement.type === 'spread') return { found: 'undecided', short: [], pairsFrom: Number.NEGATIVE_INFINITY };
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
  const below = firstAtOrAbove(priorities, preemptor.priority);
  const lowestEnough = new LowestEnough(clusters, snapshot, resources, amounts, free);
  const closingEveryShort = (victims: number) => short.reduce((highest, at) => Math.max(highest, lowestEnough.on(at, shares[at]!, victims)), Number.NEGATIVE_INFINITY);
  const undecided: SingleVictimWalk = {
    found: 'undecided',
    short: short.map((at) => clusters[at]!),
    pairsFrom: requirement.type === 'per-cluster' && short.length > 1 ? closingEveryShort(2) : Number.NEGATIVE_INFINITY,
  };
  /**
   * One replica: the lowest priority at which some cluster holds a resident that might make room for it
   * alone. The clusters are read until one holds such a resident of the order's lowest priority, below
   * which there is none.
   */
  const makingRoomFrom = (): number => {
    const floor = priorities.length > 0 ? priorities[0]! : Number.POSITIVE_INFINITY;
    let lowest = Number.POSITIVE_INFINITY;
    for (let at = 0; at < clusters.length && lowest > floor; at++) lowest = Math.min(lowest, lowestEnough.on(at, 1, 1));
    return lowest;
  };
  // Per-cluster: below the priority at which every short cluster holds a resident that might fill it
  // alone, no candidate is enough alone; with none at all, no single victim is. One replica: none lies
  // below the lowest priority at which some cluster holds a resident that might make room for it alone.
  const fromPriority = requirement.type === 'per-cluster' ? closingEveryShort(1) : requirement.replicas === 1 ? makingRoomFrom() : Number.NEGATIVE_INFINITY;
  if (fromPriority === Number.POSITIVE_INFINITY) return undecided;
  const fromRank = firstAtOrAbove(priorities, fromPriority);
  const own = order.rank.get(preemptor.key) ?? -1;
  const indexOf = new Map(clusters.map((cluster, at) => [cluster.name, at]));
  const columns = resources.map((resource) => order.requests(resource));
  const seed = preemptorStart(preemptor.key);
  const freed = new Float64Array(slots);
  const clusterOf = new Int32Array(clusters.length);
  const replicasOf = new Float64Array(clusters.length);

  /** Whether candidate `rank` is enough alone, placed on `entries` of the clusters (clusterOf, replicasOf). */
  const enoughAlone = (rank: number, entries: number): boolean => {
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
  /** Where binding `rank` is placed among the clusters, into clusterOf and replicasOf, as their residents hold it: how many of them. */
  const placementOf = (rank: number): number => {
    const { key, clusters: targets } = states[rank]!;
    let entries = 0;
    // Indexed, not for…of: placements come as arrays of several kinds, for which an iterator is slow.
    for (let index = 0; index < targets.length; index++) {
      const target = targets[index]!;
      const at = indexOf.get(target.name);
      const replicas = at === undefined ? undefined : clusters[at]!.residents.get(key);
      if (replicas === undefined || isListed(clusterOf, entries, at!)) continue;
      clusterOf[entries] = at!;
      replicasOf[entries++] = replicas;
    }
    return entries;
  };
  const isCandidate = (rank: number) => mayBeVictim[rank] === 1 && rank !== own;

  if (requirement.type === 'per-cluster' && short.length > 1) {
    // A single victim is resident on every short cluster: only the bindings they share are read, in order.
    const shared = sharedRanks(short.map((at) => snapshot.rankedResidents(clusters[at]!)), fromRank, below);
    for (const rank of inVictimOrder(order, shared, seed)) {
      if (isCandidate(rank) && enoughAlone(rank, placementOf(rank))) return { found: 'victim', victim: states[rank]! };
    }
    return undecided;
  }

  // Per-cluster: a single victim fills the short cluster, so its residents alone are read (where else
  // each is placed is looked up).
  const readFrom = requirement.type === 'per-cluster' ? [short[0]!] : clusters.map((_, at) => at);
  const residents = new ResidentsInRange(readFrom.map((at) => snapshot.rankedResidents(clusters[at]!)));
  const readLimit = share > 0 ? Math.max(limit, Math.floor(residents.countWithin(fromRank, below) * share)) : limit;
  let read = 0;
  // Priority by priority, each in the preemptor's order among equals (victim-tie-order.ts).
  for (let first = fromRank; first < below && read < readLimit; ) {
    // The next priority any of the clusters holds: priorities none holds are passed over at once.
    residents.within(first, below);
    const lowest = residents.lowest();
    if (lowest < 0) break;
    const run = tieRun(order, lowest, seed);
    residents.within(run.first, run.end);
    const held = residents.count();
    /** The priority's residents on the clusters from `place` on in the preemptor's order (where each is read too), until `readLimit` are read. */
    const readCollected = (place: number): BindingState | undefined => {
      const inOrder = residentsInOrder(run, held, place, residents, readFrom);
      while (read < readLimit) {
        const rank = inOrder.nextInto(clusterOf, replicasOf);
        if (rank < 0) break;
        read++;
        if (!isCandidate(rank)) continue;
        const entries = requirement.type === 'per-cluster' ? placementOf(rank) : inOrder.listed;
        if (enoughAlone(rank, entries)) return states[rank]!;
      }
      return undefined;
    };
    const collectable = held < COLLECTED && held <= COLLECTED_PER_LIMIT * readLimit;
    let victim: BindingState | undefined;
    if (held <= readLimit - read && held < COLLECTED) {
      // Within what is left to read: read whole and put in order, whatever share of the priority they are.
      victim = readCollected(0);
    } else {
      // More than that: stepping through the priority's ranks in the preemptor's order costs what the
      // victim's place does, not the priority's size; past the first places, when the residents are few
      // enough, the rest of them are collected and put in order rather than stepped to.
      const n = run.end - run.first;
      // The priority's ranks resident on the clusters read, a bit each, when they are few enough to
      // mark at a fraction of what stepping costs: the others are passed over without reading their
      // bindings, which lie anywhere in memory.
      const resident = held <= MARKED_PER_LIMIT * readLimit ? new Uint32Array((n + 31) >>> 5) : undefined;
      if (resident) residents.forEach((_, rank) => (resident[(rank - run.first) >>> 5]! |= 1 << ((rank - run.first) & 31)));
      let place = 0;
      for (let offset = run.start; place < n && read < readLimit && !(collectable && place >= STEPPED_FIRST); place++, read++) {
        const rank = run.first + offset;
        if ((!resident || (resident[offset >>> 5]! & (1 << (offset & 31))) !== 0) && isCandidate(rank)) {
          const entries = placementOf(rank);
          if (entries > 0 && enoughAlone(rank, entries)) return { found: 'victim', victim: states[rank]! };
        }
        offset += run.stride;
        if (offset >= n) offset -= n;
      }
      if (place < n && read < readLimit) victim = readCollected(place);
    }
    if (victim) return { found: 'victim', victim };
    first = run.end;
  }
  return undecided;
}

/** The ranks in [from, to) resident on every one of the clusters (their residents by rank), ascending. */
function sharedRanks(lists: readonly RankedResidents[], from: number, to: number): number[] {
  const [fewest, ...others] = [...lists].sort((a, b) => a.ranks.length - b.ranks.length);
  const cursors = others.map(({ ranks }) => firstAtOrAbove(ranks, from));
  const shared: number[] = [];
  for (let index = firstAtOrAbove(fewest!.ranks, from); index < fewest!.ranks.length && fewest!.ranks[index]! < to; index++) {
    const rank = fewest!.ranks[index]!;
    let everywhere = true;
    for (let other = 0; other < others.length && everywhere; other++) {
      const { ranks } = others[other]!;
      while (cursors[other]! < ranks.length && ranks[cursors[other]!]! < rank) cursors[other]!++;
      everywhere = cursors[other]! < ranks.length && ranks[cursors[other]!] === rank;
    }
    if (everywhere) shared.push(rank);
  }
  return shared;
}

/**
 * The lowest priority at which a cluster holds `victims` residents that might bring it to `replicas`
 * replicas, by the largest amounts the snapshot keeps (lowestEnoughWith): +∞ when at none, −∞ when the
 * amounts cannot tell.
 */
class LowestEnough {
  private readonly gaps: Float64Array;
  private readonly held: VictimAmounts[];
  private readonly integralAmounts: boolean;

  constructor(
    private readonly clusters: readonly ClusterState[],
    private readonly snapshot: SchedulingSnapshot,
    private readonly resources: readonly string[],
    private readonly amounts: readonly number[],
    private readonly free: Float64Array,
  ) {
    this.gaps = new Float64Array(amounts.length);
    this.held = new Array<VictimAmounts>(amounts.length);
    this.integralAmounts = exactIntegers(amounts);
  }

  on(at: number, replicas: number, victims: number): number {
    const slots = this.amounts.length;
    for (let slot = 0; slot < slots; slot++) {
      this.gaps[slot] = Math.max(0, replicas * this.amounts[slot]! - this.free[at * slots + slot]!);
      this.held[slot] = this.snapshot.victimAmounts(this.clusters[at]!, this.resources[slot]!);
    }
    return lowestEnoughWith(this.held, this.gaps, 0, this.integralAmounts && exactIntegers(this.gaps), victims);
  }
}

/**
 * A large priority is stepped through for this many places, the victim being most often among the
 * first; past them its residents on the clusters are collected and put in order when they number at most
 * COLLECTED_PER_LIMIT times the limit, which costs less than stepping through the whole priority.
 */
const STEPPED_FIRST = 256;
const COLLECTED_PER_LIMIT = 4;
/**
 * A priority stepped through has its residents on the clusters marked when they number at most this many
 * times the limit: a mark costs a few integer operations, a binding read while stepping about a
 * microsecond at fleet size.
 */
const MARKED_PER_LIMIT = 16;

/** Collected holds fewer entries than this: an entry's index fits below its place in one number. */
const COLLECTED = 2 ** 21;

/** Entries per bucket of places, on average, when Collected puts its entries in order. */
const ENTRIES_PER_BUCKET = 16;

/**
 * A priority whose places number at most this many times its residents on the clusters read is stepped
 * through (SteppedResidents): a step costs an array read, working out a resident's place several divisions.
 */
const STEPPED_PER_RESIDENT = 8;

/** A priority's residents on the clusters read, from a place on, binding by binding in a preemptor's order. */
interface ResidentsInOrder {
  /** The next binding's rank, its entries (cluster, replicas) written into the arrays given; −1 when none is left. */
  nextInto(clusterOf: Int32Array, replicasOf: Float64Array): number;
  /** How many entries the last binding returned has. */
  readonly listed: number;
}

/**
 * The residents of `run`'s priority on the clusters (`held` of them, those in range of `residents`;
 * `readFrom` maps a list to its cluster's index) from place `from` on: stepped through when the priority
 * is dense on them, collected and put in order otherwise.
 */
function residentsInOrder(run: TieRun, held: number, from: number, residents: ResidentsInRange, readFrom: readonly number[]): ResidentsInOrder {
  if (run.end - run.first <= STEPPED_PER_RESIDENT * held) {
    const stepped = new SteppedResidents(run, held, from);
    residents.forEach((list, rank, replicas) => stepped.add(rank, readFrom[list]!, replicas));
    return stepped;
  }
  const collected = new Collected(held, run.end - run.first);
  residents.forEach((list, rank, replicas) => {
    const at = placeOf(run, rank);
    if (at >= from) collected.add(rank, at, readFrom[list]!, replicas);
  });
  collected.order();
  return collected;
}

/**
 * A priority's residents on the clusters kept by rank, a list of entries each, and read by stepping
 * through the priority's places in the preemptor's order from a given one: no resident's place is
 * worked out and nothing is sorted, and the steps taken follow the residents read.
 */
class SteppedResidents implements ResidentsInOrder {
  /** By rank within the run: 1 + its last entry added, 0 for a rank not resident. */
  private readonly lastEntry: Int32Array;
  /** By entry: 1 + the binding's entry added before it, 0 for its first. */
  private readonly previousEntry: Int32Array;
  private readonly entryCluster: Int32Array;
  private readonly entryReplicas: Float64Array;
  private entries = 0;
  /** The next place to step to, and its rank's offset in the run. */
  private place: number;
  private offset: number;
  listed = 0;

  constructor(
    private readonly run: TieRun,
    held: number,
    from: number,
  ) {
    this.lastEntry = new Int32Array(run.end - run.first);
    this.previousEntry = new Int32Array(held);
    this.entryCluster = new Int32Array(held);
    this.entryReplicas = new Float64Array(held);
    this.place = from;
    this.offset = from < run.end - run.first ? rankAt(run, from) - run.first : 0;
  }

  add(rank: number, cluster: number, replicas: number): void {
    const entry = this.entries++;
    this.previousEntry[entry] = this.lastEntry[rank - this.run.first]!;
    this.lastEntry[rank - this.run.first] = entry + 1;
    this.entryCluster[entry] = cluster;
    this.entryReplicas[entry] = replicas;
  }

  nextInto(clusterOf: Int32Array, replicasOf: Float64Array): number {
    const n = this.run.end - this.run.first;
    while (this.place < n) {
      const offset = this.offset;
      this.place++;
      this.offset += this.run.stride;
      if (this.offset >= n) this.offset -= n;
      let count = 0;
      for (let entry = this.lastEntry[offset]!; entry > 0; entry = this.previousEntry[entry - 1]!) {
        clusterOf[count] = this.entryCluster[entry - 1]!;
        replicasOf[count++] = this.entryReplicas[entry - 1]!;
      }
      if (count > 0) {
        this.listed = count;
        return this.run.first + offset;
      }
    }
    return -1;
  }
}

/**
 * A priority's residents on the clusters, an entry per binding and cluster, put in a preemptor's
 * order by sorting numbers: place × COLLECTED + entry, so that a binding's entries (one place) come
 * together. The walk most often stops within the first places, so the entries are put in buckets of
 * places (a pass over them) and each bucket sorted only when the walk first reads into it: what it
 * costs follows the places read, not the priority's residents sorted whole.
 */
class Collected implements ResidentsInOrder {
  private readonly keys: Float64Array;
  private readonly entryRank: Int32Array;
  private readonly entryCluster: Int32Array;
  private readonly entryReplicas: Float64Array;
  private entries = 0;
  /** The keys by bucket of places: bucket b is [bucketStart[b], bucketStart[b + 1]), sorted once read into. */
  private inOrder = new Float64Array(0);
  private bucketStart = new Int32Array(1);
  private sortedBuckets = 0;
  /** The next entry in order to read. */
  private next = 0;
  listed = 0;

  /** At most `held` entries, of places below `places`. */
  constructor(
    held: number,
    private readonly places: number,
  ) {
    this.keys = new Float64Array(held);
    this.entryRank = new Int32Array(held);
    this.entryCluster = new Int32Array(held);
    this.entryReplicas = new Float64Array(held);
  }

  add(rank: number, place: number, cluster: number, replicas: number): void {
    this.keys[this.entries] = place * COLLECTED + this.entries;
    this.entryRank[this.entries] = rank;
    this.entryCluster[this.entries] = cluster;
    this.entryReplicas[this.entries++] = replicas;
  }

  /** Puts the entries added in buckets of places, in place order; each is sorted when first read. */
  order(): void {
    const buckets = Math.max(1, Math.ceil(this.entries / ENTRIES_PER_BUCKET));
    const bucketOf = (key: number) => Math.floor((Math.floor(key / COLLECTED) * buckets) / this.places);
    const start = new Int32Array(buckets + 1);
    for (let entry = 0; entry < this.entries; entry++) start[bucketOf(this.keys[entry]!) + 1]!++;
    for (let bucket = 0; bucket < buckets; bucket++) start[bucket + 1]! += start[bucket]!;
    const next = start.slice(0, buckets);
    this.inOrder = new Float64Array(this.entries);
    for (let entry = 0; entry < this.entries; entry++) this.inOrder[next[bucketOf(this.keys[entry]!)]!++] = this.keys[entry]!;
    this.bucketStart = start;
  }

  nextInto(clusterOf: Int32Array, replicasOf: Float64Array): number {
    if (this.next >= this.entries) return -1;
    const first = this.keyAt(this.next);
    const place = Math.floor(first / COLLECTED);
    let count = 0;
    // A binding's entries share its place, and so its bucket: sorted with the first of them.
    for (; this.next < this.entries && Math.floor(this.inOrder[this.next]! / COLLECTED) === place; this.next++, count++) {
      const entry = this.inOrder[this.next]! % COLLECTED;
      clusterOf[count] = this.entryCluster[entry]!;
      replicasOf[count] = this.entryReplicas[entry]!;
    }
    this.listed = count;
    return this.entryRank[first % COLLECTED]!;
  }

  /** The `at`-th key in order, the buckets up to its own sorted first. */
  private keyAt(at: number): number {
    const buckets = this.bucketStart.length - 1;
    while (this.sortedBuckets < buckets && this.bucketStart[this.sortedBuckets]! <= at) {
      this.inOrder.subarray(this.bucketStart[this.sortedBuckets]!, this.bucketStart[this.sortedBuckets + 1]!).sort();
      this.sortedBuckets++;
    }
    return this.inOrder[at]!;
  }
}

/** A binding listing one cluster twice is placed there once. */
function isListed(clusterOf: Int32Array, entries: number, at: number): boolean {
  for (let entry = 0; entry < entries; entry++) if (clusterOf[entry] === at) return true;
  return false;
}

/** The residents of several clusters (kept by rank) within a range of ranks. */
class ResidentsInRange {
  private readonly cursor: Int32Array;
  private readonly stop: Int32Array;

  constructor(private readonly lists: readonly RankedResidents[]) {
    this.cursor = new Int32Array(lists.length);
    this.stop = new Int32Array(lists.length);
  }

  /** Reads the ranks in [from, to) from now on. */
  within(from: number, to: number): void {
    this.lists.forEach(({ ranks }, at) => {
      this.cursor[at] = firstAtOrAbove(ranks, from);
      this.stop[at] = firstAtOrAbove(ranks, to);
    });
  }

  /** The lowest rank in the range on any of the clusters, −1 when none is. */
  lowest(): number {
    let lowest = -1;
    this.lists.forEach(({ ranks }, at) => {
      if (this.cursor[at]! < this.stop[at]! && (lowest < 0 || ranks[this.cursor[at]!]! < lowest)) lowest = ranks[this.cursor[at]!]!;
    });
    return lowest;
  }

  /** How many residents are in [from, to), a binding counted once per cluster it is on. */
  countWithin(from: number, to: number): number {
    this.within(from, to);
    return this.count();
  }

  /** How many residents are in the range, a binding counted once per cluster it is on. */
  count(): number {
    let count = 0;
    for (let at = 0; at < this.lists.length; at++) count += this.stop[at]! - this.cursor[at]!;
    return count;
  }

  /** Each resident in the range, cluster by cluster: the cluster (index in the lists), its rank and replicas there. */
  forEach(visit: (at: number, rank: number, replicas: number) => void): void {
    this.lists.forEach(({ ranks, replicas }, at) => {
      for (let index = this.cursor[at]!; index < this.stop[at]!; index++) visit(at, ranks[index]!, replicas[index]!);
    });
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

