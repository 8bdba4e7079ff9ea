import { add, availableReplicas, type ResourceList } from '../resources';
import type { Requirement } from './replica-strategy';
import { usageOn, type BindingState, type ClusterState, type SchedulingSnapshot } from './snapshot';
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
 * Tracks, as victims are evicted, how many replicas of the preemptor fit on each relevant cluster,
 * so feasibility is answered without recomputing the whole fleet.
 */
class PlacementOracle implements FeasibilityOracle {
  private readonly freed = new Map<string, ResourceList>();
  private readonly available = new Map<string, number>();
  private unsatisfied = 0;
  private pooled = 0;

  constructor(
    private readonly preemptor: BindingState,
    private readonly candidates: readonly BindingState[],
    private readonly clusters: ReadonlyMap<string, ClusterState>,
    private readonly snapshot: SchedulingSnapshot,
    private readonly requirement: Requirement,
  ) {
    for (const cluster of clusters.values()) {
      this.freed.set(cluster.name, {});
      const replicas = this.replicasOn(cluster);
      this.available.set(cluster.name, replicas);
      this.account(cluster.name, replicas, +1);
    }
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
    const victim = this.candidates[index]!;
    for (const target of victim.clusters) {
      const cluster = this.clusters.get(target.name);
      if (!cluster) continue;
      const usage = usageOn(victim, target.replicas);
      const freed = this.freed.get(cluster.name)!;
      const next: Record<string, number> = { ...freed };
      for (const [resource, amount] of Object.entries(usage)) next[resource] = (next[resource] ?? 0) + direction * amount;
      this.freed.set(cluster.name, next);
      this.account(cluster.name, this.available.get(cluster.name)!, -1);
      const replicas = this.replicasOn(cluster);
      this.available.set(cluster.name, replicas);
      this.account(cluster.name, replicas, +1);
    }
  }

  private replicasOn(cluster: ClusterState): number {
    const free = add(this.snapshot.free(cluster, this.preemptor), this.freed.get(cluster.name) ?? {});
    return availableReplicas(free, this.preemptor.request);
  }

  /** Adds (+1) or removes (-1) a cluster's contribution to the feasibility counters. */
  private account(name: string, replicas: number, sign: 1 | -1): void {
    if (this.requirement.type === 'per-cluster') {
      const need = this.requirement.need.get(name);
      if (need !== undefined && replicas < need) this.unsatisfied += sign;
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
