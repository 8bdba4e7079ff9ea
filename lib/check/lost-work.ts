import { isBeingDeleted } from '../api/deletion';
import type { Cluster } from '../api/cluster';
import { displayName, refKey, refOf } from '../api/kinds';
import type { PriorityClass } from '../api/priority-class';
import type { AnyPropagationPolicy } from '../api/propagation-policy';
import { CONDITION_SCHEDULED, findCondition, type ResourceBinding } from '../api/resource-binding';
import type { ResourceTemplate } from '../api/resource-template';
import type { SchedulerConfig } from '../config';
import { bindingRefFor } from '../controllers/binding-references';
import { bindingDiffers, desiredBinding, type ClaimInputs } from '../controllers/desired-binding';
import { schedulingNeed } from '../controllers/scheduling-need';
import { awaitsRoom, placeableNow } from '../controllers/unschedulable-flush';
import { SchedulingSnapshot } from '../scheduler/snapshot';
import { describePolicy, policyRef } from '../policy/policy-match';
import { policyLookupKeys, policySelectorKeys } from '../policy/selector-index';
import { randomUids } from '../ports/uids';
import type { Violation } from './invariants';

export type LostWorkRule = 'template-bound-as-claimed' | 'binding-attempted-within-flush' | 'dead-letter-queue-empty';

/** What the lost-work rules read: the templates and what they are claimed by, the bindings, the queues. */
export interface WorkState {
  readonly templates: readonly ResourceTemplate[];
  readonly policies: readonly AnyPropagationPolicy[];
  readonly priorityClasses: readonly PriorityClass[];
  readonly clusters: readonly Cluster[];
  readonly bindings: readonly ResourceBinding[];
  /** Messages each queue gave up on (GET /outrank/v1/queues). */
  readonly deadLettered: ReadonlyArray<{ readonly queue: string; readonly messages: number }>;
}

export interface LostWorkOptions {
  readonly now: number;
  readonly config: ClaimInputs['config'] & Pick<SchedulerConfig, 'victimSearchBudget' | 'schedulerNames'>;
  /** The longest a binding that needs scheduling may go without an attempt: the unschedulable flush plus the reconcile's period. */
  readonly maxWaitMs: number;
}

/**
 * The policies that may select each template, by the selector index policy-change keeps in its
 * informers (selector-index.ts): a lookup per template, not a pass over every policy.
 */
function policiesByLookupKey(policies: readonly AnyPropagationPolicy[]): (template: ResourceTemplate) => AnyPropagationPolicy[] {
  const index = new Map<string, AnyPropagationPolicy[]>();
  for (const policy of policies) {
    for (const key of new Set(policySelectorKeys(policy))) {
      const listed = index.get(key);
      if (listed) listed.push(policy);
      else index.set(key, [policy]);
    }
  }
  return (template) => [...new Set(policyLookupKeys(template).flatMap((key) => index.get(key) ?? []))];
}

const bindingName = (binding: ResourceBinding) => `${binding.kind} ${displayName(binding.metadata)}`;

/**
 * PropagationPolicy priority and preemption (002): every template a policy claims has a binding as the
 * claim rules make it from the template's current spec and its policy, and every binding has a
 * template that is claimed. This is what the template resync repairs, so a violation on a settled
 * system is a change that was never handled.
 */
function claimViolations(state: WorkState, options: LostWorkOptions): Violation<LostWorkRule>[] {
  const violations: Violation<LostWorkRule>[] = [];
  const bindings = new Map(state.bindings.map((binding) => [refKey(refOf(binding)), binding]));
  const bound = new Set<string>();
  const now = new Date(options.now).toISOString();
  const policiesFor = policiesByLookupKey(state.policies);
  // A template being deleted has no binding, as if it were gone (template-claims.ts).
  for (const template of state.templates.filter((t) => !isBeingDeleted(t))) {
    const key = refKey(bindingRefFor(refOf(template)));
    const existing = bindings.get(key);
    bound.add(key);
    const object = `${template.kind} ${displayName(template.metadata)}`;
    // A binding it would make is only compared, never written: any uid does.
    const desired = desiredBinding(template, existing, { policies: policiesFor(template), priorityClasses: state.priorityClasses, config: options.config, now, newUid: randomUids.next });
    if (!desired) {
      if (existing) violations.push({ rule: 'template-bound-as-claimed', object, message: `no policy claims it, yet ${bindingName(existing)} exists` });
      continue;
    }
    const policy = describePolicy(policyRef(desired.decision.policy));
    if (!existing) violations.push({ rule: 'template-bound-as-claimed', object, message: `claimed by ${policy} but has no binding` });
    else if (desired.decision.kind === 'preempt') {
      violations.push({ rule: 'template-bound-as-claimed', object, message: `${policy} preempts the claim of ${describePolicy(policyRef(desired.decision.from))}, but ${bindingName(existing)} still follows the latter` });
    } else if (bindingDiffers(existing, desired.built)) {
      violations.push({ rule: 'template-bound-as-claimed', object, message: `${bindingName(existing)} does not follow its current spec and ${policy}` });
    }
  }
  for (const [key, binding] of bindings) {
    if (!bound.has(key)) violations.push({ rule: 'template-bound-as-claimed', object: bindingName(binding), message: `its template ${binding.spec.resource.kind} ${displayName(binding.spec.resource)} does not exist` });
  }
  return violations;
}

/**
 * Binding priority and preemption (000), queue: a binding that needs scheduling is attempted, and an
 * unschedulable one again at the latest when the flush comes round, if the scheduler would place it
 * then (unschedulable-flush.ts). One that waited longer since its last attempt (or, never attempted,
 * since it was created) was dropped on the way; a binding waiting for room that would not be placed now
 * is waiting, not lost. A placed binding whose spec changed records no time of the change, so it is not
 * judged here.
 */
function waitViolations(state: WorkState, options: LostWorkOptions): Violation<LostWorkRule>[] {
  const clusters = new Map(state.clusters.map((cluster) => [cluster.metadata.name, cluster]));
  const overdue: Array<{ binding: ResourceBinding; message: string }> = [];
  for (const binding of state.bindings) {
    if (!schedulingNeed(binding, (name) => clusters.get(name), options.now, options.config.schedulerNames).needed) continue;
    const scheduled = findCondition(binding, CONDITION_SCHEDULED);
    if (scheduled?.status === 'True') continue;
    const since = scheduled ? (scheduled.lastUpdateTime ?? scheduled.lastTransitionTime) : binding.metadata.creationTimestamp;
    const waitedMs = options.now - Date.parse(since ?? '');
    if (waitedMs > options.maxWaitMs) {
      const what = scheduled ? 'since its last scheduling attempt' : 'since it was created, never attempted';
      overdue.push({ binding, message: `waiting ${Math.round(waitedMs / 1000)} s ${what} (at most ${options.maxWaitMs / 1000} s)` });
    }
  }
  const waitingForRoom = overdue.map(({ binding }) => binding).filter(awaitsRoom);
  const placeable = new Set(waitingForRoom.length === 0 ? [] : placeableNow(waitingForRoom, new SchedulingSnapshot(state.clusters, state.bindings, options.config.schedulerNames), options.config, options.now));
  return overdue
    .filter(({ binding }) => !awaitsRoom(binding) || placeable.has(binding))
    .map(({ binding, message }) => ({
      rule: 'binding-attempted-within-flush',
      object: bindingName(binding),
      message: placeable.has(binding) ? `${message}, though it would be placed now` : message,
    }));
}

/** Every queue's dead letters: those of its dead-letter queue, or all of a queue of failures (the objects stream's). */
function deadLetterViolations(state: WorkState): Violation<LostWorkRule>[] {
  return state.deadLettered
    .filter(({ messages }) => messages > 0)
    .map(({ queue, messages }) => ({ rule: 'dead-letter-queue-empty', object: `Queue ${queue}`, message: `${messages} message(s) given up on` }));
}

/**
 * Work that was lost on the way rather than decided: a template without its binding, a binding nobody
 * attempted in time, messages given up on. Meant for a settled system (`outrank apply` returned): work
 * still in the queues shows as missing bindings until it is handled. Messages are judged by what they
 * carry (each is a template or a binding to look at), so no queue needs reading.
 */
export function checkLostWork(state: WorkState, options: LostWorkOptions): Violation<LostWorkRule>[] {
  return [...claimViolations(state, options), ...waitViolations(state, options), ...deadLetterViolations(state)];
}

/** The longest wait `outrank check` allows by default: the 5-minute unschedulable flush and one reconcile period (a minute). */
export function defaultMaxWaitMs(config: Pick<SchedulerConfig, 'unschedulableRequeueMs'>): number {
  return config.unschedulableRequeueMs + 60_000;
}
