import type { Cluster } from '../api/cluster';
import { PREEMPTOR_PRIORITY_ANNOTATION, VICTIM_PREEMPTIBILITY_ANNOTATION, VICTIM_PRIORITY_ANNOTATION, type KubeEvent } from '../api/event';
import { displayName } from '../api/kinds';
import { CONDITION_SCHEDULED, findCondition, isPlaced, isSuspended, type ResourceBinding } from '../api/resource-binding';
import type { ClusterAllocation } from '../controllers/allocations';
import { DEFAULT_SCHEDULER_NAME, isScheduledBy } from '../api/scheduler-name';
import { isScheduledOntoNoCluster } from '../controllers/scheduling-need';
import { add, type ResourceList } from '../resources';
import { lostTargets } from '../scheduler/lost-target';
import { SchedulingSnapshot, usageOn } from '../scheduler/snapshot';

export type InvariantRule =
  | 'cluster-within-capacity'
  | 'binding-placed-or-pending-with-reason'
  | 'allocation-equals-placed-bindings'
  | 'placed-on-existing-cluster'
  | 'victim-of-lower-priority-and-preemptible';

export interface Violation<Rule extends string = InvariantRule> {
  readonly rule: Rule;
  readonly object: string;
  readonly message: string;
}

export interface InvariantReport {
  readonly ok: boolean;
  readonly violations: readonly Violation[];
  readonly summary: { clusters: number; bindings: number; placed: number; pending: number; suspended: number; preemptions: number };
}

export interface SystemState {
  readonly clusters: readonly Cluster[];
  readonly bindings: readonly ResourceBinding[];
  readonly allocations: readonly ClusterAllocation[];
  readonly events: readonly KubeEvent[];
}

function format(list: ResourceList): string {
  return Object.entries(list)
    .filter(([, amount]) => amount !== 0)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([resource, amount]) => `${resource}=${amount}`)
    .join(',') || 'nothing';
}

function sameAmounts(a: ResourceList, b: ResourceList): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].every((name) => (a[name] ?? 0) === (b[name] ?? 0));
}

function capacityViolations(snapshot: SchedulingSnapshot): Violation[] {
  const violations: Violation[] = [];
  for (const cluster of snapshot.clusters.values()) {
    const over = Object.entries(cluster.placed).filter(([resource, amount]) => amount > (cluster.capacity[resource] ?? 0));
    for (const [resource, amount] of over) {
      violations.push({
        rule: 'cluster-within-capacity',
        object: `Cluster ${cluster.name}`,
        message: `${resource}: ${amount} placed but only ${cluster.capacity[resource] ?? 0} available`,
      });
    }
  }
  return violations;
}

/** outrank's bindings: another scheduler's say what that scheduler made of them. */
function bindingViolations(bindings: readonly ResourceBinding[]): Violation[] {
  const violations: Violation[] = [];
  for (const binding of bindings) {
    const name = `${binding.kind} ${displayName({ namespace: binding.metadata.namespace, name: binding.metadata.name })}`;
    const scheduled = findCondition(binding, CONDITION_SCHEDULED);
    const placed = isPlaced(binding);
    // A placed binding whose rescheduling failed keeps its placement with Scheduled=False: still fine.
    if (placed && scheduled === undefined) {
      violations.push({ rule: 'binding-placed-or-pending-with-reason', object: name, message: 'placed without a Scheduled condition' });
    }
    // Scheduled onto no cluster is the scheduler's result for a binding with nothing to place, as binding-enqueue holds it.
    if (!placed && !isSuspended(binding) && !isScheduledOntoNoCluster(binding) && (scheduled?.status !== 'False' || !scheduled.reason)) {
      violations.push({
        rule: 'binding-placed-or-pending-with-reason',
        object: name,
        message: scheduled ? `not placed, but Scheduled is ${scheduled.status}` : 'not placed and never attempted',
      });
    }
  }
  return violations;
}

/** What the bindings `include` admits occupy on each cluster their spec.clusters name, existing or not. */
function placedBy(snapshot: SchedulingSnapshot, include: (binding: ResourceBinding) => boolean = () => true): Map<string, ResourceList> {
  const placed = new Map<string, ResourceList>();
  for (const state of snapshot.bindings.values()) {
    if (!include(state.binding)) continue;
    for (const target of state.clusters) placed.set(target.name, add(placed.get(target.name) ?? {}, usageOn(state, target.replicas)));
  }
  return placed;
}

function allocationViolations(snapshot: SchedulingSnapshot, allocations: readonly ClusterAllocation[]): Violation[] {
  const expected = placedBy(snapshot);
  const recorded = new Map(allocations.map((allocation) => [allocation.metadata.name, allocation.spec.placed]));
  const violations: Violation[] = [];
  for (const cluster of new Set([...expected.keys(), ...recorded.keys()])) {
    const want = expected.get(cluster) ?? {};
    const have = recorded.get(cluster) ?? {};
    if (!sameAmounts(want, have)) {
      violations.push({
        rule: 'allocation-equals-placed-bindings',
        object: `ClusterAllocation ${cluster}`,
        message: `records ${format(have)} but the placed bindings add up to ${format(want)}`,
      });
    }
  }
  return violations;
}

/**
 * A binding's replicas on a deleted cluster are no longer placed, and a cluster created again under
 * the same name starts empty (lost-target.ts): no binding of outrank's is placed on a cluster that is
 * gone, and no allocation record holds anything for one but what another scheduler's bindings still
 * hold there (that scheduler moves them: `othersPlaced`, by cluster).
 */
function lostClusterViolations(state: SystemState, ours: readonly ResourceBinding[], othersPlaced: ReadonlyMap<string, ResourceList>): Violation[] {
  const clusters = new Map(state.clusters.map((cluster) => [cluster.metadata.name, cluster]));
  const violations: Violation[] = [];
  for (const binding of ours) {
    for (const target of lostTargets(binding, (name) => clusters.get(name))) {
      const what = clusters.has(target.name) ? 'was deleted and created again since it was placed there' : 'does not exist';
      violations.push({
        rule: 'placed-on-existing-cluster',
        object: `${binding.kind} ${displayName({ namespace: binding.metadata.namespace, name: binding.metadata.name })}`,
        message: `placed on ${target.name} (${target.replicas} replicas), which ${what}`,
      });
    }
  }
  for (const allocation of state.allocations) {
    const name = allocation.metadata.name;
    if (clusters.has(name) || sameAmounts(allocation.spec.placed, othersPlaced.get(name) ?? {})) continue;
    violations.push({
      rule: 'placed-on-existing-cluster',
      object: `ClusterAllocation ${allocation.metadata.name}`,
      message: `records ${format(allocation.spec.placed)} for a cluster that does not exist`,
    });
  }
  return violations;
}

/**
 * Every Preempted event still kept is checked (a downward preemption stays a violation after its victim
 * is deleted); the count is of the bindings that exist now.
 */
function preemptionViolations(events: readonly KubeEvent[], bindings: readonly ResourceBinding[]): { violations: Violation[]; preemptions: number } {
  const preempted = events.filter((event) => event.reason === 'Preempted');
  const existing = new Set(bindings.map((binding) => `${binding.kind}/${binding.metadata.namespace ?? ''}/${binding.metadata.name}`));
  const violations: Violation[] = [];
  for (const event of preempted) {
    const annotations = event.metadata.annotations ?? {};
    const preemptor = Number(annotations[PREEMPTOR_PRIORITY_ANNOTATION]);
    const victim = Number(annotations[VICTIM_PRIORITY_ANNOTATION]);
    const object = `ResourceBinding ${displayName(event.involvedObject)}`;
    if (!Number.isFinite(preemptor) || !Number.isFinite(victim)) {
      violations.push({ rule: 'victim-of-lower-priority-and-preemptible', object, message: 'Preempted event without the priorities it was decided on' });
      continue;
    }
    if (victim >= preemptor) {
      violations.push({
        rule: 'victim-of-lower-priority-and-preemptible',
        object,
        message: `priority ${victim} was preempted by ${event.related ? displayName(event.related) : 'a binding'} of priority ${preemptor}`,
      });
    }
    if (annotations[VICTIM_PREEMPTIBILITY_ANNOTATION] !== 'preemptible') {
      violations.push({ rule: 'victim-of-lower-priority-and-preemptible', object, message: 'was preempted while non-preemptible' });
    }
  }
  const ofExisting = preempted.filter((event) => existing.has(`${event.involvedObject.kind}/${event.involvedObject.namespace ?? ''}/${event.involvedObject.name}`));
  return { violations, preemptions: ofExisting.length };
}

/**
 * Checks what must always hold, whatever ran concurrently: no cluster over capacity in any resource
 * (whoever placed there), every binding placed or pending with a reason, allocations equal to the
 * placed bindings (another scheduler's too: their placements move the records as outrank's do),
 * nothing placed or allocated on a cluster that is gone, and no victim of equal or higher priority
 * than its preemptor or non-preemptible (000, 001). The rules about a binding's own state judge the
 * bindings of `schedulerNames` (the names outrank answers to), not another scheduler's.
 */
export function checkInvariants(state: SystemState, schedulerNames: readonly string[] = [DEFAULT_SCHEDULER_NAME]): InvariantReport {
  const snapshot = new SchedulingSnapshot(state.clusters, state.bindings, schedulerNames);
  const preemption = preemptionViolations(state.events, state.bindings);
  const ours = state.bindings.filter((binding) => isScheduledBy(schedulerNames, binding));
  const violations = [
    ...capacityViolations(snapshot),
    ...bindingViolations(ours),
    ...allocationViolations(snapshot, state.allocations),
    ...lostClusterViolations(state, ours, placedBy(snapshot, (binding) => !isScheduledBy(schedulerNames, binding))),
    ...preemption.violations,
  ];
  const placed = state.bindings.filter((b) => isPlaced(b) || isScheduledOntoNoCluster(b)).length;
  const suspended = state.bindings.filter((b) => isSuspended(b) && !isPlaced(b)).length;
  return {
    ok: violations.length === 0,
    violations,
    summary: {
      clusters: state.clusters.length,
      bindings: state.bindings.length,
      placed,
      pending: state.bindings.length - placed - suspended,
      suspended,
      preemptions: preemption.preemptions,
    },
  };
}
