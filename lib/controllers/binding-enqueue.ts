import { isClusterReady, type Cluster } from '../api/cluster';
import {
  bindingPriority,
  CONDITION_SCHEDULED,
  CONDITION_SCHEDULING_SUSPENDED,
  findCondition,
  isPlaced,
  isSuspended,
  withCondition,
  type ResourceBinding,
} from '../api/resource-binding';
import { bandFor } from '../config';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingMessageId, bindingObjectRef, bindingRefOf, type BindingRequest } from './messages';

/**
 * The binding's placement is for its current spec and on clusters that are all ready: nothing to move.
 * A binding with nothing to place (Divided, 0 replicas) is scheduled onto no cluster: that is a result.
 */
export function hasCurrentPlacement(binding: ResourceBinding, readyClusters: ReadonlySet<string>): boolean {
  if ((binding.status?.schedulerObservedGeneration ?? 0) !== (binding.metadata.generation ?? 0)) return false;
  if (!isPlaced(binding)) return findCondition(binding, CONDITION_SCHEDULED)?.status === 'True';
  return (binding.spec.clusters ?? []).every((target) => readyClusters.has(target.name));
}

/**
 * A binding needs a scheduling attempt when its spec changed since the scheduler last saw it, when it
 * is not placed, or when one of its clusters is gone or not ready (failover) — and also when its
 * placement is current again but its Scheduled condition still tells of a failed attempt.
 */
export function needsScheduling(binding: ResourceBinding, readyClusters: ReadonlySet<string>): boolean {
  if (isSuspended(binding)) return false;
  if (!hasCurrentPlacement(binding, readyClusters)) return true;
  return isPlaced(binding) && findCondition(binding, CONDITION_SCHEDULED)?.status === 'False';
}

export async function readyClusterNames(context: ControllerContext): Promise<Set<string>> {
  const clusters = await context.store.list<Cluster>('cluster.karmada.io', 'Cluster');
  return new Set(clusters.filter(isClusterReady).map((c) => c.metadata.name));
}

/**
 * binding-enqueue: reflects scheduling suspension in the binding's conditions (003_84d3efbe34f2569a.txt)
 * and queues bindings that need scheduling in the band of their priority (000_ced50c21932b3714.txt).
 */
export class BindingEnqueueController {
  constructor(private readonly context: ControllerContext) {}

  async handle(request: BindingRequest): Promise<void> {
    const { store, clock, config } = this.context;
    let binding = await store.get<ResourceBinding>(bindingObjectRef(request.binding));
    if (!binding) return;
    binding = await this.reflectSuspension(binding);
    if (!needsScheduling(binding, await readyClusterNames(this.context))) return;

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
