import { clusterRef } from '../api/cluster';
import { bindingPriority, type ResourceBinding } from '../api/resource-binding';
import { bindingInformers, syncBindings } from './binding-informers';
import { requestScheduling } from './binding-requests';
import type { ControllerContext } from './context';
import { isDue, recordNeed, schedulingNeed, type NeedTally, type SchedulingNeedReason } from './scheduling-need';
import { resyncTemplates } from './template-resync';

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
}

/**
 * reconcile (scheduled): queues again what is due — unschedulable bindings whose last attempt is older
 * than the requeue interval (binding priority and preemption (000): at the latest after 5 minutes),
 * bindings never attempted or changed since their last attempt (an interrupted cycle), and bindings on
 * clusters that are gone or not ready (failover through ordered cluster-affinity groups (004)). It reads
 * the change feeds of clusters and bindings, and looks at every binding in memory.
 *
 * It is a safety net, and must not deepen a backlog: a binding is requested under the same
 * deduplication id at every run until it changes (SQS drops a repeat within five minutes), and a run
 * adds no more than what the binding-enqueue queue lacks of `reconcileLimit` requests, highest
 * priority first.
 */
export class ReconcileController {
  constructor(private readonly context: ControllerContext) {}

  async run(): Promise<ReconcileReport> {
    const clusters = this.context.informers.clusters();
    await Promise.all([clusters.sync(this.context.batch), syncBindings(this.context)]);
    const clusterOf = (name: string) => clusters.get(clusterRef(name));
    const now = this.context.clock.now();
    const due: DueBinding[] = [];
    for (const informer of bindingInformers(this.context)) {
      for (const binding of informer.values()) {
        const need = schedulingNeed(binding, clusterOf);
        if (need.needed && isDue(binding, now, this.context.config)) due.push({ binding, reason: need.reason });
      }
    }
    const backlog = await this.context.queues.bindingEnqueue.depth();
    const room = Math.max(0, this.context.config.reconcileLimit - backlog.visible - backlog.inFlight);
    const requested = due.sort(byPriority).slice(0, room);
    await requestScheduling(this.context, requested.map((d) => d.binding), RECONCILE_CAUSE);
    const needs: NeedTally = {};
    for (const { reason } of requested) recordNeed(this.context.metrics, 'reconcile', reason, needs);
    return { requeued: requested.length, needs };
  }

  /** On a slower schedule: templates whose binding is not as it should be go to policy-change again (template-resync.ts). */
  async resync(): Promise<number> {
    return resyncTemplates(this.context);
  }
}
