import { CONDITION_SCHEDULED, findCondition, isSuspended, type ResourceBinding } from '../api/resource-binding';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingMessageId, bindingRefOf } from './messages';

/**
 * Asks binding-enqueue to look at these bindings; a repeat of the same request is dropped as a duplicate.
 * `cause` names the change that prompted it when that is not the binding's own (a cluster at some
 * version, a placement freed): the binding must be looked at again when something else changes, even
 * at a version it was already looked at and left alone.
 */
export async function requestScheduling(context: ControllerContext, bindings: readonly ResourceBinding[], cause?: string): Promise<void> {
  const messages = bindings.map((binding) => {
    const ref = bindingRefOf(binding);
    const resourceVersion = binding.metadata.resourceVersion ?? '0';
    return {
      body: { binding: ref, resourceVersion, ...(cause === undefined ? {} : { cause }) },
      groupId: bindingGroupId(ref),
      deduplicationId: bindingMessageId(ref, resourceVersion, cause),
    };
  });
  await context.queues.bindingEnqueue.send(messages);
}

export async function listBindings(context: ControllerContext): Promise<ResourceBinding[]> {
  const [namespaced, clusterScoped] = await Promise.all([
    context.store.list<ResourceBinding>('work.karmada.io', 'ResourceBinding'),
    context.store.list<ResourceBinding>('work.karmada.io', 'ClusterResourceBinding'),
  ]);
  return [...namespaced, ...clusterScoped];
}

export function isWaitingForRoom(binding: ResourceBinding): boolean {
  const scheduled = findCondition(binding, CONDITION_SCHEDULED);
  return !isSuspended(binding) && scheduled?.status === 'False';
}

/** 000_ced50c21932b3714.txt, queue: when room is freed (by `cause`), unschedulable bindings are queued again at once. */
export async function requeueUnschedulable(context: ControllerContext, cause: string): Promise<void> {
  const waiting = (await listBindings(context)).filter(isWaitingForRoom);
  await requestScheduling(context, waiting, cause);
}
