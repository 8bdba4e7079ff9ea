import { clusterRef, isClusterReady } from '../api/cluster';
import type { ResourceBinding } from '../api/resource-binding';
import { bindingInformers, syncBindings } from './binding-informers';
import { requestScheduling } from './binding-requests';
import type { ControllerContext } from './context';
import { isDue, schedulingNeed } from './scheduling-need';
import { resyncTemplates } from './template-resync';

/**
 * reconcile (scheduled): queues again what is due — unschedulable bindings whose last attempt is older
 * than the requeue interval (binding priority and preemption (000): at the latest after 5 minutes),
 * bindings never attempted or changed since their last attempt (an interrupted cycle), and bindings on
 * clusters that are gone or not ready (failover through ordered cluster-affinity groups (004)). It reads
 * the change feeds of clusters and bindings, and looks at every binding in memory.
 */
export class ReconcileController {
  constructor(private readonly context: ControllerContext) {}

  async run(): Promise<number> {
    const clusters = this.context.informers.clusters();
    await Promise.all([clusters.sync(this.context.batch), syncBindings(this.context)]);
    const isReady = (name: string) => {
      const cluster = clusters.get(clusterRef(name));
      return cluster !== undefined && isClusterReady(cluster);
    };
    const now = this.context.clock.now();
    const due: ResourceBinding[] = [];
    for (const informer of bindingInformers(this.context)) {
      for (const binding of informer.values()) if (schedulingNeed(binding, isReady).needed && isDue(binding, now, this.context.config)) due.push(binding);
    }
    await requestScheduling(this.context, due, `reconcile@${now}`);
    return due.length;
  }

  /** On a slower schedule: templates whose binding is not as it should be go to policy-change again (template-resync.ts). */
  async resync(): Promise<number> {
    return resyncTemplates(this.context);
  }
}
