import {
  CONDITION_SCHEDULED,
  findCondition,
  isPlaced,
  isSuspended,
  type ResourceBinding,
} from '../api/resource-binding';
import { isClusterReady, type Cluster } from '../api/cluster';
import { isScheduledBy } from '../api/scheduler-name';
import type { SchedulerConfig } from '../config';
import { rescheduleRequired } from '../scheduler/assignment-mode';
import { isLostTarget } from '../scheduler/lost-target';
import { refusedTargets } from '../scheduler/refused-targets';
import { dueEvictions, evictingTargets, expiredEvictions } from '../scheduler/graceful-eviction';
import { hasNothingToPlace } from '../scheduler/replica-strategy';
import type { Metrics } from '../ports/metrics';

/**
 * Whether a binding needs a scheduling attempt, and why: the one place that says so, for binding-enqueue,
 * schedule-cycle and the reconcile alike, with the queue's timing rules (backoff, the unschedulable
 * flush) beside it. The reason is carried by the SchedulingNeeds metric (by controller and reason) and
 * by the tallies that schedule-cycle and the reconcile log when they finish (recordNeed).
 */
export type SchedulingNeed =
  | { readonly needed: false; readonly reason: 'OtherScheduler' | 'Suspended' | 'PlacementCurrent' }
  | {
      readonly needed: true;
      /**
       * NotPlaced: it has no placement yet (new, or waiting for room). SpecChanged: it is placed, but its
       * spec changed since the scheduler placed it. ClusterNotReady: a cluster it is placed on is gone or
       * not ready (failover). ClusterRefused: the affinity term it was placed by no longer admits a
       * cluster it is placed on (refused-targets.ts). NoExecuteTaint: a cluster it is placed on evicts it
       * now (a NoExecute taint it does not tolerate, or no longer: no-execute.ts), or its graceful
       * eviction from one is over (graceful-eviction.ts). Evicting: it is being evicted from a cluster
       * it still holds until it is placed elsewhere. RescheduleTriggered: a user asked for a fresh
       * division (spec.rescheduleTriggeredAt later than status.lastScheduledTime, as Karmada's scheduler
       * reschedules it). ConditionStale: the placement is current again but the Scheduled condition
       * still tells of a failed attempt.
       */
      readonly reason:
        | 'SpecChanged'
        | 'NotPlaced'
        | 'ClusterNotReady'
        | 'ClusterRefused'
        | 'NoExecuteTaint'
        | 'Evicting'
        | 'RescheduleTriggered'
        | 'ConditionStale';
    };

export type SchedulingNeedReason = SchedulingNeed['reason'];

/** How many bindings each reason was given for, as a controller's finishing log line carries it. */
export type NeedTally = Partial<Record<SchedulingNeedReason, number>>;

/**
 * What decided on a binding's need: the dimension of the SchedulingNeeds metric. template-claims queues
 * the bindings it has just written itself (in policy-change, and in the reconcile's template resync).
 */
export type NeedingController = 'template-claims' | 'binding-enqueue' | 'schedule-cycle' | 'reconcile';

/** Counts one binding's need in the SchedulingNeeds metric and, when given, in a controller's tally. */
export function recordNeed(metrics: Metrics, controller: NeedingController, reason: SchedulingNeedReason, tally?: NeedTally): void {
  metrics.count('SchedulingNeeds', { controller, reason });
  if (tally) tally[reason] = (tally[reason] ?? 0) + 1;
}

/** A cluster by name as the caller last read it (undefined: it does not exist). */
export type ClusterLookup = (cluster: string) => Cluster | undefined;

/** The binding's placement is on this cluster as it is now, and the cluster is ready. */
function holdsReadyTarget(binding: ResourceBinding, cluster: Cluster | undefined): boolean {
  return cluster !== undefined && isClusterReady(cluster) && !isLostTarget(binding, cluster);
}

function specChangedSinceScheduled(binding: ResourceBinding): boolean {
  return (binding.status?.schedulerObservedGeneration ?? 0) !== (binding.metadata.generation ?? 0);
}

/**
 * Not placed, scheduled with success for its current spec, which has nothing to place (hasNothingToPlace):
 * the scheduler's result for a Divided binding of 0 replicas. `outrank check` holds it placed too.
 */
export function isScheduledOntoNoCluster(binding: ResourceBinding): boolean {
  return (
    !isPlaced(binding) &&
    hasNothingToPlace(binding) &&
    !specChangedSinceScheduled(binding) &&
    findCondition(binding, CONDITION_SCHEDULED)?.status === 'True'
  );
}

/**
 * A cluster deleted, or deleted and created again, since the binding was placed on it counts as gone. The
 * placement must stand where it is as keptPlacement (kept-placement.ts) requires of one it keeps.
 */
function placementNeed(binding: ResourceBinding, clusterOf: ClusterLookup, now: number): Exclude<SchedulingNeedReason, 'OtherScheduler' | 'Suspended' | 'PlacementCurrent' | 'ConditionStale'> | undefined {
  if (!isPlaced(binding)) return isScheduledOntoNoCluster(binding) ? undefined : 'NotPlaced';
  if (specChangedSinceScheduled(binding)) return 'SpecChanged';
  if (!(binding.spec.clusters ?? []).every((target) => holdsReadyTarget(binding, clusterOf(target.name)))) return 'ClusterNotReady';
  if (refusedTargets(binding, clusterOf).length > 0) return 'ClusterRefused';
  if (dueEvictions(binding, clusterOf, now).length > 0 || expiredEvictions(binding, now).length > 0) return 'NoExecuteTaint';
  return evictingTargets(binding).length > 0 ? 'Evicting' : undefined;
}

/**
 * Another scheduler's binding first (its spec.schedulerName is none of `schedulerNames`: Karmada's
 * scheduler filters every binding by its name), then scheduling suspension (003): such a binding is
 * left alone whatever else holds. `now` is when NoExecute tolerations and graceful evictions are judged.
 */
export function schedulingNeed(binding: ResourceBinding, clusterOf: ClusterLookup, now: number, schedulerNames: readonly string[]): SchedulingNeed {
  if (!isScheduledBy(schedulerNames, binding)) return { needed: false, reason: 'OtherScheduler' };
  if (isSuspended(binding)) return { needed: false, reason: 'Suspended' };
  const placement = placementNeed(binding, clusterOf, now);
  if (placement) return { needed: true, reason: placement };
  if (rescheduleRequired(binding)) return { needed: true, reason: 'RescheduleTriggered' };
  if (isPlaced(binding) && findCondition(binding, CONDITION_SCHEDULED)?.status === 'False') return { needed: true, reason: 'ConditionStale' };
  return { needed: false, reason: 'PlacementCurrent' };
}

/** Waiting for room: not suspended, and its last attempt failed. */
export function isWaitingForRoom(binding: ResourceBinding): boolean {
  const scheduled = findCondition(binding, CONDITION_SCHEDULED);
  return !isSuspended(binding) && scheduled?.status === 'False';
}

/**
 * Whether the binding must leave a cluster it is placed on now, whatever else it needs (its spec may
 * have changed too): its affinity term refuses the cluster, the cluster's NoExecute taints evict it, or
 * its graceful eviction from one is over. Its attempt moves it off, or releases what it must leave (an
 * eviction: starts its grace period), so it is attempted at once, waiting for room or not.
 */
export function mustLeaveNow(binding: ResourceBinding, clusterOf: ClusterLookup, now: number): boolean {
  return refusedTargets(binding, clusterOf).length > 0 || dueEvictions(binding, clusterOf, now).length > 0 || expiredEvictions(binding, now).length > 0;
}

/**
 * Binding priority and preemption (000), queue: whether the reconcile must queue a binding that needs
 * scheduling again now. Never attempted, or changed since the attempt that failed with a SchedulerError
 * (an interrupted cycle): at once. Unschedulable: when the flush interval has passed since the last
 * attempt (at the latest after 5 minutes), room freed in between having woken it already if it fits.
 */
export function isDue(binding: ResourceBinding, now: number, config: Pick<SchedulerConfig, 'unschedulableRequeueMs'>): boolean {
  const scheduled = findCondition(binding, CONDITION_SCHEDULED);
  if (scheduled?.status !== 'False') return true;
  const observedCurrentSpec = (binding.status?.schedulerObservedGeneration ?? 0) === (binding.metadata.generation ?? 0);
  const lastAttempt = Date.parse(scheduled.lastUpdateTime ?? scheduled.lastTransitionTime ?? '');
  const waitedLongEnough = Number.isNaN(lastAttempt) || now - lastAttempt >= config.unschedulableRequeueMs;
  return waitedLongEnough || (!observedCurrentSpec && scheduled.reason === 'SchedulerError');
}

/** Binding priority and preemption (000), queue: failed attempts back off, doubling from the initial delay to the cap. */
export function backoffMs(config: Pick<SchedulerConfig, 'initialBackoffMs' | 'maxBackoffMs'>, attempt: number): number {
  return Math.min(config.maxBackoffMs, config.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
}
