import { timestampOf } from '../ports/clock';
import type { ResourceBinding } from '../api/resource-binding';
import { isScheduledBy } from '../api/scheduler-name';
import { SyncBatch } from '../cache/informer';
import type { Delivery } from '../ports/message-queue';
import { ConflictError, refOfWrite } from '../ports/object-store';
import { refKey } from '../api/kinds';
import { keptPlacement } from '../scheduler/kept-placement';
import { lostTargets } from '../scheduler/lost-target';
import { refusedTargets } from '../scheduler/refused-targets';
import { dueEvictions, expiredEvictions, withDueEvictions } from '../scheduler/graceful-eviction';
import { scheduleBinding, type ScheduleDecision } from '../scheduler/schedule-binding';
import { bindingKeyOf, type SchedulingSnapshot } from '../scheduler/snapshot';
import { bindingsToWake, highestFittingClass, type FreedRoom, type Placer, type WokenBinding } from '../scheduler/wake-up';
import { allocationAdds, allocationsOf, removeEmptyAllocations } from './allocations';
import { bindingsBy, waitingBindings } from './binding-informers';
import { requestScheduling, requestWoken, schedulingRequest } from './binding-requests';
import { freedClusters, planCommit, preemptedByMarker, withScheduledCondition, type CommitPlan, type ReleasedTarget } from './commit-plan';
import type { ControllerContext } from './context';
import { liveSnapshot, type LiveSnapshot } from './live-snapshot';
import { LongestStep } from './longest-step';
import { bindingKeyFor, bindingObjectRef, bindingRefOf } from './binding-references';
import { bindingGroupId, type QueuedBinding } from './messages';
import { retryOnConflict } from './retry-on-conflict';
import { backoffMs, isWaitingForRoom, recordNeed, schedulingNeed, type NeedTally } from './scheduling-need';

export interface CycleReport {
  readonly scheduled: number;
  readonly unschedulable: number;
  readonly skipped: number;
  readonly failed: number;
  /** Why each binding taken from a band and found in the snapshot needed scheduling, or was skipped (scheduling-need.ts), counted once. */
  readonly needs: NeedTally;
}

type Outcome = 'scheduled' | 'unschedulable' | 'skipped' | 'failed';

/**
 * Binding priority and preemption (000), queue order: highest priority first, first in first out
 * within a priority; with PriorityBasedScheduling off only arrival counts.
 */
export function queueOrder(priorityFirst: boolean) {
  return (a: Delivery<QueuedBinding>, b: Delivery<QueuedBinding>): number =>
    (priorityFirst ? b.body.priority - a.body.priority : 0) || a.body.enqueuedAt - b.body.enqueuedAt;
}

/**
 * schedule-cycle: pulls the highest non-empty priority band, places each binding (preempting when it
 * must), commits every decision in one conditional transaction, and only then deletes the message.
 *
 * Cost per batch, whatever the fleet's size: one read of the change feed per kind (clusters, bindings),
 * then per binding one transaction, its allocations moved by adds that read nothing; the bindings
 * themselves come from the live snapshot (a stale one fails the commit's condition).
 */
export class ScheduleCycleController {
  private readonly live: LiveSnapshot;
  /** The clusters the woken bindings of the batch in hand that did not fit after all were woken for (passRoomOn). */
  private passingRoomOn = new Map<string, ResourceBinding>();
  /** The needs of the bindings attempted since `run` started. */
  private needs: NeedTally = {};

  constructor(private readonly context: ControllerContext) {
    this.live = liveSnapshot(context);
  }

  /**
   * Runs batches until the bands are empty or `shouldStop` says the time budget is spent. It is asked
   * with the time the next step needs by LongestStep's rule: before a batch, twice the longest batch so
   * far; before each binding of a batch, twice the longest binding so far.
   */
  async run(shouldStop: (neededMs: number) => boolean = () => false): Promise<CycleReport> {
    const report = { scheduled: 0, unschedulable: 0, skipped: 0, failed: 0 };
    this.needs = {};
    const now = () => this.context.clock.now();
    const batches = new LongestStep(now);
    const bindings = new LongestStep(now);
    while (!shouldStop(batches.nextNeedsMs)) {
      const outcomes = await batches.timed(() => this.runBatch(bindings, () => shouldStop(bindings.nextNeedsMs)));
      if (outcomes.length === 0) break;
      for (const outcome of outcomes) report[outcome] += 1;
    }
    return { ...report, needs: this.needs };
  }

  /**
   * Handles one batch from the highest band that has messages; an empty result means nothing was
   * waiting. `outOfTime`, asked before each binding (whose time `bindings` keeps), may end the batch
   * early: the bindings not attempted go back to their queue at once, to be taken by the next cycle.
   */
  async runBatch(bindings = new LongestStep(() => this.context.clock.now()), outOfTime: () => boolean = () => false): Promise<Outcome[]> {
    const { config } = this.context;
    for (const band of config.bands) {
      const queue = this.context.queues.bands.get(band.name);
      if (!queue) continue;
      const deliveries = await queue.receive(config.scheduleBatchSize);
      if (deliveries.length === 0) continue;
      // Every binding these messages name was written before they were sent: one read of the feed sees it.
      await this.live.sync(new SyncBatch());
      const outcomes: Outcome[] = [];
      this.passingRoomOn = new Map();
      const ordered = [...deliveries].sort(queueOrder(config.gates.PriorityBasedScheduling));
      for (const [index, delivery] of ordered.entries()) {
        if (outOfTime()) {
          for (const left of ordered.slice(index)) await queue.retryAfter(left.receipt, 0);
          this.context.metrics.count('BindingsReturnedForTime', {}, ordered.length - index);
          break;
        }
        const outcome = await bindings.timed(() => this.attempt(delivery.body));
        if (outcome === 'failed') await queue.retryAfter(delivery.receipt, backoffMs(config, delivery.receiveCount));
        else await queue.delete([delivery.receipt]);
        if (outcome === 'scheduled') this.context.metrics.observe('EnqueueToScheduledMs', this.context.clock.now() - delivery.body.enqueuedAt);
        outcomes.push(outcome);
      }
      await this.passRoomOn(this.passingRoomOn, this.live.snapshot);
      return outcomes;
    }
    return [];
  }

  private async attempt(queued: QueuedBinding): Promise<Outcome> {
    const key = bindingKeyFor(queued.binding);
    if (!this.live.snapshot.bindings.has(key)) await this.live.readBindings([bindingObjectRef(queued.binding)]);
    try {
      return await retryOnConflict(this.context.config.maxCommitAttempts, ({ number }) => this.decideAndCommit(key, queued.wokenFor ?? [], number > 1), {
        onConflict: async (conflict) => {
          this.context.metrics.count('CommitConflicts');
          await this.live.refresh(conflict.refs);
        },
      });
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      await this.recordSchedulerError(key);
      return 'failed';
    }
  }

  /** Decides on the binding as the live snapshot holds it now, and commits the decision (a ConflictError when it is stale). */
  private async decideAndCommit(key: string, wokenFor: readonly string[], afterConflict: boolean): Promise<Outcome> {
    const { config } = this.context;
    const snapshot = this.live.snapshot;
    const binding = snapshot.bindings.get(key)?.binding;
    const clusterOf = (name: string) => snapshot.clusters.get(name)?.cluster;
    const nowMs = this.context.clock.now();
    const need = binding && schedulingNeed(binding, clusterOf, nowMs, config.schedulerNames);
    if (need && !afterConflict) recordNeed(this.context.metrics, 'schedule-cycle', need.reason, this.needs);
    if (!binding || !need?.needed) {
      if (binding) await this.requeueVictimsLeftWaiting(binding);
      return 'skipped';
    }
    const now = timestampOf(this.context.clock);
    // Karmada's taint manager: the evictions due now start here, as gracefulEvictionTasks the decision
    // is made with (the clusters they name are refused) and that stay while the binding keeps them.
    const started = dueEvictions(binding, clusterOf, nowMs);
    const subject = withDueEvictions(binding, started, now, config.gracefulEvictionTimeoutMs);
    // Its spec is unchanged and only the condition tells of a failed attempt: the placement is kept if it still fits.
    const kept = need.reason === 'ConditionStale' ? keptPlacement(subject, snapshot) : undefined;
    const decision: ScheduleDecision =
      kept ??
      scheduleBinding(subject, snapshot, {
        // Binding priority and preemption (000): preemption has its own gate; PriorityBasedScheduling only orders the queue.
        preemption: config.gates.PriorityBasedPreemptiveScheduling,
        victimSearchBudget: config.victimSearchBudget,
        now: nowMs,
      });
    if (decision.result === 'scheduled' && decision.victims.length > 0) {
      this.context.metrics.count('VictimSearches', { result: decision.exactVictims ? 'exact' : 'bounded' });
    }
    const released: ReleasedTarget[] = [
      ...lostTargets(binding, clusterOf).map((target) => ({ target, cause: 'deleted' as const })),
      ...refusedTargets(binding, clusterOf).map((target) => ({ target, cause: 'refused' as const })),
      ...expiredEvictions(subject, nowMs).map((target) => ({ target, cause: 'evicted' as const })),
    ];
    const startedTasks = (subject.spec.gracefulEvictionTasks ?? []).slice((binding.spec.gracefulEvictionTasks ?? []).length);
    return this.perform(planCommit(subject, decision, now, released, startedTasks, binding), snapshot, wokenFor, now);
  }

  /** Commits a plan: one transaction with the allocations' adds, then events and the wake-up of waiting bindings. */
  private async perform(plan: CommitPlan, snapshot: SchedulingSnapshot, wokenFor: readonly string[], now: string): Promise<Outcome> {
    // Each allocation the plan grows is limited to the cluster's capacity: a cycle beside this one that
    // took the room since the snapshot was synced makes the add conflict, and the binding is decided again.
    const allocations = allocationAdds(plan.deltas, { now, capacityOf: (cluster) => snapshot.clusters.get(cluster)?.capacity });
    const results = await this.context.store.transact([...plan.writes, ...allocations]).catch((error: unknown) => {
      // Apart: the conflicts of commits that evict, on a victim (cycles side by side took the same one)
      // or on anything else (the room of a cluster, the preemptor itself).
      if (error instanceof ConflictError && plan.victims > 0) {
        const victims = new Set(plan.writes.slice(1).map((write) => refKey(refOfWrite(write))));
        this.context.metrics.count('PreemptionConflicts', { on: error.refs.some((ref) => victims.has(refKey(ref))) ? 'victim' : 'other' });
      }
      throw error;
    });
    const written = results.slice(0, plan.writes.length) as ResourceBinding[];
    for (const binding of written) this.live.observe(binding);
    this.context.metrics.count('SchedulingAttempts', { result: plan.result });
    if (plan.victims > 0) this.context.metrics.count('BindingPreemptions', {}, plan.victims);
    for (const event of plan.events) await this.context.events.record(event);
    if (plan.result === 'scheduled' || freedClusters(plan).length > 0) await this.wakeAfter(plan, written, snapshot);
    if (plan.result === 'unschedulable') for (const cluster of wokenFor) this.passingRoomOn.set(cluster, written[0]!);
    // Last: the commit's events and requests are out before this tidying may fail.
    await this.removeEmptied(plan, snapshot);
    return plan.result;
  }

  /**
   * The allocation records of the clusters the commit left with nothing placed (by the snapshot, or
   * gone from it) are read and removed when empty: an add cannot tell, and clusters seldom empty.
   */
  private async removeEmptied(plan: CommitPlan, snapshot: SchedulingSnapshot): Promise<void> {
    const emptied = freedClusters(plan).filter((name) => (snapshot.clusters.get(name)?.residents.size ?? 0) === 0);
    if (emptied.length > 0) await removeEmptyAllocations(this.context.store, (await allocationsOf(this.context.store, emptied)).values());
  }

  /**
   * Binding priority and preemption (000), queue: the victims are queued again (they may fit elsewhere),
   * and where the commit freed room the waiting bindings that can use it are woken (wake-up.ts).
   */
  private async wakeAfter(plan: CommitPlan, written: readonly ResourceBinding[], snapshot: SchedulingSnapshot): Promise<void> {
    const [placed, ...victims] = written;
    const cause = commitCause(placed!);
    const freed = freedClusters(plan).flatMap((name) => {
      const cluster = snapshot.clusters.get(name);
      return cluster ? [{ cluster: cluster.cluster, room: cluster.room }] : [];
    });
    const requeued = new Set(victims.map(bindingKeyOf));
    const woken = this.toWake(freed, snapshot, (binding) => !requeued.has(bindingKeyOf(binding)));
    // One send for both.
    await this.context.queues.bindingEnqueue.send([
      ...victims.map((victim) => schedulingRequest(victim, cause)),
      ...woken.map(({ binding, clusters }) => schedulingRequest(binding, cause, clusters)),
    ]);
  }

  /**
   * A binding woken for freed room that does not fit after all (a binding placed before it took the
   * room) passes the room on: once per batch, the waiting bindings that fit in what is left on the
   * ready clusters they were woken for are woken in their stead. Each one woken fitted on the snapshot,
   * so this ends: a failure again means another binding was placed in the meantime.
   */
  private async passRoomOn(wokenFor: ReadonlyMap<string, ResourceBinding>, snapshot: SchedulingSnapshot): Promise<void> {
    const [first] = wokenFor.values();
    if (!first) return;
    const left = [...wokenFor.keys()].flatMap((name) => {
      const state = snapshot.clusters.get(name);
      return state?.ready ? [{ cluster: state.cluster, room: state.room }] : [];
    });
    const passers = new Set([...wokenFor.values()].map(bindingKeyOf));
    const woken = this.toWake(left, snapshot, (binding) => !passers.has(bindingKeyOf(binding)));
    await requestWoken(this.context, woken, `${bindingGroupId(bindingRefOf(first))}@${first.metadata.resourceVersion ?? '0'}@unschedulable`);
  }

  /** The waiting bindings (but those `include` leaves out) that the snapshot places without preemption in the room given. */
  private toWake(freed: readonly FreedRoom[], snapshot: SchedulingSnapshot, include: (binding: ResourceBinding) => boolean): WokenBinding[] {
    // A first placement frees nothing: the waiting bindings are not even read.
    if (freed.length === 0) return [];
    const now = this.context.clock.now();
    const placer: Placer = {
      place: (binding, reserved) => {
        const decision = scheduleBinding(binding, snapshot, { preemption: false, victimSearchBudget: this.context.config.victimSearchBudget, reserved, now });
        return decision.result === 'scheduled' ? decision.targets : undefined;
      },
      room: (name) => snapshot.clusters.get(name)?.room,
    };
    return bindingsToWake(waitingBindings(this.context, highestFittingClass(freed)).filter(include), freed, now, placer);
  }

  /**
   * The commit queues the victims only after it is written, so a cycle stopped in between leaves them
   * waiting, and the message comes back to a binding already placed: the victims of that placement
   * (found by their PREEMPTED_BY_ANNOTATION) are queued again, under the same deduplication id.
   */
  private async requeueVictimsLeftWaiting(binding: ResourceBinding): Promise<void> {
    const placedAt = binding.status?.lastScheduledTime;
    if (!placedAt) return;
    const { schedulerNames } = this.context.config;
    const left = bindingsBy(this.context, 'preempted-by', preemptedByMarker(binding, placedAt)).filter((victim) => isWaitingForRoom(victim) && isScheduledBy(schedulerNames, victim));
    if (left.length > 0) await requestScheduling(this.context, left, commitCause(binding));
  }

  private async recordSchedulerError(key: string): Promise<void> {
    this.context.metrics.count('SchedulingAttempts', { result: 'error' });
    const binding = this.live.snapshot.bindings.get(key)?.binding;
    if (!binding) return;
    const now = timestampOf(this.context.clock);
    const updated = withScheduledCondition(binding, 'False', 'SchedulerError', 'the placement kept conflicting with concurrent changes; retrying', now);
    try {
      const [written] = await this.context.store.transact([{ op: 'put', object: updated, expectedVersion: binding.metadata.resourceVersion ?? null }]);
      this.live.observe(written as ResourceBinding);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

/** The cause a commit queues bindings with, by the binding as the commit wrote it: the same on every try. */
function commitCause(committed: ResourceBinding): string {
  return `${bindingGroupId(bindingRefOf(committed))}@${committed.metadata.resourceVersion ?? '0'}@preempted`;
}
