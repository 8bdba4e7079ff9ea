import { clusterRef } from '../api/cluster';
import type { ResourceBinding } from '../api/resource-binding';
import { subtract, type ResourceList } from '../resources';
import { capacityOf } from '../scheduler/snapshot';
import { bindingsToWake, highestFittingClass, type FreedRoom, type WokenBinding } from '../scheduler/wake-up';
import { allocationsOf, removeEmptyAllocations } from './allocations';
import { syncBindings, waitingBindings } from './binding-informers';
import type { ControllerContext } from './context';
import type { OutgoingMessage } from '../ports/message-queue';
import { bindingRefOf } from './binding-references';
import { bindingGroupId, bindingMessageId, wokenForField, type BindingRequest } from './messages';

/**
 * Asks binding-enqueue to look at these bindings; a repeat of the same request is dropped as a duplicate.
 * `cause` names the change that prompted it when that is not the binding's own (a cluster at some
 * version, a placement freed): the binding must be looked at again when something else changes, even
 * at a version it was already looked at and left alone.
 */
export async function requestScheduling(
  context: ControllerContext,
  bindings: readonly ResourceBinding[],
  cause?: string,
): Promise<void> {
  await context.queues.bindingEnqueue.send(bindings.map((binding) => schedulingRequest(binding, cause)));
}

/** Asks binding-enqueue to queue bindings woken for freed room (wake-up.ts), each with the clusters it was woken for. */
export async function requestWoken(context: ControllerContext, woken: readonly WokenBinding[], cause: string): Promise<void> {
  await context.queues.bindingEnqueue.send(woken.map(({ binding, clusters }) => schedulingRequest(binding, cause, clusters)));
}

/** The binding-enqueue message of one request (see requestScheduling). */
export function schedulingRequest(binding: ResourceBinding, cause: string | undefined, wokenFor?: readonly string[]): OutgoingMessage<BindingRequest> {
  const ref = bindingRefOf(binding);
  const resourceVersion = binding.metadata.resourceVersion ?? '0';
  return {
    body: { binding: ref, resourceVersion, ...(cause === undefined ? {} : { cause }), ...wokenForField(wokenFor) },
    groupId: bindingGroupId(ref),
    deduplicationId: bindingMessageId(ref, resourceVersion, cause),
  };
}

/** Every binding in the store: for reports and tests, never on a controller's path. */
export async function listBindings(context: Pick<ControllerContext, 'store'>): Promise<ResourceBinding[]> {
  const [namespaced, clusterScoped] = await Promise.all([
    context.store.list<ResourceBinding>('work.karmada.io', 'ResourceBinding'),
    context.store.list<ResourceBinding>('work.karmada.io', 'ClusterResourceBinding'),
  ]);
  return [...namespaced, ...clusterScoped];
}

/**
 * Binding priority and preemption (000), queue: when room is freed (by `cause`), the waiting bindings
 * that can use it are queued again at once (wake-up.ts); the bindings informers tell which are waiting.
 * Returns how many were queued.
 */
export async function wakeWaiting(context: ControllerContext, freed: readonly FreedRoom[], cause: string): Promise<number> {
  if (freed.length === 0) return 0;
  await syncBindings(context);
  const woken = bindingsToWake(waitingBindings(context, highestFittingClass(freed)), freed, context.clock.now());
  await requestWoken(context, woken, cause);
  return woken.length;
}

/**
 * After a write that gave room back on these clusters (a binding removed, or placed elsewhere by its
 * scheduler): their allocation records, read once it is written, go when they hold nothing, and the
 * waiting bindings that can use what is left are woken.
 */
export async function afterRoomFreed(context: ControllerContext, clusters: readonly string[], cause: string): Promise<number> {
  if (clusters.length === 0) return 0;
  const records = await allocationsOf(context.store, clusters);
  await removeEmptyAllocations(context.store, records.values());
  return wakeForFreedRoom(context, new Map([...records].map(([cluster, record]) => [cluster, record?.spec.placed ?? {}])), cause);
}

/**
 * Wakes the waiting bindings that can use the room now left on these clusters, given what is placed on
 * each after the change (the allocation records as read once it is written).
 */
export async function wakeForFreedRoom(context: ControllerContext, placed: ReadonlyMap<string, ResourceList>, cause: string): Promise<number> {
  if (placed.size === 0) return 0;
  const clusters = context.informers.clusters();
  await clusters.sync(context.batch);
  const freed = [...placed].flatMap(([name, placedOnCluster]) => {
    const cluster = clusters.get(clusterRef(name));
    return cluster ? [{ cluster, room: subtract(capacityOf(cluster), placedOnCluster) }] : [];
  });
  return wakeWaiting(context, freed, cause);
}
