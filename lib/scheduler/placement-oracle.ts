import { amountOf } from '../resources';
import type { CandidatePlacements } from './preemption-candidates';
import type { Requirement } from './replica-strategy';
import type { BindingState, ClusterState, SchedulingSnapshot } from './snapshot';
import type { FeasibilityOracle } from './victim-search';

/**
 * Tracks, as candidates are evicted and restored, how many replicas of the preemptor fit on each
 * relevant cluster, so that feasibility is answered without recomputing the fleet. The victim search
 * asks thousands of times per decision, so the state is flat arrays: the room each cluster has for the
 * resources the preemptor requests, what each candidate frees there, and what is freed so far. A
 * cluster's replicas are worked out as `availableReplicas(add(free, freed), request)` does.
 *
 * When every amount is an integer and no partial sum can pass 2^52 (any real fleet), two shortcuts give
 * the same answers: evictions and restorations are only noted, and counted when feasibility is next
 * asked (the search moves candidates back and forth between questions, and most moves cancel out;
 * integer addition below 2^53 is exact in any order), and whole replicas are ⌊free / request⌋, exact for
 * integers up to 2^52, instead of the slower remainder arithmetic availableReplicas needs near 2^53.
 * Otherwise each move is counted at once and the remainder arithmetic is used.
 */
export class PlacementOracle implements FeasibilityOracle {
  /** The preemptor's positive per-replica amounts; a resource's slot is its index here. */
  private readonly amounts: number[] = [];
  /** [cluster × slots + slot]: free room before any eviction. */
  private readonly room: Float64Array;
  /** [cluster × slots + slot]: what the counted evictions give back. */
  private readonly freed: Float64Array;
  private readonly replicas: Float64Array;
  /** Per cluster: replicas the per-cluster requirement needs there (−∞ when none). */
  private readonly need: Float64Array;
  /** [entry × slots + slot]: what a candidate's entry frees, request × replicas. */
  private readonly usage: Float64Array;
  private readonly wanted: Uint8Array;
  private readonly counted: Uint8Array;
  /** Candidates whose wanted state may differ from the counted one. */
  private readonly moved: Int32Array;
  private readonly isMoved: Uint8Array;
  private movedCount = 0;
  /** The shortcuts above are exact. */
  private readonly small: boolean;
  private unsatisfied = 0;
  private pooled = 0;

  constructor(
    preemptor: BindingState,
    clusters: readonly ClusterState[],
    private readonly placements: CandidatePlacements,
    snapshot: SchedulingSnapshot,
    private readonly requirement: Requirement,
  ) {
    const resources: string[] = [];
    for (const resource of Object.keys(preemptor.request)) {
      const amount = preemptor.request[resource]!;
      if (amount > 0) {
        resources.push(resource);
        this.amounts.push(amount);
      }
    }
    const slots = resources.length;
    this.room = new Float64Array(clusters.length * slots);
    this.freed = new Float64Array(clusters.length * slots);
    this.replicas = new Float64Array(clusters.length);
    this.need = new Float64Array(clusters.length);
    clusters.forEach((cluster, index) => {
      const free = snapshot.free(cluster, preemptor);
      for (let slot = 0; slot < slots; slot++) this.room[index * slots + slot] = amountOf(free, resources[slot]!);
      this.need[index] = requirement.type === 'per-cluster' ? (requirement.need.get(cluster.name) ?? -Infinity) : -Infinity;
    });

    const { candidates, firstEntry, entryCluster, entryReplicas } = placements;
    this.usage = new Float64Array(entryCluster.length * slots);
    // Largest magnitude any partial sum of a cluster's room and freed amounts can reach.
    const reach = new Float64Array(this.room.length);
    let integers = true;
    for (let i = 0; i < this.room.length; i++) {
      reach[i] = Math.abs(this.room[i]!);
      integers &&= Number.isInteger(this.room[i]);
    }
    const request = new Float64Array(slots);
    for (let i = 0; i < candidates.length; i++) {
      for (let slot = 0; slot < slots; slot++) request[slot] = amountOf(candidates[i]!.request, resources[slot]!);
      for (let entry = firstEntry[i]!; entry < firstEntry[i + 1]!; entry++) {
        for (let slot = 0; slot < slots; slot++) {
          const usage = request[slot]! * entryReplicas[entry]!;
          this.usage[entry * slots + slot] = usage;
          reach[entryCluster[entry]! * slots + slot]! += Math.abs(usage);
          integers &&= Number.isInteger(usage);
        }
      }
    }
    for (const amount of this.amounts) integers &&= Number.isInteger(amount);
    this.small = integers && reach.every((value) => value <= 2 ** 52);
    for (let cluster = 0; cluster < clusters.length; cluster++) {
      this.replicas[cluster] = this.replicasOn(cluster);
      this.account(cluster, this.replicas[cluster]!, +1);
    }
    this.wanted = new Uint8Array(candidates.length);
    this.counted = new Uint8Array(candidates.length);
    this.moved = new Int32Array(candidates.length);
    this.isMoved = new Uint8Array(candidates.length);
  }

  evict(index: number): void {
    this.move(index, 1);
  }

  restore(index: number): void {
    this.move(index, 0);
  }

  feasible(): boolean {
    for (let m = 0; m < this.movedCount; m++) {
      const index = this.moved[m]!;
      this.isMoved[index] = 0;
      if (this.wanted[index] !== this.counted[index]) this.count(index, this.wanted[index] === 1 ? 1 : -1);
    }
    this.movedCount = 0;
    return this.requirement.type === 'per-cluster' ? this.unsatisfied === 0 : this.pooled >= this.requirement.replicas;
  }

  private move(index: number, evicted: 0 | 1): void {
    this.wanted[index] = evicted;
    if (!this.small) {
      if (this.counted[index] !== evicted) this.count(index, evicted === 1 ? 1 : -1);
    } else if (this.isMoved[index] === 0) {
      this.isMoved[index] = 1;
      this.moved[this.movedCount++] = index;
    }
  }

  private count(index: number, direction: 1 | -1): void {
    this.counted[index] = direction === 1 ? 1 : 0;
    const { firstEntry, entryCluster } = this.placements;
    const slots = this.amounts.length;
    for (let entry = firstEntry[index]!; entry < firstEntry[index + 1]!; entry++) {
      const cluster = entryCluster[entry]!;
      for (let slot = 0; slot < slots; slot++) this.freed[cluster * slots + slot]! += direction * this.usage[entry * slots + slot]!;
      this.account(cluster, this.replicas[cluster]!, -1);
      this.replicas[cluster] = this.replicasOn(cluster);
      this.account(cluster, this.replicas[cluster]!, +1);
    }
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

  /** Adds (+1) or removes (-1) a cluster's contribution to the feasibility counters. */
  private account(cluster: number, replicas: number, sign: 1 | -1): void {
    if (this.requirement.type === 'per-cluster') {
      if (replicas < this.need[cluster]!) this.unsatisfied += sign;
    } else {
      this.pooled += sign * Math.min(replicas, this.requirement.replicas);
    }
  }
}
