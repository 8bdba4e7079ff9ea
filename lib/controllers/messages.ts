import { refKey, type ObjectRef } from '../api/kinds';
import type { BindingRef } from './binding-references';
import { BINDING_GROUP } from '../api/resource-binding';
import type { OutgoingMessage } from '../ports/message-queue';

/** policy-change: an object that the policy controller must look at (policy, template or cluster). */
export interface ObjectChange {
  readonly ref: ObjectRef;
}

/**
 * Kinds whose writes policy-change has nothing to do with: bindings (binding-enqueue and the schedule
 * cycle follow them), the allocation records, PriorityClasses (binding priority and preemption
 * (000): a change of classes does not update bindings), and OverridePolicies, which propagation applies
 * and which are no templates (Karmada's detector skips the policy.karmada.io group).
 */
export const UNANNOUNCED_KINDS: ReadonlyArray<{ readonly group: string; readonly kind: string }> = [
  { group: BINDING_GROUP, kind: 'ResourceBinding' },
  { group: BINDING_GROUP, kind: 'ClusterResourceBinding' },
  { group: 'scheduling.outrank.io', kind: 'ClusterAllocation' },
  { group: 'scheduling.k8s.io', kind: 'PriorityClass' },
  { group: 'policy.karmada.io', kind: 'OverridePolicy' },
  { group: 'policy.karmada.io', kind: 'ClusterOverridePolicy' },
];

/** Whether a write of this object reaches policy-change: every policy, template and cluster write does. */
export function isAnnouncedToPolicyChange(ref: ObjectRef): boolean {
  return !UNANNOUNCED_KINDS.some(({ group, kind }) => ref.group === group && ref.kind === kind);
}

/**
 * The policy-change message of a write or deletion of an object, at the version written (for a
 * deletion, the version deleted): a redelivered one is handled once.
 */
export function objectChangeNotice(ref: ObjectRef, resourceVersion: string, change: 'written' | 'deleted'): OutgoingMessage<ObjectChange> {
  const key = refKey(ref);
  return { body: { ref }, groupId: key, deduplicationId: `${key}@${resourceVersion}@${change}` };
}

/** binding-enqueue queue: a binding whose need for scheduling must be decided. */
export interface BindingRequest {
  readonly binding: BindingRef;
  /** The version the sender saw, so a redelivered duplicate is recognisable. */
  readonly resourceVersion: string;
  /** What prompted the request when not a change of the binding itself (a cluster change, room freed, the reconcile). */
  readonly cause?: string;
  /**
   * Queued because room was freed on these clusters that it can use (wake-up.ts): should it not fit
   * after all (another binding took the room first), what is left there is offered to the next waiting
   * binding that fits.
   */
  readonly wokenFor?: readonly string[];
}

/** Band queues: a binding waiting for a scheduling attempt. */
export interface QueuedBinding {
  readonly binding: BindingRef;
  readonly priority: number;
  /** When the binding was queued (milliseconds), for first-in-first-out within a priority. */
  readonly enqueuedAt: number;
  /**
   * Queued because room was freed on these clusters that it can use (wake-up.ts): should it not fit
   * after all (another binding took the room first), what is left there is offered to the next waiting
   * binding that fits.
   */
  readonly wokenFor?: readonly string[];
}

/**
 * A message's wokenFor: left out when the binding was woken for no cluster, as one with nothing to place
 * (a Divided binding of 0 replicas) is, since a consumer takes only a list of at least one.
 */
export function wokenForField(clusters: readonly string[] | undefined): { readonly wokenFor?: readonly string[] } {
  return clusters !== undefined && clusters.length > 0 ? { wokenFor: clusters } : {};
}

export function bindingGroupId(binding: BindingRef): string {
  return `${binding.kind}/${binding.namespace}/${binding.name}`;
}

/**
 * The deduplication id of a message about a binding at a version; the cause is part of it, so that a
 * binding looked at and left alone is looked at again when something else changes.
 */
export function bindingMessageId(binding: BindingRef, resourceVersion: string, cause: string | undefined): string {
  return `${bindingGroupId(binding)}@${resourceVersion}${cause === undefined ? '' : `@${cause}`}`;
}
