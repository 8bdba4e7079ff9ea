import { involvedObjectOf, PREEMPTOR_PRIORITY_ANNOTATION, VICTIM_PREEMPTIBILITY_ANNOTATION, VICTIM_PRIORITY_ANNOTATION } from '../api/event';
import { asWrittenByScheduler } from '../api/generation';
import { displayName } from '../api/kinds';
import { CONDITION_SCHEDULED, findCondition, withCondition, type GracefulEvictionTask, type ResourceBinding, type ScheduledReason, type TargetCluster } from '../api/resource-binding';
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

/** The binding without some of its targets, and what that gives back to each cluster. */
export interface ReleasedPlacement {
  readonly binding: ResourceBinding;
  readonly deltas: Map<string, ResourceList>;
  readonly message: string;
}

/**
 * Why a target is given up when the binding cannot be placed elsewhere: its cluster was deleted
 * (lost-target.ts), the affinity term it was placed by no longer admits the cluster (refused-targets.ts),
 * or the graceful eviction from the cluster ran out (graceful-eviction.ts).
 */
export type ReleaseCause = 'deleted' | 'refused' | 'evicted';

export interface ReleasedTarget {
  readonly target: TargetCluster;
  readonly cause: ReleaseCause;
}

const RELEASE_TEXT: Record<ReleaseCause, string> = {
  deleted: 'the cluster was deleted since the binding was placed there',
  refused: 'the cluster affinity it was placed by no longer admits the cluster',
  evicted: 'its graceful eviction from the cluster (a NoExecute taint it does not tolerate) ran out before it was placed elsewhere',
};

/**
 * A binding's replicas on clusters it must leave are no longer placed: they leave its spec.clusters (and
 * their gracefulEvictionTasks) and the clusters' allocations in the same commit, and the binding waits
 * (Scheduled False; ClusterDeleted when a cluster was deleted) until it is placed again. What it holds
 * on other clusters stays.
 */
export function releaseTargets(binding: ResourceBinding, released: readonly ReleasedTarget[], now: string): ReleasedPlacement {
  const state = bindingState(binding);
  const gone = new Set(released.map(({ target }) => target.name));
  const deltas = new Map<string, ResourceList>();
  for (const { target } of released) addDelta(deltas, target.name, scale(state.request, -target.replicas));
  const message = releaseMessage(released);
  const spec = placedOnly(binding.spec, (binding.spec.clusters ?? []).filter((target) => !gone.has(target.name)));
  const reason = released.some(({ cause }) => cause === 'deleted') ? 'ClusterDeleted' : 'Unschedulable';
  return { binding: withScheduledCondition({ ...binding, spec }, 'False', reason, message, now), deltas, message };
}

/** "no longer placed on m1 (2): <why>", a part per cause. */
function releaseMessage(released: readonly ReleasedTarget[]): string {
  return [...new Set(released.map(({ cause }) => cause))]
    .map((cause) => {
      const targets = released.filter((release) => release.cause === cause).map(({ target }) => `${target.name} (${target.replicas})`);
      return `no longer placed on ${targets.join(', ')}: ${RELEASE_TEXT[cause]}`;
    })
    .join('; ');
}

/**
 * The spec placed on these targets (none: no spec.clusters), with the gracefulEvictionTasks of the
 * clusters it still holds: a task ends when the binding leaves its cluster.
 */
function placedOnly(spec: ResourceBinding['spec'], targets: readonly TargetCluster[]): ResourceBinding['spec'] {
  const held = new Set(targets.map((target) => target.name));
  const tasks = (spec.gracefulEvictionTasks ?? []).filter((task) => held.has(task.fromCluster));
  const { clusters: _placed, gracefulEvictionTasks: _evicting, ...rest } = spec;
  return { ...rest, ...(targets.length > 0 ? { clusters: [...targets] } : {}), ...(tasks.length > 0 ? { gracefulEvictionTasks: tasks } : {}) };
}

/**
 * A binding's replicas on a deleted cluster are no longer placed (releaseTargets), with reason
 * ClusterDeleted.
 */
export function releaseLostTargets(binding: ResourceBinding, lost: readonly TargetCluster[], now: string): ReleasedPlacement {
  return releaseTargets(binding, lost.map((target) => ({ target, cause: 'deleted' })), now);
}

/**
 * The events of the evictions the decision starts (Karmada's taint manager records
 * EvictWorkloadFromClusterSucceed on the binding when it evicts it from a cluster).
 */
function evictionEvents(binding: ResourceBinding, started: readonly GracefulEvictionTask[], placedElsewhere: boolean): EventRecord[] {
  return started.map((task) => ({
    type: 'Normal',
    reason: 'EvictWorkloadFromClusterSucceed',
    object: involvedObjectOf(binding),
    message: `Evict from cluster ${task.fromCluster} succeed: ${task.message ?? task.reason}; ${
      placedElsewhere ? 'placed elsewhere' : `it keeps the cluster until it is placed elsewhere, for at most ${task.gracePeriodSeconds ?? 0} s`
    }`,
  }));
}

/**
 * What a decision commits. `released` are the targets the binding must leave (on clusters that are gone,
 * that its affinity no longer admits, or that it was evicted from past the grace period): a placement
 * moves off them, and a failed attempt releases them (releaseTargets) rather than keep them. `started`
 * are the gracefulEvictionTasks the decision was made with that the stored binding did not have yet;
 * `stored` is the binding as stored, when `binding` carries them: every write's generation follows its
 * spec as stored (asWrittenByScheduler).
 */
export function planCommit(
  binding: ResourceBinding,
  decision: ScheduleDecision,
  now: string,
  released: readonly ReleasedTarget[] = [],
  started: readonly GracefulEvictionTask[] = [],
  stored: ResourceBinding = binding,
): CommitPlan {
  if (decision.result === 'unschedulable') {
    const release = released.length > 0 ? releaseTargets(binding, released, now) : undefined;
    const deleted = released.filter(({ cause }) => cause === 'deleted');
    // A binding that lost its placement with a deleted cluster says so until it is placed again.
    const reason = deleted.length > 0 || findCondition(binding, CONDITION_SCHEDULED)?.reason === 'ClusterDeleted' ? 'ClusterDeleted' : decision.reason;
    const message = release ? `${release.message}; ${decision.message}` : decision.message;
    const updated = withScheduledCondition(release?.binding ?? binding, 'False', reason, message, now);
    return {
      result: 'unschedulable',
      writes: [{ op: 'put', object: asWrittenByScheduler(updated, stored), expectedVersion: version(binding) }],
      deltas: release?.deltas ?? new Map(),
      events: [
        ...(deleted.length > 0 ? [{ type: 'Warning' as const, reason: 'ClusterDeleted', object: involvedObjectOf(binding), message: releaseMessage(deleted) }] : []),
        ...evictionEvents(binding, started, false),
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
    ...evictionEvents(binding, started, true),
  ];
  const victimWrites = decision.victims.map((victim): Write => {
    const clusters = victim.clusters.map((t) => t.name);
    for (const target of victim.clusters) addDelta(deltas, target.name, scale(victim.request, -target.replicas));
    const message = `preempted by ${describeBinding(binding)} (priority ${state.priority}) to make room on cluster ${clusters.join(', ')}`;
    const spec = placedOnly(victim.binding.spec, []);
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
    return { op: 'put', object: asWrittenByScheduler(evicted, victim.binding), expectedVersion: version(victim.binding) };
  });

  const placed: ResourceBinding = withScheduledCondition(
    {
      ...binding,
      spec: { ...placedOnly(binding.spec, decision.targets), clusters: [...decision.targets] },
      status: {
        ...binding.status,
        schedulerObservedGeneration: binding.metadata.generation ?? 0,
        lastScheduledTime: now,
        ...(decision.affinityName === undefined ? {} : { schedulerObservingAffinityName: decision.affinityName }),
      },
    },
    'True',
    'Success',
    decision.victims.length > 0 ? `Binding has been scheduled after preempting ${decision.victims.length} binding(s)` : 'Binding has been scheduled',
    now,
  );
  return {
    result: 'scheduled',
    writes: [{ op: 'put', object: asWrittenByScheduler(placed, stored), expectedVersion: version(binding) }, ...victimWrites],
    deltas,
    events,
    victims: decision.victims.length,
  };
}

/** The clusters where the plan frees room in some resource. */
export function freedClusters(plan: CommitPlan): string[] {
  return [...plan.deltas].filter(([, delta]) => Object.values(delta).some((amount) => amount < 0)).map(([name]) => name);
}
