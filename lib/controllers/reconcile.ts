import { CONDITION_SCHEDULED, findCondition, type ResourceBinding } from '../api/resource-binding';
import { listBindings, requestScheduling } from './binding-requests';
import { needsScheduling, readyClusterNames } from './binding-enqueue';
import type { ControllerContext } from './context';
import { resyncTemplates } from './template-resync';

/**
 * reconcile (scheduled): queues again what is due — unschedulable bindings whose last attempt is older
 * than the requeue interval (000_ced50c21932b3714.txt: at the latest after 5 minutes), bindings never
 * attempted or changed since their last attempt (an interrupted cycle), and bindings on clusters that
 * are gone or not ready (failover through clusterAffinities, 004_534d4b90920780ba.txt).
 */
export class ReconcileController {
  constructor(private readonly context: ControllerContext) {}

  async run(): Promise<number> {
    const ready = await readyClusterNames(this.context);
    const now = this.context.clock.now();
    const due = (await listBindings(this.context)).filter((binding) => this.isDue(binding, ready, now));
    await requestScheduling(this.context, due, `reconcile@${now}`);
    return due.length;
  }

  /** On a slower schedule: every template to policy-change again (template-resync.ts). */
  async resync(): Promise<number> {
    return resyncTemplates(this.context);
  }

  private isDue(binding: ResourceBinding, ready: ReadonlySet<string>, now: number): boolean {
    if (!needsScheduling(binding, ready)) return false;
    const scheduled = findCondition(binding, CONDITION_SCHEDULED);
    if (scheduled?.status !== 'False') return true;
    const observedCurrentSpec = (binding.status?.schedulerObservedGeneration ?? 0) === (binding.metadata.generation ?? 0);
    const lastAttempt = Date.parse(scheduled.lastUpdateTime ?? scheduled.lastTransitionTime ?? '');
    const waitedLongEnough = Number.isNaN(lastAttempt) || now - lastAttempt >= this.context.config.unschedulableRequeueMs;
    return waitedLongEnough || (!observedCurrentSpec && scheduled.reason === 'SchedulerError');
  }
}
