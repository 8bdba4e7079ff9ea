import { isBeingDeleted, unlessBeingDeleted } from '../api/deletion';
import { timestampOf } from '../ports/clock';
import { involvedObjectOf } from '../api/event';
import { refKey, refOf, templateRefOf, type ObjectRef } from '../api/kinds';
import { isControlledBy } from '../api/owner-reference';
import { POLICY_GROUP, type AnyPropagationPolicy } from '../api/propagation-policy';
import { BINDING_GROUP, type ResourceBinding } from '../api/resource-binding';
import { apiGroupOf, type ResourceTemplate } from '../api/resource-template';
import type { Informer } from '../cache/informer';
import type { ClaimDecision } from '../policy/claim';
import { describePolicy, policyRef, policySpecificity, Specificity, type PolicyRef } from '../policy/policy-match';
import { policyLookupKeys, policySelectorKeys, templateIndexKeys, templateLookup } from '../policy/selector-index';
import { ConflictError, type Write } from '../ports/object-store';
import type { ResourceList } from '../resources';
import { addPlacedUsage, allocationAdds } from './allocations';
import { bindingInformerFor, bindingsBy, syncBindings } from './binding-informers';
import { bindingRefFor, bindingRefOf, claimantOf, policyKey } from './binding-references';
import { enqueueInBand } from './band-enqueue';
import { afterRoomFreed } from './binding-requests';
import type { ControllerContext } from './context';
import { bindingDiffers, desiredBinding, isOutOfStep, type ClaimInputs } from './desired-binding';
import { bindingGroupId, objectChangeNotice } from './messages';
import { retryOnConflict } from './retry-on-conflict';

const POLICY_SELECTORS_INDEX = 'selectors';

/** Templates a policy write claims in the invocation that handles it; the rest go through the queue. */
export const INLINE_CLAIMS = 100;
const TEMPLATE_INDEX = 'labels';

/**
 * A placed binding whose per-replica request changes occupies more or less where it stays placed; its
 * allocations move in the same transaction, or they would no longer be the sum of the placed bindings
 * and a later move or removal would subtract the new request from what the old one added.
 */
function requestChangeWrites(existing: ResourceBinding | undefined, next: ResourceBinding, now: string): Write[] {
  if (!existing) return [];
  const deltas = new Map<string, ResourceList>();
  addPlacedUsage(deltas, existing, -1);
  addPlacedUsage(deltas, next, +1);
  return allocationAdds(deltas, { now });
}

/** The write that makes a claim fail if the policy it was decided on changed since the informer saw it. */
function unchanged(policy: AnyPropagationPolicy): Write {
  return { op: 'check', ref: refOf(policy), expectedVersion: policy.metadata.resourceVersion ?? null };
}

/**
 * Template claims (PropagationPolicy priority and preemption (002)): keeps each template claimed by the
 * right policy and its binding in step with template and policy. Its cost follows the change, not the
 * fleet: a template write reads the template, its binding, and the policies the informers' selector index
 * says may select it; a policy write reconsiders only the templates its selectors can match (a point
 * read for a selector by name, the template index for a label selector) and those it claimed before.
 * Policies and PriorityClasses come from the informers; a claim commits only if the policies it was
 * decided on are unchanged, and on a conflict the informers read them again.
 */
export class TemplateClaims {
  /**
   * The templates claimed in this batch of messages. Everything the batch's messages announce was
   * committed before they were received, and the claims read the template and the synced policies after
   * that, so a second claim of a template in the same batch (its own write and its policy's, say) would
   * decide the same: it is skipped.
   */
  private readonly claimedInBatch: Set<string> | undefined;

  constructor(private readonly context: ControllerContext) {
    this.claimedInBatch = context.batch ? new Set() : undefined;
  }

  async templateChanged(templateRef: ObjectRef): Promise<void> {
    await this.syncClaimInputs();
    await this.claimWithRetries(templateRef);
  }

  /**
   * Every template the policy may select now or claimed before gets its claim decided again; returns
   * how many. The first INLINE_CLAIMS are claimed here, the rest are handed to the policy-change queue
   * as template changes, so that one write of a policy over thousands of templates is not one
   * invocation that outlasts its time-out and is retried whole.
   */
  async policyChanged(ref: ObjectRef): Promise<number> {
    await this.syncClaimInputs();
    const informer = this.policyInformer(ref.kind);
    // The batch's feed read already holds the policy as written before its notice; read it only if not.
    if (!informer.get(ref)) await informer.refresh([ref]);
    const policy = informer.get(ref);
    const templates = new Map<string, ObjectRef>();
    await syncBindings(this.context);
    const key = policyKey({ kind: ref.kind as PolicyRef['kind'], namespace: ref.namespace, name: ref.name });
    for (const binding of bindingsBy(this.context, 'claimant', key)) templates.set(refKey(templateRefOf(binding)), templateRefOf(binding));
    for (const template of policy ? await this.selectableTemplates(policy) : []) templates.set(refKey(template), template);
    const all = [...templates.values()];
    const [inline, handedOn] = [all.slice(0, INLINE_CLAIMS), all.slice(INLINE_CLAIMS)];
    for (const template of inline) await this.claimWithRetries(template);
    if (handedOn.length > 0) {
      const version = policy?.metadata.resourceVersion ?? 'deleted';
      await this.context.queues.policyChange.send(handedOn.map((template) => objectChangeNotice(template, `${refKey(ref)}@${version}`, 'written')));
    }
    return templates.size;
  }

  /** Brings the policies and PriorityClasses the claims read up to date. */
  async syncClaimInputs(): Promise<void> {
    await Promise.all([...this.policyInformers(), this.context.informers.priorityClasses()].map((informer) => informer.sync(this.context.batch)));
  }

  private policyInformers(): readonly Informer<AnyPropagationPolicy>[] {
    const informers = this.context.informers.policies();
    for (const informer of informers) informer.addIndex(POLICY_SELECTORS_INDEX, policySelectorKeys);
    return informers;
  }

  private policyInformer(kind: string): Informer<AnyPropagationPolicy> {
    const [namespaced, clusterWide] = this.policyInformers();
    return kind === 'PropagationPolicy' ? namespaced! : clusterWide!;
  }

  /** The templates the policy's selectors may match: by name without a read, else from the template informers. */
  private async selectableTemplates(policy: AnyPropagationPolicy): Promise<ObjectRef[]> {
    const found: ObjectRef[] = [];
    for (const selector of policy.spec.resourceSelectors) {
      const group = apiGroupOf(selector.apiVersion);
      const lookup = templateLookup(policy, selector);
      if (lookup.by === 'name') {
        found.push({ group, kind: selector.kind, namespace: lookup.namespace, name: lookup.name });
        continue;
      }
      const informer = this.context.informers.templates(group, selector.kind);
      informer.addIndex(TEMPLATE_INDEX, templateIndexKeys);
      await informer.sync(this.context.batch);
      const candidates = lookup.by === 'kind' ? [...informer.values()] : lookup.keys.flatMap((key) => informer.byIndex(TEMPLATE_INDEX, key));
      for (const template of candidates) if (policySpecificity(policy, template) !== Specificity.None) found.push(refOf(template));
    }
    return found;
  }

  /** The policies that may select the template (by the selector index), and the one that claimed it. */
  private candidatePolicies(template: ResourceTemplate, claimant: PolicyRef | undefined): AnyPropagationPolicy[] {
    const candidates = new Map<string, AnyPropagationPolicy>();
    const keys = policyLookupKeys(template);
    for (const informer of this.policyInformers()) {
      for (const key of keys) for (const policy of informer.byIndex(POLICY_SELECTORS_INDEX, key)) candidates.set(refKey(refOf(policy)), policy);
    }
    if (claimant) {
      const held = this.policyInformer(claimant.kind).get({ group: POLICY_GROUP, ...claimant });
      if (held) candidates.set(refKey(refOf(held)), held);
    }
    return [...candidates.values()];
  }

  /** What the claim rules make of the template by the informers as last synced (syncClaimInputs). */
  private claimInputs(template: ResourceTemplate, existing: ResourceBinding | undefined): ClaimInputs {
    return {
      policies: this.candidatePolicies(template, claimantOf(existing)),
      priorityClasses: [...this.context.informers.priorityClasses().values()],
      config: this.context.config,
      now: timestampOf(this.context.clock),
      newUid: () => this.context.uids.next(),
    };
  }

  /** Whether the template's binding is not as the claim rules would make it by the informers as last synced (syncClaimInputs). */
  isOutOfStep(template: ResourceTemplate | undefined, existing: ResourceBinding | undefined): boolean {
    if (!template || isBeingDeleted(template)) return existing !== undefined;
    return isOutOfStep(template, existing, this.claimInputs(template, existing));
  }

  private async claimWithRetries(templateRef: ObjectRef): Promise<void> {
    const key = refKey(templateRef);
    if (this.claimedInBatch?.has(key)) return;
    await retryOnConflict(this.context.config.maxCommitAttempts, ({ last }) => this.claim(templateRef, last), {
      // A policy or the binding the claim was decided on changed: read it again before the next attempt.
      onConflict: async (conflict) => {
        for (const ref of conflict.refs.filter((r) => r.group === POLICY_GROUP)) await this.policyInformer(ref.kind).refresh([ref]);
        for (const ref of conflict.refs.filter((r) => r.group === BINDING_GROUP)) await bindingInformerFor(this.context, ref).refresh([ref]);
      },
    });
    this.claimedInBatch?.add(key);
  }

  /**
   * Template and binding come from the informers, synced once per batch after everything the batch
   * announces was committed: a template written later is announced (and claimed) later, and a binding
   * changed since is a conflict of the binding's write, after which it is read again.
   */
  private async claim(templateRef: ObjectRef, lastAttempt: boolean): Promise<void> {
    const { store, batch } = this.context;
    const templates = this.context.informers.templates(templateRef.group, templateRef.kind);
    const bindingRef = bindingRefFor(templateRef);
    const bindings = bindingInformerFor(this.context, bindingRef);
    await Promise.all([templates.sync(batch), bindings.sync(batch)]);
    // A template being deleted (waiting for its finalizers, deletion.ts) is treated as gone, as Karmada's
    // detector does: its binding goes at once, not when the last finalizer does.
    const template = unlessBeingDeleted(templates.get(templateRef) as ResourceTemplate | undefined);
    const stored = bindings.get(bindingRef);
    // Garbage collection, as Kubernetes' collector does it by the binding's controller reference: a
    // binding whose template no longer exists (deleted, or deleted and created again under its name,
    // which makes another template) goes, its room given back. Found by name, never by listing.
    if (stored && !isControlledBy(stored, template)) await this.removeBinding(stored);
    const existing = stored && isControlledBy(stored, template) ? stored : undefined;
    if (!template) return;
    const desired = desiredBinding(template, existing, this.claimInputs(template, existing));
    if (!desired) {
      if (existing) await this.removeBinding(existing);
      return;
    }
    const { decision, built } = desired;
    if (bindingDiffers(existing, built)) {
      let written: ResourceBinding;
      try {
        [written] = (await store.transact([
          { op: 'put', object: built.binding, expectedVersion: existing?.metadata.resourceVersion ?? null },
          unchanged(decision.policy),
          ...(decision.kind === 'preempt' ? [unchanged(decision.from)] : []),
          ...requestChangeWrites(existing, built.binding, timestampOf(this.context.clock)),
        ])) as [ResourceBinding];
      } catch (error) {
        if (decision.kind === 'preempt' && (lastAttempt || !(error instanceof ConflictError))) {
          await this.preemptionFailed(template, decision, error);
        }
        throw error;
      }
      bindings.observe(written);
      // The binding is in hand: queued in its band from here, not read again by binding-enqueue.
      await enqueueInBand(this.context, written, 'template-claims');
      for (const warning of built.warnings) await this.context.events.record(warning);
    }
    if (decision.kind === 'preempt') await this.preemptionSucceeded(template, decision);
  }

  /** Removes a binding and gives its room back; the waiting bindings that can use it are woken. */
  private async removeBinding(binding: ResourceBinding): Promise<void> {
    const deltas = new Map<string, ResourceList>();
    addPlacedUsage(deltas, binding, -1);
    await this.context.store.transact([
      { op: 'delete', ref: refOf(binding), expectedVersion: binding.metadata.resourceVersion ?? '', last: binding },
      ...allocationAdds(deltas, { now: timestampOf(this.context.clock) }),
    ]);
    const cause = `${bindingGroupId(bindingRefOf(binding))}@${binding.metadata.resourceVersion ?? '0'}@deleted`;
    await afterRoomFreed(this.context, [...deltas.keys()], cause);
  }

  private async preemptionSucceeded(template: ResourceTemplate, decision: Extract<ClaimDecision, { kind: 'preempt' }>): Promise<void> {
    this.context.metrics.count('PolicyPreemptions', { result: 'success' });
    await this.context.events.record({
      type: 'Normal',
      reason: 'PreemptPolicySucceed',
      object: involvedObjectOf(template),
      message: `${describePolicy(policyRef(decision.policy))} took over the template from ${describePolicy(policyRef(decision.from))}`,
    });
  }

  private async preemptionFailed(template: ResourceTemplate, decision: Extract<ClaimDecision, { kind: 'preempt' }>, error: unknown): Promise<void> {
    this.context.metrics.count('PolicyPreemptions', { result: 'error' });
    await this.context.events.record({
      type: 'Warning',
      reason: 'PreemptPolicyFailed',
      object: involvedObjectOf(template),
      message: `${describePolicy(policyRef(decision.policy))} could not take over the template from ${describePolicy(policyRef(decision.from))}: ${(error as Error).message}`,
    });
  }
}
