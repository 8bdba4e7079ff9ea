import { clusterRef, isClusterReady, type Cluster } from '../api/cluster';
import {
  bindingPriority,
  CONDITION_SCHEDULING_SUSPENDED,
  findCondition,
  isSuspended,
  withCondition,
  type ResourceBinding,
} from '../api/resource-binding';
import { bandFor } from '../config';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingMessageId, bindingObjectRef, bindingRefOf, type BindingRequest } from './messages';
import { schedulingNeed } from './scheduling-need';

/**
 * binding-enqueue: reflects scheduling suspension in the binding's conditions (scheduling suspension
 * (003)) and queues bindings that need scheduling in the band of their priority (binding priority and
 * preemption (000)). It reads the binding and the clusters it is placed on, nothing else.
 */
export class BindingEnqueueController {
  constructor(private readonly context: ControllerContext) {}

  async handle(request: BindingRequest): Promise<void> {
    const { store, clock, config } = this.context;
    let binding = await store.get<ResourceBinding>(bindingObjectRef(request.binding));
    if (!binding) return;
    binding = await this.reflectSuspension(binding);
    const ready = await this.readyClustersOf(binding);
    const need = schedulingNeed(binding, (name) => ready.has(name));
    if (!need.needed) return;

    const priority = bindingPriority(binding);
    const band = bandFor(config, priority);
    const queue = this.context.queues.bands.get(band.name);
    if (!queue) throw new Error(`no queue for priority band ${band.name}`);
    const ref = bindingRefOf(binding);
    await queue.send([
      {
        body: { binding: ref, priority, enqueuedAt: clock.now() },
        groupId: bindingGroupId(ref),
        deduplicationId: bindingMessageId(ref, binding.metadata.resourceVersion ?? '0', request.cause),
      },
    ]);
  }

  /** The clusters the binding is placed on that exist and are ready, read afresh in one request. */
  private async readyClustersOf(binding: ResourceBinding): Promise<Set<string>> {
    const clusters = await this.context.store.getMany<Cluster>((binding.spec.clusters ?? []).map((target) => clusterRef(target.name)));
    return new Set(clusters.filter((cluster): cluster is Cluster => cluster !== undefined && isClusterReady(cluster)).map((c) => c.metadata.name));
  }

  private async reflectSuspension(binding: ResourceBinding): Promise<ResourceBinding> {
    const suspended = isSuspended(binding);
    const current = findCondition(binding, CONDITION_SCHEDULING_SUSPENDED);
    if (current === undefined && !suspended) return binding;
    if (current?.status === (suspended ? 'True' : 'False')) return binding;
    const now = new Date(this.context.clock.now()).toISOString();
    const conditions = withCondition(binding.status?.conditions, {
      type: CONDITION_SCHEDULING_SUSPENDED,
      status: suspended ? 'True' : 'False',
      reason: suspended ? 'SchedulingSuspended' : 'SchedulingResumed',
      message: suspended ? 'spec.suspension.scheduling is true: the scheduler leaves this binding alone' : 'scheduling resumed',
      lastTransitionTime: now,
    });
    const updated: ResourceBinding = { ...binding, status: { ...binding.status, conditions } };
    const [written] = await this.context.store.transact([
      { op: 'put', object: updated, expectedVersion: binding.metadata.resourceVersion ?? null },
    ]);
    return written as ResourceBinding;
  }
}
