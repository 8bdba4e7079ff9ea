import { CONDITION_SCHEDULED, findCondition, isSuspended, type ResourceBinding } from '../api/resource-binding';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingRefOf } from './messages';

/** Asks binding-enqueue to look at these bindings; a repeat of the same version is dropped as a duplicate. */
export async function requestScheduling(context: ControllerContext, bindings: readonly ResourceBinding[]): Promise<void> {
  const messages = bindings.map((binding) => {
    const ref = bindingRefOf(binding);
    const resourceVersion = binding.metadata.resourceVersion ?? '0';
    return {
      body: { binding: ref, resourceVersion },
      groupId: bindingGroupId(ref),
      deduplicationId: `${bindingGroupId(ref)}@${resourceVersion}`,
    };
  });
  for (let start = 0; start < messages.length; start += 10) {
    await context.queues.bindingEnqueue.send(messages.slice(start, start + 10));
  }
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

/** 000_ced50c21932b3714.txt, queue: when room is freed, unschedulable bindings are queued again at once. */
export async function requeueUnschedulable(context: ControllerContext): Promise<void> {
  const waiting = (await listBindings(context)).filter(isWaitingForRoom);
  await requestScheduling(context, waiting);
}
