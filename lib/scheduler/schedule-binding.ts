import type { Cluster } from '../api/cluster';
import type { ClusterAffinity, Placement } from '../api/propagation-policy';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { accumulate, add, availableReplicas, subtract, type ResourceList } from '../resources';
import { filteredFor } from './binding-filter';
import { describeFilterFailures, type FilterFailure } from './cluster-filter';
import { planPreemption } from './preemption/plan-preemption';
import { divide, replicaStrategy, requirementOf, type ReplicaStrategy } from './replica-strategy';
import { bindingState, type BindingState, type ClusterState, type SchedulingSnapshot } from './snapshot';

export type ScheduleDecision =
  | {
      readonly result: 'scheduled';
      readonly targets: readonly TargetCluster[];
      /** The clusterAffinities term used, recorded as status.schedulerObservedAffinityName. */
      readonly affinityName: string | undefined;
      readonly victims: readonly BindingState[];
      readonly exactVictims: boolean;
    }
  | {
      readonly result: 'unschedulable';
      /** Karmada's reasons: no cluster passed the filters, or none had room. */
      readonly reason: 'NoClusterFit' | 'Unschedulable';
      readonly message: string;
    };

export interface ScheduleOptions {
  /** Preemption allowed: the gate is on and the binding may preempt (binding priority and preemption (000)). */
  readonly preemption: boolean;
  readonly victimSearchBudget: number;
  /** Room already promised to other bindings on each cluster (the wake-up rule, wake-up.ts): taken off its free room. */
  readonly reserved?: ReadonlyMap<string, ResourceList>;
  /**
   * When the decision is made (ms): a cluster whose NoExecute taints would evict the binding at once is
   * refused (binding-filter.ts). Without it NoExecute tolerations tolerate whatever their seconds.
   */
  readonly now?: number;
}

interface AffinityTerm {
  readonly name: string | undefined;
  readonly affinity: ClusterAffinity | undefined;
}

/**
 * Ordered cluster-affinity groups (004): the terms of clusterAffinities are evaluated in order, starting from the one
 * recorded in status.schedulerObservedAffinityName; a placement with a single clusterAffinity is one term.
 */
export function affinityTerms(placement: Placement | undefined, observed: string | undefined): AffinityTerm[] {
  const terms = placement?.clusterAffinities;
  if (!terms || terms.length === 0) return [{ name: undefined, affinity: placement?.clusterAffinity }];
  const start = Math.max(0, terms.findIndex((term) => term.affinityName === observed));
  return terms.slice(start).map(({ affinityName, ...affinity }) => ({ name: affinityName, affinity }));
}

interface TermView {
  readonly term: AffinityTerm;
  readonly feasible: readonly ClusterState[];
  readonly failures: ReadonlyMap<FilterFailure, number>;
  /** The feasible clusters by name, built when a strategy first needs it (static weights match clusters). */
  byName(): ReadonlyMap<string, Cluster>;
}

function filterTerm(term: AffinityTerm, snapshot: SchedulingSnapshot, binding: ResourceBinding, now: number | undefined): TermView {
  const { feasible, failures } = filteredFor(binding, snapshot.filtered(term.affinity, binding.spec.placement?.clusterTolerations ?? []), now);
  let byName: Map<string, Cluster> | undefined;
  return { term, feasible, failures, byName: () => (byName ??= new Map(feasible.map((c) => [c.name, c.cluster]))) };
}

function divideOn(
  view: TermView,
  strategy: ReplicaStrategy,
  state: BindingState,
  replicas: number,
  snapshot: SchedulingSnapshot,
  freed: ReadonlyMap<string, ResourceList> = new Map(),
  reserved: ReadonlyMap<string, ResourceList> = new Map(),
) {
  const capacities = view.feasible.map((cluster) => {
    let room = snapshot.free(cluster, state);
    const extra = freed.get(cluster.name);
    const promised = reserved.get(cluster.name);
    if (extra) room = add(room, extra);
    if (promised) room = subtract(room, promised);
    return { name: cluster.name, availableReplicas: availableReplicas(room, state.request) };
  });
  return divide(strategy, replicas, capacities, view.byName());
}

/**
 * Places one binding (filter → select → assign replicas), preempting only when no term can place it
 * without: a placement that needs no preemption in any term beats preemption in an earlier one.
 */
export function scheduleBinding(binding: ResourceBinding, snapshot: SchedulingSnapshot, options: ScheduleOptions): ScheduleDecision {
  const state = bindingState(binding);
  const placement = binding.spec.placement;
  const replicas = binding.spec.replicas ?? 0;
  const strategy = replicaStrategy(placement);
  const views = affinityTerms(placement, binding.status?.schedulerObservedAffinityName).map((term) => filterTerm(term, snapshot, binding, options.now));

  const reasons: string[] = [];
  for (const view of views) {
    const label = view.term.name === undefined ? '' : `affinity term "${view.term.name}": `;
    if (view.feasible.length === 0) {
      reasons.push(`${label}${describeFilterFailures(snapshot.clusters.size, view.failures)}`);
      continue;
    }
    const division = divideOn(view, strategy, state, replicas, snapshot, undefined, options.reserved);
    if (division.ok) {
      return { result: 'scheduled', targets: division.targets, affinityName: view.term.name, victims: [], exactVictims: true };
    }
    reasons.push(`${label}${division.reason}`);
  }

  const mayPreempt =
    options.preemption && binding.kind === 'ResourceBinding' && binding.spec.schedulePriority?.preemptionPolicy === 'PreemptLowerPriority';
  if (mayPreempt) {
    for (const view of views) {
      if (view.feasible.length === 0) continue;
      const requirement = requirementOf(strategy, replicas, view.feasible.map((c) => c.name), view.byName());
      const plan = planPreemption(state, view.feasible, requirement, snapshot, options.victimSearchBudget);
      if (!plan) continue;
      const division = divideOn(view, strategy, state, replicas, snapshot, freedBy(plan.victims));
      if (!division.ok) continue;
      return {
        result: 'scheduled',
        targets: division.targets,
        affinityName: view.term.name,
        victims: plan.victims,
        exactVictims: plan.exact,
      };
    }
  }

  const noClusterFit = views.every((view) => view.feasible.length === 0);
  return { result: 'unschedulable', reason: noClusterFit ? 'NoClusterFit' : 'Unschedulable', message: reasons.join('; ') };
}

function freedBy(victims: readonly BindingState[]): Map<string, ResourceList> {
  const freed = new Map<string, Record<string, number>>();
  for (const victim of victims) {
    for (const target of victim.clusters) {
      let sum = freed.get(target.name);
      if (!sum) freed.set(target.name, (sum = {}));
      accumulate(sum, victim.request, target.replicas);
    }
  }
  return freed;
}
