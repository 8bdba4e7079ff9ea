import { involvedObjectOf, PREEMPTOR_PRIORITY_ANNOTATION, VICTIM_PREEMPTIBILITY_ANNOTATION, VICTIM_PRIORITY_ANNOTATION } from '../api/event';
import type { Cluster } from '../api/cluster';
import { displayName } from '../api/kinds';
import {
  CONDITION_SCHEDULED,
  findCondition,
  isPlaced,
  withCondition,
  type ResourceBinding,
  type ScheduledReason,
} from '../api/resource-binding';
import { backoffMs } from '../config';
import type { Delivery } from '../ports/message-queue';
import { ConflictError, type Write } from '../ports/object-store';
import { scale, type ResourceList } from '../resources';
import { scheduleBinding, type ScheduleDecision } from '../scheduler/schedule-binding';
import { bindingState, SchedulingSnapshot } from '../scheduler/snapshot';
import { addDelta, allocationChange, allocationRef } from './allocations';
import { isWaitingForRoom, listBindings, requeueUnschedulable } from './binding-requests';
import { hasCurrentPlacement, needsScheduling } from './binding-enqueue';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingObjectRef, bindingRefOf, type QueuedBinding } from './messages';

export interface CycleReport {
  readonly scheduled: number;
  readonly unschedulable: number;
  readonly skipped: number;
  readonly failed: number;
}

type Outcome = 'scheduled' | 'unschedulable' | 'skipped' | 'failed';

/**
 * 000_ced50c21932b3714.txt, queue order: highest priority first, first in first out within a priority;
 * with PriorityBasedScheduling off only arrival counts.
 */
export function queueOrder(priorityFirst: boolean) {
  return (a: Delivery<QueuedBinding>, b: Delivery<QueuedBinding>): number =>
    (priorityFirst ? b.body.priority - a.body.priority : 0) || a.body.enqueuedAt - b.body.enqueuedAt;
}

/**
 * schedule-cycle: pulls the highest non-empty priority band, places each binding (preempting when it
 * must), commits every decision in one conditional transaction, and only then deletes the message.
 */
export class ScheduleCycleController {
  private snapshot: SchedulingSnapshot | undefined;

  constructor(private readonly context: ControllerContext) {}

  /** Runs batches until the bands are empty or `shouldStop` says the time budget is spent. */
  async run(shouldStop: () => boolean = () => false): Promise<CycleReport> {
    const report = { scheduled: 0, unschedulable: 0, skipped: 0, failed: 0 };
    while (!shouldStop()) {
      const outcomes = await this.runBatch();
      if (outcomes.length === 0) break;
      for (const outcome of outcomes) report[outcome] += 1;
    }
    return report;
  }

  /** Handles one batch from the highest band that has messages; an empty result means nothing was waiting. */
  async runBatch(): Promise<Outcome[]> {
    const { config } = this.context;
    for (const band of config.bands) {
      const queue = this.context.queues.bands.get(band.name);
      if (!queue) continue;
      const deliveries = await queue.receive(config.scheduleBatchSize);
      if (deliveries.length === 0) continue;
      this.snapshot = await this.loadSnapshot();
      const outcomes: Outcome[] = [];
      for (const delivery of [...deliveries].sort(queueOrder(config.gates.PriorityBasedScheduling))) {
        const outcome = await this.attempt(delivery.body);
        if (outcome === 'failed') await queue.retryAfter(delivery.receipt, backoffMs(config, delivery.receiveCount));
        else await queue.delete([delivery.receipt]);
        if (outcome === 'scheduled') this.context.metrics.observe('EnqueueToScheduledMs', this.context.clock.now() - delivery.body.enqueuedAt);
        outcomes.push(outcome);
      }
      return outcomes;
    }
    return [];
  }

  private async loadSnapshot(): Promise<SchedulingSnapshot> {
    const [clusters, bindings] = await Promise.all([
      this.context.store.list<Cluster>('cluster.karmada.io', 'Cluster'),
      listBindings(this.context),
    ]);
    return new SchedulingSnapshot(clusters, bindings);
  }

  private async attempt(queued: QueuedBinding): Promise<Outcome> {
    const { store, config } = this.context;
    for (let attempt = 1; attempt <= config.maxCommitAttempts; attempt += 1) {
      const snapshot = this.snapshot ?? (await this.loadSnapshot());
      const binding = await store.get<ResourceBinding>(bindingObjectRef(queued.binding));
      const ready = new Set([...snapshot.clusters.values()].filter((c) => c.ready).map((c) => c.name));
      if (!binding || !needsScheduling(binding, ready)) {
        if (binding && victimsLeftWaiting(binding, snapshot)) await requeueUnschedulable(this.context, commitCause(binding));
        return 'skipped';
      }
      // The clusters it is on are ready again and its spec is unchanged: keep the placement, fix the condition.
      const decision: ScheduleDecision = hasCurrentPlacement(binding, ready)
        ? { result: 'scheduled', targets: binding.spec.clusters ?? [], affinityName: binding.status?.schedulerObservedAffinityName, victims: [], exactVictims: true }
        : scheduleBinding(binding, snapshot, {
            // 000_ced50c21932b3714.txt: preemption has its own gate; PriorityBasedScheduling only orders the queue.
            preemption: config.gates.PriorityBasedPreemptiveScheduling,
            victimSearchBudget: config.victimSearchBudget,
          });
      try {
        return await this.commit(binding, decision, snapshot);
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        this.snapshot = await this.loadSnapshot();
      }
    }
    await this.recordSchedulerError(queued);
    return 'failed';
  }

  private async commit(binding: ResourceBinding, decision: ScheduleDecision, snapshot: SchedulingSnapshot): Promise<Outcome> {
    const now = new Date(this.context.clock.now()).toISOString();
    if (decision.result === 'unschedulable') {
      const updated = withScheduledCondition(binding, 'False', decision.reason, decision.message, now);
      const [written] = await this.context.store.transact([{ op: 'put', object: updated, expectedVersion: version(binding) }]);
      snapshot.upsert(written as ResourceBinding);
      this.context.metrics.count('SchedulingAttempts', { result: 'unschedulable' });
      await this.context.events.record({
        type: 'Warning',
        reason: 'ScheduleBindingFailed',
        object: involvedObjectOf(binding),
        message: decision.message,
      });
      return 'unschedulable';
    }

    const state = bindingState(binding);
    const deltas = new Map<string, ResourceList>();
    for (const target of binding.spec.clusters ?? []) addDelta(deltas, target.name, scale(state.request, -target.replicas));
    for (const target of decision.targets) addDelta(deltas, target.name, scale(state.request, target.replicas));

    const victims = decision.victims.map((victim) => {
      const clusters = victim.clusters.map((t) => t.name);
      for (const target of victim.clusters) addDelta(deltas, target.name, scale(victim.request, -target.replicas));
      const message = `${preemptedBy(binding)} (priority ${state.priority}) to make room on cluster ${clusters.join(', ')}`;
      const { clusters: _placed, ...spec } = victim.binding.spec;
      const evicted: ResourceBinding = withScheduledCondition({ ...victim.binding, spec }, 'False', 'Unschedulable', message, now);
      // The priorities and preemptibility the decision was made on, so that it can be audited later.
      const annotations = {
        [PREEMPTOR_PRIORITY_ANNOTATION]: String(state.priority),
        [VICTIM_PRIORITY_ANNOTATION]: String(victim.priority),
        [VICTIM_PREEMPTIBILITY_ANNOTATION]: victim.preemptible ? 'preemptible' : 'non-preemptible',
      };
      return { before: victim.binding, after: evicted, message, annotations };
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
    const allocations = await allocationChange(this.context.store, deltas);
    const crowded = overCommitted(snapshot, deltas, allocations.placedAfter);
    if (crowded.length > 0) throw new ConflictError(crowded.map(allocationRef));
    const writes: Write[] = [
      { op: 'put', object: placed, expectedVersion: version(binding) },
      ...victims.map((v): Write => ({ op: 'put', object: v.after, expectedVersion: version(v.before) })),
      ...allocations.writes,
    ];
    const written = await this.context.store.transact(writes);
    for (const object of written.slice(0, 1 + victims.length)) snapshot.upsert(object as ResourceBinding);

    this.context.metrics.count('SchedulingAttempts', { result: 'scheduled' });
    await this.context.events.record({
      type: 'Normal',
      reason: 'ScheduleBindingSucceed',
      object: involvedObjectOf(binding),
      message: `placed on ${decision.targets.map((t) => `${t.name} (${t.replicas})`).join(', ') || 'no cluster'}`,
    });
    if (victims.length > 0) {
      this.context.metrics.count('BindingPreemptions', {}, victims.length);
      for (const victim of victims) {
        await this.context.events.record({
          type: 'Warning',
          reason: 'Preempted',
          object: involvedObjectOf(victim.before),
          related: involvedObjectOf(binding),
          message: victim.message,
          annotations: victim.annotations,
        });
      }
    }
    // 000_ced50c21932b3714.txt: evicted victims and a binding that moved or shrank free room; the
    // victims are unschedulable now, so this queues them again too, each once.
    if (victims.length > 0 || leftRoomBehind(binding, decision.targets)) {
      await requeueUnschedulable(this.context, commitCause(written[0] as ResourceBinding));
    }
    return 'scheduled';
  }

  private async recordSchedulerError(queued: QueuedBinding): Promise<void> {
    this.context.metrics.count('SchedulingAttempts', { result: 'error' });
    const binding = await this.context.store.get<ResourceBinding>(bindingObjectRef(queued.binding));
    if (!binding) return;
    const now = new Date(this.context.clock.now()).toISOString();
    const updated = withScheduledCondition(binding, 'False', 'SchedulerError', 'the placement kept conflicting with concurrent changes; retrying', now);
    try {
      await this.context.store.transact([{ op: 'put', object: updated, expectedVersion: version(binding) }]);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
  }
}

/**
 * The clusters this decision would fill beyond their capacity by the allocation records as they are
 * now. The decision was made on the cycle's snapshot, which does not see what other cycles placed
 * since it was read; the allocation records do, and the commit is conditional on them, so a
 * decision that no longer fits is taken for a conflict and made again on a fresh snapshot.
 */
function overCommitted(snapshot: SchedulingSnapshot, deltas: ReadonlyMap<string, ResourceList>, placedAfter: ReadonlyMap<string, ResourceList>): string[] {
  return [...deltas].flatMap(([name, delta]) => {
    const capacity = snapshot.clusters.get(name)?.capacity ?? {};
    const placed = placedAfter.get(name) ?? {};
    const grows = Object.entries(delta).filter(([, amount]) => amount > 0);
    return grows.some(([resource]) => (placed[resource] ?? 0) > (capacity[resource] ?? 0)) ? [name] : [];
  });
}

/** True when the new placement holds fewer replicas than the old one on some cluster. */
function leftRoomBehind(binding: ResourceBinding, targets: readonly { name: string; replicas: number }[]): boolean {
  return (binding.spec.clusters ?? []).some((old) => (targets.find((t) => t.name === old.name)?.replicas ?? 0) < old.replicas);
}

/** The cause a commit queues the waiting bindings with, by the binding as the commit wrote it: the same on every try. */
function commitCause(committed: ResourceBinding): string {
  return `${bindingGroupId(bindingRefOf(committed))}@${committed.metadata.resourceVersion ?? '0'}@preempted`;
}

function preemptedBy(preemptor: ResourceBinding): string {
  return `preempted by ${describeBinding(preemptor)}`;
}

/**
 * Whether victims of this binding's placement still wait as its commit left them: not tried since
 * (their Scheduled condition dates from the placement and names it). The commit queues them again
 * only after it is written, so a cycle stopped in between leaves them so, and its message comes back
 * to a binding already placed. Queuing them then repeats the requeue, under the same deduplication id.
 */
function victimsLeftWaiting(binding: ResourceBinding, snapshot: SchedulingSnapshot): boolean {
  const placedAt = binding.status?.lastScheduledTime;
  if (!placedAt || !isPlaced(binding)) return false;
  return [...snapshot.bindings.values()].some(({ binding: other }) => {
    const scheduled = findCondition(other, CONDITION_SCHEDULED);
    return isWaitingForRoom(other) && scheduled?.lastUpdateTime === placedAt && scheduled.message?.startsWith(`${preemptedBy(binding)} (`);
  });
}

function version(binding: ResourceBinding): string | null {
  return binding.metadata.resourceVersion ?? null;
}

function withScheduledCondition(
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
