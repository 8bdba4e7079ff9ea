import type { ObjectRef } from '../api/kinds';
import type { ResourceBinding } from '../api/resource-binding';
import { isScheduledBy } from '../api/scheduler-name';
import type { Informer } from '../cache/informer';
import { cpuClass, roomClass } from '../scheduler/wake-up';
import { isWaitingForRoom } from './scheduling-need';
import { claimantOf, policyKey } from './binding-references';
import type { ControllerContext } from './context';

/** Annotation on a preemption victim: the preemptor's key and the time of the placement that evicted it. */
export const PREEMPTED_BY_ANNOTATION = 'outrank.io/preempted-by';

/** The room class of 2^53 millicores: above any cpu a binding can ask for. */
const HIGHEST_ROOM_CLASS = cpuClass(Number.MAX_SAFE_INTEGER);

/**
 * The bindings informers' indexes: by claiming policy, by cluster placed on, waiting for room (by the
 * room class of wake-up.ts), by the placement that preempted them.
 */
export type BindingIndex = 'claimant' | 'cluster' | 'waiting' | 'preempted-by';

const INDEXES: Record<BindingIndex, (binding: ResourceBinding) => readonly string[]> = {
  claimant: (binding) => {
    const claimant = claimantOf(binding);
    return claimant ? [policyKey(claimant)] : [];
  },
  cluster: (binding) => (binding.spec.clusters ?? []).map((target) => target.name),
  waiting: (binding) => (isWaitingForRoom(binding) ? [String(roomClass(binding))] : []),
  'preempted-by': (binding) => {
    const preemptor = binding.metadata.annotations?.[PREEMPTED_BY_ANNOTATION];
    return preemptor ? [preemptor] : [];
  },
};

/** The binding informers that have the indexes above: asked for on every binding a controller reads. */
const indexed = new WeakSet<Informer<ResourceBinding>>();

/**
 * The indexes of a process whose scheduler answers to `schedulerNames`: another scheduler's bindings
 * never wait for outrank's room (scheduler-name.ts), whatever their conditions say.
 */
function indexesFor(schedulerNames: readonly string[]): Record<BindingIndex, (binding: ResourceBinding) => readonly string[]> {
  return { ...INDEXES, waiting: (binding) => (isScheduledBy(schedulerNames, binding) ? INDEXES.waiting(binding) : []) };
}

/** The ResourceBinding and ClusterResourceBinding informers, with the indexes above. */
export function bindingInformers(context: ControllerContext): readonly Informer<ResourceBinding>[] {
  const informers = context.informers.bindings();
  for (const informer of informers) {
    if (indexed.has(informer)) continue;
    for (const [name, keysOf] of Object.entries(indexesFor(context.config.schedulerNames))) informer.addIndex(name, keysOf);
    indexed.add(informer);
  }
  return informers;
}

/** The informer of the binding's kind (ResourceBinding or ClusterResourceBinding), with the indexes above. */
export function bindingInformerFor(context: ControllerContext, binding: ObjectRef): Informer<ResourceBinding> {
  const [namespaced, clusterScoped] = bindingInformers(context);
  return binding.kind === 'ClusterResourceBinding' ? clusterScoped! : namespaced!;
}

/** Brings both binding informers up to date. */
export async function syncBindings(context: ControllerContext): Promise<void> {
  await Promise.all(bindingInformers(context).map((informer) => informer.sync(context.batch)));
}

/** The bindings of both informers (as last synced) whose index `index` has `value`. */
export function bindingsBy(context: ControllerContext, index: BindingIndex, value: string): ResourceBinding[] {
  return bindingInformers(context).flatMap((informer) => informer.byIndex(index, value));
}

/**
 * The bindings waiting for room, of the room classes up to `highestClass` (wake-up.ts): all of them by
 * default; those that may fit in some freed room with highestFittingClass(freed).
 */
export function waitingBindings(context: ControllerContext, highestClass = HIGHEST_ROOM_CLASS): ResourceBinding[] {
  const waiting: ResourceBinding[] = [];
  for (let roomClass = 0; roomClass <= highestClass; roomClass += 1) waiting.push(...bindingsBy(context, 'waiting', String(roomClass)));
  return waiting;
}
