import type { Cluster } from '../api/cluster';
import type { ClusterAffinity, Placement } from '../api/propagation-policy';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { accumulate, add, availableReplicas, subtract, type ResourceList } from '../resources';
import { assignmentOn, type Assignment } from './assignment-basis';
import { assignmentModeOf } from './assignment-mode';
import { filteredFor } from './binding-filter';
import { describeFilterFailures, type FilterFailure } from './cluster-filter';
import { tieOrderOf } from './divide/tie-order';
import { planPreemption } from './preemption/plan-preemption';
import { bindingStrategy, divide, isPlainBinding, requirementOf, type ClusterLookup, type ReplicaStrategy } from './replica-strategy';
import { bindingState, type BindingState, type ClusterState, type SchedulingSnapshot } from './snapshot';
import { filterBySpreadProperties } from './spread/spread-property-filter';
import { spreadRule } from './spread/spread-rule';
import { spreadSelector, type SpreadSelector } from './spread/spread-selection';

export type ScheduleDecision =
  | {
      readonly result: 'scheduled';
      readonly targets: readonly TargetCluster[];
      /** The clusterAffinities term used, recorded as status.schedulerObservingAffinityName. */
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
 * recorded in status.schedulerObservingAffinityName; a placement with a single clusterAffinity is one term.
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
  /** The feasible clusters by name; the map behind it is built when a strategy first asks (static weights match clusters). */
  readonly clusterNamed: ClusterLookup;
  /** Which feasible clusters the replicas are divided among under spread constraints; undefined: all of them. */
  readonly spread: SpreadSelector | undefined;
}

function filterTerm(
  term: AffinityTerm,
  snapshot: SchedulingSnapshot,
  binding: ResourceBinding,
  now: number | undefined,
  selectorFor: (feasible: readonly ClusterState[]) => SpreadSelector | undefined,
): TermView {
  const placement = binding.spec.placement;
  const forBinding = filteredFor(binding, snapshot.filtered(term.affinity, placement?.clusterTolerations ?? []), now);
  const { feasible, failures } = filterBySpreadProperties(forBinding, placement?.spreadConstraints);
  let byName: Map<string, Cluster> | undefined;
  const clusterNamed = { get: (name: string) => (byName ??= new Map(feasible.map((c) => [c.name, c.cluster]))).get(name) };
  return { term, feasible, failures, spread: selectorFor(feasible), clusterNamed };
}

function divideOn(
  view: TermView,
  assignment: Assignment,
  strategy: ReplicaStrategy,
  state: BindingState,
  replicas: number,
  freed?: ReadonlyMap<string, ResourceList>,
  reserved?: ReadonlyMap<string, ResourceList>,
) {
  const capacities = view.feasible.map((cluster) => {
    let room = assignment.room(cluster);
    const extra = freed?.get(cluster.name);
    const promised = reserved?.get(cluster.name);
    if (extra) room = add(room, extra);
    if (promised) room = subtract(room, promised);
    return { name: cluster.name, availableReplicas: availableReplicas(room, state.request) };
  });
  const chosen = view.spread ? view.spread.choose(capacities) : { ok: true as const, clusters: capacities };
  if (!chosen.ok) return { ok: false as const, reason: chosen.reason, shortfall: Math.max(replicas, 1) };
  return divide(strategy, replicas, chosen.clusters, view.clusterNamed, assignment.basis);
}

/**
 * Places one binding (filter → select → assign replicas), preempting only when no term can place it
 * without: a placement that needs no preemption in any term beats preemption in an earlier one. A
 * binding already placed is divided again in Karmada's Steady mode (assignment-basis.ts): its replicas
 * stay where they run and only the added ones need room (and may preempt); in Fresh mode (a reschedule
 * triggered by spec.rescheduleTriggeredAt) every replica is divided anew, from the first term. Under
 * spread constraints the selection keeps to the clusters in use (Karmada's ClusterLocality) and the
 * replicas are divided anew among it; the victims are the fewest with which some selection meeting the
 * constraints holds the binding (spread/spread-fit.ts), and only those on the clusters it is then placed
 * on are preempted.
 */
export function scheduleBinding(binding: ResourceBinding, snapshot: SchedulingSnapshot, options: ScheduleOptions): ScheduleDecision {
  const state = bindingState(binding);
  const placement = binding.spec.placement;
  const replicas = binding.spec.replicas ?? 0;
  const strategy = bindingStrategy(binding);
  const mode = assignmentModeOf(binding);
  const ties = tieOrderOf(binding.spec.resource.uid);
  const rule = spreadRule(placement);
  const placedOn = new Set(state.clusters.map((target) => target.name));
  const selectorFor = (feasible: readonly ClusterState[]) =>
    rule && spreadSelector(rule, feasible.map((c) => c.cluster), placedOn, strategy, replicas);
  // Karmada's scheduleResourceBindingWithClusterAffinities: a triggered reschedule starts again from the first term.
  const observed = mode === 'Fresh' ? undefined : binding.status?.schedulerObservingAffinityName;
  const views = affinityTerms(placement, observed).map((term) => filterTerm(term, snapshot, binding, options.now, selectorFor));
  // A selection under spread constraints may leave clusters in use: its replicas are divided anew among it.
  const divisionMode = rule ? 'Fresh' : mode;
  const assignments = new Map<TermView, Assignment>();
  const assignmentFor = (view: TermView) => {
    let assignment = assignments.get(view);
    if (!assignment) assignments.set(view, (assignment = assignmentOn(view.feasible, state, strategy, divisionMode, snapshot, ties)));
    return assignment;
  };

  const reasons: string[] = [];
  for (const view of views) {
    const label = view.term.name === undefined ? '' : `affinity term "${view.term.name}": `;
    if (view.feasible.length === 0) {
      reasons.push(`${label}${describeFilterFailures(snapshot.clusters.size, view.failures)}`);
      continue;
    }
    const division = divideOn(view, assignmentFor(view), strategy, state, replicas, undefined, options.reserved);
    if (division.ok) {
      return { result: 'scheduled', targets: division.targets, affinityName: view.term.name, victims: [], exactVictims: true };
    }
    reasons.push(`${label}${division.reason}`);
  }

  // A plain binding needs no room: what keeps it from a cluster no victim can free.
  const mayPreempt =
    options.preemption &&
    binding.kind === 'ResourceBinding' &&
    binding.spec.schedulePriority?.preemptionPolicy === 'PreemptLowerPriority' &&
    !isPlainBinding(binding);
  if (mayPreempt) {
    for (const view of views) {
      if (view.feasible.length === 0) continue;
      const assignment = assignmentFor(view);
      const requirement = view.spread
        ? view.spread.requirement
        : requirementOf(strategy, replicas, view.feasible.map((c) => c.name), view.clusterNamed, assignment.basis);
      if (!requirement) continue;
      // The kept replicas are never moved to make room: only the room beside them counts.
      const plan = planPreemption(state, view.feasible, requirement, snapshot, options.victimSearchBudget, assignment.room);
      if (!plan) continue;
      const division = divideOn(view, assignment, strategy, state, replicas, freedBy(plan.victims));
      if (!division.ok) continue;
      return {
        result: 'scheduled',
        targets: division.targets,
        affinityName: view.term.name,
        victims: view.spread ? residentOn(plan.victims, division.targets) : plan.victims,
        exactVictims: plan.exact,
      };
    }
  }

  const noClusterFit = views.every((view) => view.feasible.length === 0);
  return { result: 'unschedulable', reason: noClusterFit ? 'NoClusterFit' : 'Unschedulable', message: reasons.join('; ') };
}

/** The victims placed on one of the targets: evicting the others would free nothing the placement uses. */
function residentOn(victims: readonly BindingState[], targets: readonly TargetCluster[]): BindingState[] {
  const names = new Set(targets.map((target) => target.name));
  return victims.filter((victim) => victim.clusters.some((target) => names.has(target.name)));
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
