import { amountOf, type ResourceList } from '../../resources';
import type { CandidatePlacements } from './preemption-candidates';
import type { Requirement } from '../replica-strategy';
import type { BindingState, ClusterState, SchedulingSnapshot } from '../snapshot';
import { fewestVictims } from './fewest-victims';
import { bestVictimPair, type PairSearch } from './victim-pair-search';
import { withoutDominated } from './dominated-candidates';
import { EXACT_LIMIT } from './victim-amounts';
import { victimCountBound, type OracleLayout, type VictimCountBound } from './victim-count-bound';
import { DOMINATORS_LISTED, type FeasibilityOracle } from './victim-search';


/**
 * Tracks, as candidates are evicted and restored, whether the preemptor's requirement is met on the
 * relevant clusters, so that feasibility is answered without recomputing the fleet. The victim search
 * asks thousands of times per decision, so the state is flat arrays: the room each cluster has for the
 * resources the preemptor requests, what each candidate frees there, and what is freed so far. A
 * cluster holds ⌊(free + freed) / request⌋ replicas, the least over the requested resources, as
 * `availableReplicas(add(free, freed), request)` works it out.
 *
 * When every amount is an integer and no sum can pass 2^52 (any real fleet), shortcuts give the same
 * answers: evictions and restorations are only noted, and counted when feasibility is next asked (the
 * search moves candidates back and forth between questions and most moves cancel out; integer addition
 * below 2^53 is exact in any order); a cluster lacks room for its share when, for some resource,
 * free + freed < share × request, which needs no division; and ⌊free / request⌋ is exact, unlike near
 * 2^53, where availableReplicas needs remainder arithmetic. Otherwise each move is counted at once.
 */
export class PlacementOracle implements FeasibilityOracle {
  /** The preemptor's positive per-replica amounts; a resource's slot is its index here. */
  private readonly amounts: number[];
  /** [cluster × slots + slot]: free room before any eviction. */
  private readonly room: Float64Array;
  /** [cluster × slots + slot]: what the counted evictions give back. */
  private readonly freed: Float64Array;
  /** [entry × slots + slot]: what a candidate's entry frees, request × replicas. */
  private readonly usage: Float64Array;
  /** Per-cluster requirement: the replicas each cluster must hold (−∞ when it has no share). */
  private readonly shares: Float64Array;
  /** [cluster × slots + slot]: share × request. */
  private readonly needed: Float64Array;
  /** Per-cluster requirement: clusters without room for their share. */
  private readonly short: Uint8Array;
  private unsatisfied = 0;
  /** Pooled and spread requirements: replicas per cluster, and (pooled) their sum capped per cluster at what is needed. */
  private readonly replicas: Float64Array;
  private pooled = 0;
  private readonly small: boolean;
  private readonly wanted: Uint8Array;
  private readonly counted: Uint8Array;
  /** Candidates whose wanted state may differ from the counted one. */
  private readonly moved: Int32Array;
  private readonly isMoved: Uint8Array;
  private movedCount = 0;
  private bound: VictimCountBound | undefined;
  /** By candidate: its dominators as found (FeasibilityOracle.dominators), once asked. */
  private readonly dominatorsOf: (ArrayLike<number> | null | undefined)[] = [];
  /**
   * See FeasibilityOracle.feasibleWithFirst. Only with `small`: past it running sums could round where
   * the moves counted one by one do not, and the search evicts the candidates instead.
   */
  readonly feasibleWithFirst: ((count: number) => boolean) | undefined;
  private prefixes: PrefixFreed | undefined;
  /** feasibleWithFirst's replicas per cluster. */
  private scratch: Float64Array | undefined;
  /** Questions answered so far (feasible, feasibleWithFirst, lowerBound, completions): what a search spent of its budget. */
  questions = 0;

  constructor(
    preemptor: BindingState,
    clusters: readonly ClusterState[],
    private readonly placements: CandidatePlacements,
    snapshot: SchedulingSnapshot,
    private readonly requirement: Requirement,
    /** The room on a cluster before any eviction (see planPreemption). */
    roomOn: (cluster: ClusterState) => ResourceList = (cluster) => snapshot.free(cluster, preemptor),
  ) {
    const resources = Object.keys(preemptor.request).filter((resource) => preemptor.request[resource]! > 0);
    this.amounts = resources.map((resource) => preemptor.request[resource]!);
    const slots = resources.length;
    this.room = new Float64Array(clusters.length * slots);
    this.shares = new Float64Array(clusters.length);
    this.needed = new Float64Array(clusters.length * slots);
    clusters.forEach((cluster, index) => {
      const free = roomOn(cluster);
      this.shares[index] = requirement.type === 'per-cluster' ? (requirement.need.get(cluster.name) ?? -Infinity) : -Infinity;
      for (let slot = 0; slot < slots; slot++) {
        this.room[index * slots + slot] = amountOf(free, resources[slot]!);
        this.needed[index * slots + slot] = this.shares[index]! * this.amounts[slot]!;
      }
    });
    this.freed = new Float64Array(this.room.length);
    ({ usage: this.usage, small: this.small } = layUsage(placements, resources, this.amounts, this.room));
    this.feasibleWithFirst = this.small ? (count) => this.withFirst(count) : undefined;

    this.short = new Uint8Array(clusters.length);
    this.replicas = new Float64Array(clusters.length);
    for (let cluster = 0; cluster < clusters.length; cluster++) this.recount(cluster);
    const candidates = placements.candidates.length;
    this.wanted = new Uint8Array(candidates);
    this.counted = new Uint8Array(candidates);
    this.moved = new Int32Array(candidates);
    this.isMoved = new Uint8Array(candidates);
  }

  evict(index: number): void {
    this.move(index, 1);
  }

  restore(index: number): void {
    this.move(index, 0);
  }

  feasible(): boolean {
    this.questions++;
    this.countMoves();
    switch (this.requirement.type) {
      case 'per-cluster':
        return this.unsatisfied === 0;
      case 'pooled':
        return this.pooled >= this.requirement.replicas;
      case 'spread':
        // The pooled requirement it implies, counted as moves are, settles most questions at once.
        return this.pooled >= this.requirement.replicas && this.requirement.holds(this.replicas);
    }
  }

  /**
   * What the first `count` candidates free, read from sums kept per cluster (PrefixFreed), so a question
   * costs the clusters' resources, not the candidates (FeasibilityOracle.feasibleWithFirst).
   */
  private withFirst(count: number): boolean {
    this.questions++;
    this.countMoves();
    const slots = this.amounts.length;
    const clusters = this.shares.length;
    this.prefixes ??= new PrefixFreed(this.placements, slots, this.usage, clusters);
    if (this.requirement.type === 'per-cluster') {
      for (let cluster = 0; cluster < clusters; cluster++) {
        if (this.shares[cluster] === Number.NEGATIVE_INFINITY) continue;
        const first = this.prefixes.entriesBefore(cluster, count);
        for (let slot = 0; slot < slots; slot++) {
          const at = cluster * slots + slot;
          if (Math.max(this.room[at]! + this.freed[at]! + this.prefixes.freed(cluster, first, slot), 0) < this.needed[at]!) return false;
        }
      }
      return true;
    }
    const replicas = (this.scratch ??= new Float64Array(clusters));
    let pooled = 0;
    for (let cluster = 0; cluster < clusters; cluster++) {
      const first = this.prefixes.entriesBefore(cluster, count);
      let held = Number.MAX_SAFE_INTEGER;
      for (let slot = 0; slot < slots; slot++) {
        const at = cluster * slots + slot;
        const available = Math.max(this.room[at]! + this.freed[at]! + this.prefixes.freed(cluster, first, slot), 0);
        held = Math.min(held, Math.floor(available / this.amounts[slot]!));
      }
      replicas[cluster] = held;
      pooled += Math.min(held, this.requirement.replicas);
    }
    return pooled >= this.requirement.replicas && (this.requirement.type === 'pooled' || this.requirement.holds(replicas));
  }

  /** See FeasibilityOracle.lowerBound and victim-count-bound.ts. */
  lowerBound(evicted: readonly number[], below: number): number {
    this.questions++;
    return this.small ? this.countBound().lowerBound(evicted, below) : 0;
  }

  /** See FeasibilityOracle.completions and victim-count-bound.ts; without `small`, every candidate below `below`. */
  completions(evicted: readonly number[], below: number): ArrayLike<number> {
    this.questions++;
    const listed = this.small ? this.countBound().completions(evicted, below) : undefined;
    return listed ?? Int32Array.from({ length: Math.min(below, this.placements.candidates.length) }, (_, index) => index);
  }

  /** See StagedOracle.fewestVictims and fewest-victims.ts; 0 without `small`. */
  fewestVictims(): number {
    return this.small ? fewestVictims(this.layout()) : 0;
  }

  /** See victim-pair-search.ts; undecided (nothing known) without `small`. */
  bestPair(): PairSearch {
    return this.small ? bestVictimPair(this.layout()) : { found: 'undecided', fewest: 0 };
  }

  /**
   * See FeasibilityOracle.dominators: among the DOMINATORS_WINDOW candidates before `index`, those
   * freeing at least as much of each resource on each cluster where it frees some, read where that
   * counts: for a per-cluster requirement, the resources each cluster lacks for its share; for a pooled
   * one, every resource on every cluster (each cluster's replicas rise with what is freed there). Not
   * for a spread requirement, nor without `small`: an empty list then.
   */
  dominators(index: number): ArrayLike<number> | null {
    const known = this.dominatorsOf[index];
    if (known !== undefined) return known;
    const found = this.small && this.requirement.type !== 'spread' ? this.findDominators(index) : NO_DOMINATORS;
    this.dominatorsOf[index] = found;
    return found;
  }

  private findDominators(index: number): Int32Array | null {
    const { firstEntry, entryCluster } = this.placements;
    const slots = this.amounts.length;
    const perCluster = this.requirement.type === 'per-cluster';
    const found: number[] = [];
    for (let other = index - 1; other >= 0 && other >= index - DOMINATORS_WINDOW; other--) {
      let dominates = true;
      for (let entry = firstEntry[index]!; entry < firstEntry[index + 1]! && dominates; entry++) {
        const cluster = entryCluster[entry]!;
        let otherEntry = firstEntry[other]!;
        while (otherEntry < firstEntry[other + 1]! && entryCluster[otherEntry] !== cluster) otherEntry++;
        const onCluster = otherEntry < firstEntry[other + 1]!;
        for (let slot = 0; slot < slots && dominates; slot++) {
          const at = cluster * slots + slot;
          if (perCluster && !(this.needed[at]! > 0 && this.room[at]! < this.needed[at]!)) continue;
          const amount = this.usage[entry * slots + slot]!;
          dominates = amount <= 0 || (onCluster && this.usage[otherEntry * slots + slot]! >= amount);
        }
      }
      if (!dominates) continue;
      if (found.length === DOMINATORS_LISTED) return null;
      found.push(other);
    }
    return Int32Array.from(found.reverse());
  }

  /**
   * See dominated-candidates.ts: the candidates without those no best set holds, for a per-cluster
   * requirement; all of them otherwise, or without `small`.
   */
  undominated(): CandidatePlacements {
    if (!this.small || this.requirement.type !== 'per-cluster') return this.placements;
    const gaps = new Float64Array(this.room.length);
    for (let at = 0; at < gaps.length; at++) if (this.needed[at]! > 0 && this.room[at]! < this.needed[at]!) gaps[at] = this.needed[at]! - this.room[at]!;
    return withoutDominated(this.placements, gaps, this.usage);
  }

  /** Laid out when the search first asks. */
  private countBound(): VictimCountBound {
    this.bound ??= victimCountBound(this.layout());
    return this.bound;
  }

  private layout(): OracleLayout {
    return {
      amounts: this.amounts,
      room: this.room,
      needed: this.needed,
      usage: this.usage,
      placements: this.placements,
      // A spread requirement implies the pooled one, whose bounds hold for it too.
      requirement: this.requirement.type === 'spread' ? { type: 'pooled', replicas: this.requirement.replicas } : this.requirement,
    };
  }

  /** Counts the candidates moved since the last question as they are wanted now. */
  private countMoves(): void {
    for (let m = 0; m < this.movedCount; m++) {
      const index = this.moved[m]!;
      this.isMoved[index] = 0;
      if (this.wanted[index] !== this.counted[index]) this.count(index);
    }
    this.movedCount = 0;
  }

  private move(index: number, evicted: 0 | 1): void {
    this.wanted[index] = evicted;
    if (!this.small) {
      if (this.counted[index] !== evicted) this.count(index);
    } else if (this.isMoved[index] === 0) {
      this.isMoved[index] = 1;
      this.moved[this.movedCount++] = index;
    }
  }

  /** Counts candidate `index` as it is wanted now: evicted (its usage freed) or running. */
  private count(index: number): void {
    const direction = this.wanted[index] === 1 ? 1 : -1;
    this.counted[index] = this.wanted[index]!;
    const { firstEntry, entryCluster } = this.placements;
    const slots = this.amounts.length;
    for (let entry = firstEntry[index]!; entry < firstEntry[index + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      for (let slot = 0; slot < slots; slot++) this.freed[cluster * slots + slot]! += direction * this.usage[entry * slots + slot]!;
      this.recount(cluster);
    }
  }

  /** Brings the feasibility counters up to date with what is freed on `cluster`. */
  private recount(cluster: number): void {
    if (this.requirement.type === 'per-cluster') {
      const short = this.lacksShare(cluster) ? 1 : 0;
      this.unsatisfied += short - this.short[cluster]!;
      this.short[cluster] = short;
    } else {
      const replicas = this.replicasOn(cluster);
      this.pooled -= Math.min(this.replicas[cluster]!, this.requirement.replicas);
      this.replicas[cluster] = replicas;
      this.pooled += Math.min(replicas, this.requirement.replicas);
    }
  }

  private lacksShare(cluster: number): boolean {
    const slots = this.amounts.length;
    if (!this.small) return this.replicasOn(cluster) < this.shares[cluster]!;
    for (let slot = 0; slot < slots; slot++) {
      const at = cluster * slots + slot;
      if (Math.max(this.room[at]! + this.freed[at]!, 0) < this.needed[at]!) return true;
    }
    return false;
  }

  /** availableReplicas over the requested resources: the least, per resource, of whole requests in what is free. */
  private replicasOn(cluster: number): number {
    const slots = this.amounts.length;
    let replicas = Number.MAX_SAFE_INTEGER;
    for (let slot = 0; slot < slots; slot++) {
      const amount = this.amounts[slot]!;
      const available = Math.max(this.room[cluster * slots + slot]! + this.freed[cluster * slots + slot]!, 0);
      replicas = Math.min(replicas, this.small ? Math.floor(available / amount) : (available - (available % amount)) / amount);
    }
    return replicas;
  }
}

/** Candidates before one that FeasibilityOracle.dominators reads: its cost stays bounded however many there are. */
const DOMINATORS_WINDOW = 256;
const NO_DOMINATORS = new Int32Array(0);

/**
 * What each entry of each candidate frees of each requested resource, [entry × slots + slot], read from
 * the order's request columns; and whether every amount is an integer and no cluster's room and freed
 * amounts can together pass EXACT_LIMIT (the `small` shortcuts are exact then).
 */
export function layUsage(
  { order, ranks, firstEntry, entryCluster, entryReplicas }: CandidatePlacements,
  resources: readonly string[],
  amounts: readonly number[],
  room: Float64Array,
): { usage: Float64Array; small: boolean } {
  const slots = resources.length;
  const usage = new Float64Array(entryReplicas.length * slots);
  const reach = room.map(Math.abs);
  let integral = amounts.every(Number.isInteger) && room.every(Number.isInteger);
  resources.forEach((resource, slot) => {
    const requests = order.requests(resource);
    for (let candidate = 0; candidate < ranks.length; candidate++) {
      const request = requests[ranks[candidate]!]!;
      for (let entry = firstEntry[candidate]!; entry < firstEntry[candidate + 1]!; entry++) {
        const amount = request * entryReplicas[entry]!;
        usage[entry * slots + slot] = amount;
        reach[entryCluster[entry]! * slots + slot]! += Math.abs(amount);
        if (!Number.isInteger(amount)) integral = false;
      }
    }
  });
  return { usage, small: integral && reach.every((value) => value <= EXACT_LIMIT) };
}

/**
 * What the first candidates free on each cluster, as running sums over the candidates placed there
 * (by index, as candidatePlacements lists them): for cluster c, its k-th entry's candidate, and the sum
 * per slot of what its entries up to the k-th free.
 */
class PrefixFreed {
  /** Cluster c's entries are [start[c], start[c + 1]). */
  private readonly start: Int32Array;
  private readonly candidate: Int32Array;
  /** [(start[c] + c + k) × slots + slot]: what cluster c's first k entries free; k = 0 is nothing. */
  private readonly sums: Float64Array;

  constructor(
    { firstEntry, entryCluster }: CandidatePlacements,
    private readonly slots: number,
    usage: Float64Array,
    clusters: number,
  ) {
    this.start = new Int32Array(clusters + 1);
    for (let entry = 0; entry < entryCluster.length; entry++) this.start[entryCluster[entry]! + 1]!++;
    for (let cluster = 0; cluster < clusters; cluster++) this.start[cluster + 1]! += this.start[cluster]!;
    this.candidate = new Int32Array(entryCluster.length);
    this.sums = new Float64Array((entryCluster.length + clusters) * slots);
    const filled = this.start.slice(0, clusters);
    for (let index = 0; index < firstEntry.length - 1; index++) {
      for (let entry = firstEntry[index]!; entry < firstEntry[index + 1]!; entry++) {
        const cluster = entryCluster[entry]!;
        const k = filled[cluster]!++;
        this.candidate[k] = index;
        const row = (k + cluster + 1) * slots;
        for (let slot = 0; slot < slots; slot++) this.sums[row + slot] = this.sums[row - slots + slot]! + usage[entry * slots + slot]!;
      }
    }
  }

  /** How many of cluster c's entries belong to candidates below `count`. */
  entriesBefore(cluster: number, count: number): number {
    let low = this.start[cluster]!;
    let high = this.start[cluster + 1]!;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (this.candidate[middle]! < count) low = middle + 1;
      else high = middle;
    }
    return low - this.start[cluster]!;
  }

  /** What cluster c's first `entries` entries free of `slot`. */
  freed(cluster: number, entries: number, slot: number): number {
    return this.sums[(this.start[cluster]! + cluster + entries) * this.slots + slot]!;
  }
}
