import { clusterRef } from '../api/cluster';
import { bindingPriority, type ResourceBinding } from '../api/resource-binding';
import { bindingKeyOf } from '../scheduler/snapshot';
import { bindingInformers } from './binding-informers';
import { requestScheduling } from './binding-requests';
import type { ControllerContext } from './context';
import { liveSnapshot, type LiveSnapshot } from './live-snapshot';
import { isDue, mustLeaveNow, recordNeed, schedulingNeed, type NeedTally, type SchedulingNeedReason } from './scheduling-need';
import { resyncTemplates } from './template-resync';
import { awaitsRoom, placeableNow } from './unschedulable-flush';

/** The cause of every reconcile request: with the binding's version, a deduplication id stable from run to run. */
const RECONCILE_CAUSE = 'reconcile';

function byPriority(a: DueBinding, b: DueBinding): number {
  return bindingPriority(b.binding) - bindingPriority(a.binding);
}

interface DueBinding {
  readonly binding: ResourceBinding;
  readonly reason: SchedulingNeedReason;
}

export interface ReconcileReport {
  readonly requeued: number;
  /** Why the bindings queued again needed scheduling (scheduling-need.ts). */
  readonly needs: NeedTally;
  /** Bindings waiting for room whose flush came round: how many were looked at, and how many would be placed now. */
  readonly flush: { readonly considered: number; readonly placeable: number };
}

/**
 * reconcile (scheduled): queues again what is due — bindings never attempted or changed since their
 * last attempt (an interrupted cycle), bindings on clusters that are gone or not ready (failover
 * through ordered cluster-affinity groups (004)), bindings on clusters their placement refuses (at
 * once, waiting for room or not: mustLeaveNow), and unschedulable bindings whose last attempt is
 * older than the requeue interval (binding priority and preemption (000): at the latest after 5
 * minutes) that the scheduler would place now (unschedulable-flush.ts). It keeps a live scheduling
 * snapshot from the change feeds of clusters and bindings, and looks at every binding in memory.
 *
 * It is a safety net, and must not deepen a backlog: a binding is requested under the same
 * deduplication id at every run until it changes (SQS drops a repeat within five minutes), and a run
 * adds no more than what the binding-enqueue queue lacks of `reconcileLimit` requests, highest
 * priority first.
 */
export class ReconcileController {
  private readonly live: LiveSnapshot;
  /**
   * When each waiting binding's flush was last decided (this process's memory): one that would not be
   * placed is looked at again an interval later, not at every run.
   */
  private flushedAt = new Map<string, number>();

  constructor(private readonly context: ControllerContext) {
    this.live = liveSnapshot(context);
  }

  async run(): Promise<ReconcileReport> {
    const snapshot = await this.live.sync(this.context.batch);
    const clusters = this.context.informers.clusters();
    const clusterOf = (name: string) => clusters.get(clusterRef(name));
    const { config } = this.context;
    const now = this.context.clock.now();
    const due: DueBinding[] = [];
    const flushDue: DueBinding[] = [];
    const flushedAt = new Map<string, number>();
    for (const informer of bindingInformers(this.context)) {
      for (const binding of informer.values()) {
        const need = schedulingNeed(binding, clusterOf, now, config.schedulerNames);
        if (!need.needed) continue;
        const atOnce = mustLeaveNow(binding, clusterOf, now);
        if (!atOnce && !isDue(binding, now, config)) continue;
        if (atOnce || !awaitsRoom(binding)) {
          due.push({ binding, reason: need.reason });
          continue;
        }
        const key = bindingKeyOf(binding);
        const decidedAt = this.flushedAt.get(key);
        if (decidedAt !== undefined && now - decidedAt < config.unschedulableRequeueMs) flushedAt.set(key, decidedAt);
        else flushDue.push({ binding, reason: need.reason });
      }
    }
    const placeable = new Set(placeableNow(flushDue.map((d) => d.binding), snapshot, config, now));
    for (const waiting of flushDue) {
      if (placeable.has(waiting.binding)) due.push(waiting);
      else flushedAt.set(bindingKeyOf(waiting.binding), now);
    }
    this.flushedAt = flushedAt;

    const backlog = await this.context.queues.bindingEnqueue.depth();
    const room = Math.max(0, config.reconcileLimit - backlog.visible - backlog.inFlight);
    const requested = due.sort(byPriority).slice(0, room);
    await requestScheduling(this.context, requested.map((d) => d.binding), RECONCILE_CAUSE);
    const needs: NeedTally = {};
    for (const { reason } of requested) recordNeed(this.context.metrics, 'reconcile', reason, needs);
    this.context.metrics.count('UnschedulableFlush', { result: 'considered' }, flushDue.length);
    this.context.metrics.count('UnschedulableFlush', { result: 'placeable' }, placeable.size);
    return { requeued: requested.length, needs, flush: { considered: flushDue.length, placeable: placeable.size } };
  }

  /** On a slower schedule: templates whose binding is not as it should be go to policy-change again (template-resync.ts). */
  async resync(): Promise<number> {
    return resyncTemplates(this.context);
  }
}
