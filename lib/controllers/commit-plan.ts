import { involvedObjectOf, PREEMPTOR_PRIORITY_ANNOTATION, VICTIM_PREEMPTIBILITY_ANNOTATION, VICTIM_PRIORITY_ANNOTATION } from '../api/event';
import { displayName } from '../api/kinds';
import { CONDITION_SCHEDULED, findCondition, withCondition, type ResourceBinding, type ScheduledReason, type TargetCluster } from '../api/resource-binding';
import type { EventRecord } from '../ports/event-log';
import type { Write } from '../ports/object-store';
import { scale, type ResourceList } from '../resources';
import type { ScheduleDecision } from '../scheduler/schedule-binding';
import { bindingKeyOf, bindingState } from '../scheduler/snapshot';
import { addDelta } from './allocations';
import { PREEMPTED_BY_ANNOTATION } from './binding-informers';

/**
 * What a scheduling decision commits, worked out without touching any port: the binding and victim
 * writes (each conditional on the version decided on), how each cluster's allocation moves, the events
 * to record once committed, and whom to queue again. ScheduleCycleController performs it.
 */
export interface CommitPlan {
  readonly result: 'scheduled' | 'unschedulable';
  /** The binding as the commit writes it, then each victim's eviction. */
  readonly writes: readonly Write[];
  /** How much each cluster's allocation moves (negative: room freed). */
  readonly deltas: ReadonlyMap<string, ResourceList>;
  readonly events: readonly EventRecord[];
  readonly victims: number;
}

function version(binding: ResourceBinding): string | null {
  return binding.metadata.resourceVersion ?? null;
}

export function withScheduledCondition(
  binding: ResourceBinding,
  status: 'True' | 'False',
  reason: ScheduledReason,
  message: string,
  now: string,
): ResourceBinding {
  return {
    ...binding,
    status: {
      ...binding.status,
      conditions: withCondition(binding.status?.conditions, {
        type: CONDITION_SCHEDULED,
        status,
        reason,
        message,
        lastTransitionTime: now,
        lastUpdateTime: now,
      }),
    },
  };
}

function describeBinding(binding: ResourceBinding): string {
  return `${binding.kind} ${displayName({ namespace: binding.metadata.namespace, name: binding.metadata.name })}`;
}

/**
 * The preemption victims' marker (PREEMPTED_BY_ANNOTATION): the preemptor and the time of its
 * placement, so that the victims of one placement are found by index after a crash.
 */
export function preemptedByMarker(preemptor: ResourceBinding, placedAt: string): string {
  return `${bindingKeyOf(preemptor)}@${placedAt}`;
}

/** The binding without its targets on clusters that are gone (lost-target.ts), and what that gives back to each. */
export interface ReleasedPlacement {
  readonly binding: ResourceBinding;
  readonly deltas: Map<string, ResourceList>;
  readonly message: string;
}

/**
 * A binding's replicas on a deleted cluster are no longer placed: they leave its spec.clusters and the
 * cluster's allocation in the same commit, and the binding waits (Scheduled False, ClusterDeleted)
 * until it is placed again. What it holds on clusters that exist stays.
 */
export function releaseLostTargets(binding: ResourceBinding, lost: readonly TargetCluster[], now: string): ReleasedPlacement {
  const state = bindingState(binding);
  const gone = new Set(lost.map((target) => target.name));
  const deltas = new Map<string, ResourceList>();
  for (const target of lost) addDelta(deltas, target.name, scale(state.request, -target.replicas));
  const message = `no longer placed on ${lost.map((t) => `${t.name} (${t.replicas})`).join(', ')}: the cluster was deleted since the binding was placed there`;
  const clusters = (binding.spec.clusters ?? []).filter((target) => !gone.has(target.name));
  const { clusters: _placed, ...unplaced } = binding.spec;
  const spec = clusters.length > 0 ? { ...binding.spec, clusters } : unplaced;
  return { binding: withScheduledCondition({ ...binding, spec }, 'False', 'ClusterDeleted', message, now), deltas, message };
}

/**
 * What a decision commits. `lost` are the binding's targets on clusters that are gone: a placement
 * moves off them, and a failed attempt releases them (releaseLostTargets) rather than keep them.
 */
export function planCommit(binding: ResourceBinding, decision: ScheduleDecision, now: string, lost: readonly TargetCluster[] = []): CommitPlan {
  if (decision.result === 'unschedulable') {
    const released = lost.length > 0 ? releaseLostTargets(binding, lost, now) : undefined;
    // A binding that lost its placement with a deleted cluster says so until it is placed again.
    const reason = released || findCondition(binding, CONDITION_SCHEDULED)?.reason === 'ClusterDeleted' ? 'ClusterDeleted' : decision.reason;
    const message = released ? `${released.message}; ${decision.message}` : decision.message;
    const updated = withScheduledCondition(released?.binding ?? binding, 'False', reason, message, now);
    return {
      result: 'unschedulable',
      writes: [{ op: 'put', object: updated, expectedVersion: version(binding) }],
      deltas: released?.deltas ?? new Map(),
      events: [
        ...(released ? [{ type: 'Warning' as const, reason: 'ClusterDeleted', object: involvedObjectOf(binding), message: released.message }] : []),
        { type: 'Warning', reason: 'ScheduleBindingFailed', object: involvedObjectOf(binding), message: decision.message },
      ],
      victims: 0,
    };
  }

  const state = bindingState(binding);
  const deltas = new Map<string, ResourceList>();
  for (const target of binding.spec.clusters ?? []) addDelta(deltas, target.name, scale(state.request, -target.replicas));
  for (const target of decision.targets) addDelta(deltas, target.name, scale(state.request, target.replicas));

  const events: EventRecord[] = [
    {
      type: 'Normal',
      reason: 'ScheduleBindingSucceed',
      object: involvedObjectOf(binding),
      message: `placed on ${decision.targets.map((t) => `${t.name} (${t.replicas})`).join(', ') || 'no cluster'}`,
    },
  ];
  const victimWrites = decision.victims.map((victim): Write => {
    const clusters = victim.clusters.map((t) => t.name);
    for (const target of victim.clusters) addDelta(deltas, target.name, scale(victim.request, -target.replicas));
    const message = `preempted by ${describeBinding(binding)} (priority ${state.priority}) to make room on cluster ${clusters.join(', ')}`;
    const { clusters: _placed, ...spec } = victim.binding.spec;
    const annotations = { ...victim.binding.metadata.annotations, [PREEMPTED_BY_ANNOTATION]: preemptedByMarker(binding, now) };
    const evicted = withScheduledCondition({ ...victim.binding, metadata: { ...victim.binding.metadata, annotations }, spec }, 'False', 'Unschedulable', message, now);
    events.push({
      type: 'Warning',
      reason: 'Preempted',
      object: involvedObjectOf(victim.binding),
      related: involvedObjectOf(binding),
      message,
      // The priorities and preemptibility the decision was made on, so that it can be audited later.
      annotations: {
        [PREEMPTOR_PRIORITY_ANNOTATION]: String(state.priority),
        [VICTIM_PRIORITY_ANNOTATION]: String(victim.priority),
        [VICTIM_PREEMPTIBILITY_ANNOTATION]: victim.preemptible ? 'preemptible' : 'non-preemptible',
      },
    });
    return { op: 'put', object: evicted, expectedVersion: version(victim.binding) };
  });

  const placed: ResourceBinding = withScheduledCondition(
    {
      ...binding,
      spec: { ...binding.spec, clusters: [...decision.targets] },
      status: {
        ...binding.status,
        schedulerObservedGeneration: binding.metadata.generation ?? 0,
        lastScheduledTime: now,
        ...(decision.affinityName === undefined ? {} : { schedulerObservedAffinityName: decision.affinityName }),
      },
    },
    'True',
    'Success',
    decision.victims.length > 0 ? `Binding has been scheduled after preempting ${decision.victims.length} binding(s)` : 'Binding has been scheduled',
    now,
  );
  return {
    result: 'scheduled',
    writes: [{ op: 'put', object: placed, expectedVersion: version(binding) }, ...victimWrites],
    deltas,
    events,
    victims: decision.victims.length,
  };
}

/** The clusters where the plan frees room in some resource. */
export function freedClusters(plan: CommitPlan): string[] {
  return [...plan.deltas].filter(([, delta]) => Object.values(delta).some((amount) => amount < 0)).map(([name]) => name);
}
