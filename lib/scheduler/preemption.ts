import type { Requirement } from './replica-strategy';
import type { BindingState, ClusterState, SchedulingSnapshot } from './snapshot';
import { selectVictims, type FeasibilityOracle } from './victim-search';

export interface PreemptionPlan {
  readonly victims: readonly BindingState[];
  /** The victim set is proven minimal (false when the search budget ran out first). */
  readonly exact: boolean;
}

/**
 * 000_ced50c21932b3714.txt, "Preemption scenario": victims are ResourceBindings of strictly lower
 * priority that are preemptible and request resources; ClusterResourceBindings are left alone.
 */
export function isVictimCandidate(candidate: BindingState, preemptor: BindingState): boolean {
  return (
    candidate.key !== preemptor.key &&
    candidate.binding.kind === 'ResourceBinding' &&
    candidate.preemptible &&
    candidate.requestsResources &&
    candidate.priority < preemptor.priority
  );
}

/**
 * Tracks, as victims are evicted, how many replicas of the preemptor fit on each relevant cluster, so
 * feasibility is answered without recomputing the whole fleet. The victim search asks thousands of
 * times per decision, so everything is laid out once in flat arrays: the room each cluster has for the
 * preemptor's requested resources, and what each candidate frees on each relevant cluster.
 * The arithmetic is the one `availableReplicas(add(free, freed), request)` does, in the same order.
 */
class PlacementOracle implements FeasibilityOracle {
  /** The preemptor's positive per-replica amounts; a resource's slot is its index here. */
  private readonly amounts: number[] = [];
  /** [cluster × slots + slot]: free room before any eviction. */
  private readonly room: Float64Array;
  /** [cluster × slots + slot]: what the evicted candidates give back. */
  private readonly freed: Float64Array;
  private readonly replicas: Float64Array;
  /** Per cluster: replicas the per-cluster requirement needs there (−∞ when none). */
  private readonly need: Float64Array;
  /** Candidate i frees entries [firstEntry[i], firstEntry[i + 1]). */
  private readonly firstEntry: Int32Array;
  private readonly entryCluster: Int32Array;
  /** [entry × slots + slot]: request × replicas of the candidate on that cluster. */
  private readonly entryUsage: Float64Array;
  private unsatisfied = 0;
  private pooled = 0;

  constructor(
    preemptor: BindingState,
    candidates: readonly BindingState[],
    clusters: ReadonlyMap<string, ClusterState>,
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
    const indexOf = new Map<string, number>();
    this.room = new Float64Array(clusters.size * slots);
    this.freed = new Float64Array(clusters.size * slots);
    this.replicas = new Float64Array(clusters.size);
    this.need = new Float64Array(clusters.size);
    for (const cluster of clusters.values()) {
      const index = indexOf.size;
      indexOf.set(cluster.name, index);
      const free = snapshot.free(cluster, preemptor);
      resources.forEach((resource, slot) => (this.room[index * slots + slot] = Object.hasOwn(free, resource) ? (free[resource] ?? 0) : 0));
      this.need[index] = requirement.type === 'per-cluster' ? (requirement.need.get(cluster.name) ?? -Infinity) : -Infinity;
      this.replicas[index] = this.replicasOn(index);
      this.account(index, this.replicas[index]!, +1);
    }

    // Two passes over the candidates: count their targets on relevant clusters, then fill the arrays.
    this.firstEntry = new Int32Array(candidates.length + 1);
    candidates.forEach((candidate, i) => {
      let count = 0;
      for (const target of candidate.clusters) if (indexOf.has(target.name)) count++;
      this.firstEntry[i + 1] = this.firstEntry[i]! + count;
    });
    const total = this.firstEntry[candidates.length]!;
    this.entryCluster = new Int32Array(total);
    this.entryUsage = new Float64Array(total * slots);
    candidates.forEach((candidate, i) => {
      let entry = this.firstEntry[i]!;
      for (const target of candidate.clusters) {
        const cluster = indexOf.get(target.name);
        if (cluster === undefined) continue;
        this.entryCluster[entry] = cluster;
        // usageOn(candidate, target.replicas), read for the preemptor's resources only.
        resources.forEach((resource, slot) => {
          const amount = Object.hasOwn(candidate.request, resource) ? candidate.request[resource]! : 0;
          this.entryUsage[entry * slots + slot] = amount * target.replicas;
        });
        entry++;
      }
    });
  }

  evict(index: number): void {
    this.shift(index, +1);
  }

  restore(index: number): void {
    this.shift(index, -1);
  }

  feasible(): boolean {
    return this.requirement.type === 'per-cluster' ? this.unsatisfied === 0 : this.pooled >= this.requirement.replicas;
  }

  private shift(index: number, direction: 1 | -1): void {
    const slots = this.amounts.length;
    for (let entry = this.firstEntry[index]!; entry < this.firstEntry[index + 1]!; entry++) {
      const cluster = this.entryCluster[entry]!;
      for (let slot = 0; slot < slots; slot++) {
        this.freed[cluster * slots + slot]! += direction * this.entryUsage[entry * slots + slot]!;
      }
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
      replicas = Math.min(replicas, (available - (available % amount)) / amount);
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

/**
 * Finds the fewest victims on the given clusters whose eviction lets the preemptor meet its
 * requirement (ties: lower highest priority, then lower priority sum), or null when even evicting
 * every candidate would not be enough, in which case nobody is preempted.
 */
export function planPreemption(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  requirement: Requirement,
  snapshot: SchedulingSnapshot,
  searchBudget: number,
): PreemptionPlan | null {
  const relevant = new Map(
    clusters
      .filter((c) => requirement.type === 'pooled' || requirement.need.has(c.name))
      .map((c) => [c.name, c] as const),
  );
  const keys = new Set<string>();
  for (const cluster of relevant.values()) for (const key of cluster.residents.keys()) keys.add(key);
  const candidates = [...keys]
    .map((key) => snapshot.bindings.get(key))
    .filter((state): state is BindingState => state !== undefined && isVictimCandidate(state, preemptor))
    .sort((a, b) => a.priority - b.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

  const oracle = new PlacementOracle(preemptor, candidates, relevant, snapshot, requirement);
  const selection = selectVictims(
    candidates.map((c) => ({ id: c.key, priority: c.priority })),
    oracle,
    { searchBudget },
  );
  if (!selection || selection.victims.length === 0) return null;
  return { victims: selection.victims.map((index) => candidates[index]!), exact: selection.exact };
}
