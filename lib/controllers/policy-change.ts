import { isDeepStrictEqual } from 'node:util';
import { involvedObjectOf } from '../api/event';
import { isClusterReady, type Cluster } from '../api/cluster';
import { refKey, refOf, templateRefOf, type ObjectRef } from '../api/kinds';
import type { PriorityClass } from '../api/priority-class';
import { POLICY_GROUP, type AnyPropagationPolicy } from '../api/propagation-policy';
import {
  bindingName,
  CLUSTER_POLICY_NAME_LABEL,
  POLICY_NAME_LABEL,
  POLICY_NAMESPACE_LABEL,
  type ResourceBinding,
} from '../api/resource-binding';
import type { ResourceTemplate } from '../api/resource-template';
import { buildBinding } from '../policy/build-binding';
import { decideClaim, type ClaimDecision } from '../policy/claim';
import { describePolicy, policyRef, selectorScope, type PolicyRef } from '../policy/policy-match';
import { ConflictError, type Write } from '../ports/object-store';
import { scale, toResourceList, type ResourceList } from '../resources';
import { addDelta, allocationWrites } from './allocations';
import { listBindings, requestScheduling, requeueUnschedulable } from './binding-requests';
import type { ControllerContext } from './context';
import { bindingGroupId, bindingRefOf, type ObjectChange } from './messages';


function claimantOf(binding: ResourceBinding | undefined): PolicyRef | undefined {
  const labels = binding?.metadata.labels ?? {};
  if (labels[CLUSTER_POLICY_NAME_LABEL]) {
    return { kind: 'ClusterPropagationPolicy', namespace: '', name: labels[CLUSTER_POLICY_NAME_LABEL] };
  }
  if (labels[POLICY_NAME_LABEL]) {
    return { kind: 'PropagationPolicy', namespace: labels[POLICY_NAMESPACE_LABEL] ?? '', name: labels[POLICY_NAME_LABEL] };
  }
  return undefined;
}

function bindingRefFor(template: ObjectRef): ObjectRef {
  return {
    group: 'work.karmada.io',
    kind: template.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    namespace: template.namespace,
    name: bindingName(template.name, template.kind),
  };
}

/** Moves `deltas` by what the binding occupies on each cluster it is placed on, times `sign`. */
function addPlacedUsage(deltas: Map<string, ResourceList>, binding: ResourceBinding, sign: 1 | -1): void {
  const request = { ...toResourceList(binding.spec.replicaRequirements?.resourceRequest), pods: 1 };
  for (const target of binding.spec.clusters ?? []) addDelta(deltas, target.name, scale(request, sign * target.replicas));
}

/** Writes that remove a binding and give its room back to the clusters it was placed on. */
async function deletionWrites(context: ControllerContext, binding: ResourceBinding): Promise<Write[]> {
  const deltas = new Map<string, ResourceList>();
  addPlacedUsage(deltas, binding, -1);
  return [
    {
      op: 'delete',
      ref: refOf(binding),
      expectedVersion: binding.metadata.resourceVersion ?? '',
    },
    ...(await allocationWrites(context.store, deltas)),
  ];
}

/**
 * A placed binding whose per-replica request changes occupies more or less where it stays placed; its
 * allocations move in the same transaction, or they would no longer be the sum of the placed bindings
 * and a later move or removal would subtract the new request from what the old one added.
 */
async function requestChangeWrites(context: ControllerContext, existing: ResourceBinding | undefined, next: ResourceBinding): Promise<Write[]> {
  if (!existing) return [];
  const deltas = new Map<string, ResourceList>();
  addPlacedUsage(deltas, existing, -1);
  addPlacedUsage(deltas, next, +1);
  return allocationWrites(context.store, deltas);
}

/**
 * policy-change: keeps templates claimed by the right policy (002_c1e3600153e75bad.txt) and their
 * bindings in step with template and policy, and reacts to cluster changes (room freed, failover).
 */
export class PolicyChangeController {
  constructor(private readonly context: ControllerContext) {}

  async handle(change: ObjectChange): Promise<void> {
    const { ref } = change;
    if (ref.group === POLICY_GROUP && (ref.kind === 'PropagationPolicy' || ref.kind === 'ClusterPropagationPolicy')) {
      await this.policyChanged(ref);
    } else if (ref.group === 'cluster.karmada.io' && ref.kind === 'Cluster') {
      await this.clusterChanged(ref.name);
    } else {
      await this.claimWithRetries(ref);
    }
  }

  /** Every template the policy selects now or claimed before gets its claim decided again. */
  private async policyChanged(ref: ObjectRef): Promise<void> {
    const policy = await this.context.store.get<AnyPropagationPolicy>(ref);
    const templates = new Map<string, ObjectRef>();
    for (const binding of await listBindings(this.context)) {
      const claimant = claimantOf(binding);
      if (claimant && claimant.kind === ref.kind && claimant.namespace === ref.namespace && claimant.name === ref.name) {
        const templateRef = templateRefOf(binding);
        templates.set(refKey(templateRef), templateRef);
      }
    }
    const selectors = policy ? policy.spec.resourceSelectors.map((selector) => selectorScope(policy, selector)) : [];
    for (const { group, kind, namespace } of selectors) {
      for (const template of await this.context.store.list<ResourceTemplate>(group, kind, namespace)) {
        templates.set(refKey(refOf(template)), refOf(template));
      }
    }
    for (const templateRef of [...templates.values()]) await this.claimWithRetries(templateRef);
  }

  private async clusterChanged(name: string): Promise<void> {
    const cluster = await this.context.store.get<Cluster>({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name });
    // A deleted cluster's allocation stays: the bindings placed there still count on it until they move
    // off (which empties and removes it), and count again if the cluster comes back first.
    // Each version of the cluster is a change of its own: a cluster that goes not ready a second time
    // strands its bindings again, though they may not have changed since the first time.
    const cause = `Cluster/${name}@${cluster?.metadata.resourceVersion ?? `deleted@${this.context.clock.now()}`}`;
    // Bindings on a cluster that went away or stopped being ready are placed again (failover).
    if (!cluster || !isClusterReady(cluster)) {
      const stranded = (await listBindings(this.context)).filter((b) => b.spec.clusters?.some((t) => t.name === name));
      await requestScheduling(this.context, stranded, cause);
    }
    await requeueUnschedulable(this.context, cause);
  }

  private async claimWithRetries(templateRef: ObjectRef): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await this.claim(templateRef, attempt >= this.context.config.maxCommitAttempts);
        return;
      } catch (error) {
        if (!(error instanceof ConflictError) || attempt >= this.context.config.maxCommitAttempts) throw error;
      }
    }
  }

  private async claim(templateRef: ObjectRef, lastAttempt: boolean): Promise<void> {
    const { store, config } = this.context;
    const bindingRef = bindingRefFor(templateRef);
    const [template, existing] = await Promise.all([
      store.get<ResourceTemplate>(templateRef),
      store.get<ResourceBinding>(bindingRef),
    ]);
    if (!template) {
      if (existing) await this.removeBinding(existing);
      return;
    }
    const policies = [
      ...(templateRef.namespace ? await store.list<AnyPropagationPolicy>(POLICY_GROUP, 'PropagationPolicy', templateRef.namespace) : []),
      ...(await store.list<AnyPropagationPolicy>(POLICY_GROUP, 'ClusterPropagationPolicy')),
    ];
    const decision = decideClaim(template, policies, claimantOf(existing), config.gates.PropagationPolicyPreemption);
    if (decision.kind === 'unclaimed') {
      if (existing) await this.removeBinding(existing);
      return;
    }
    const priorityClasses = await store.list<PriorityClass>('scheduling.k8s.io', 'PriorityClass');
    const built = buildBinding({
      template,
      policy: decision.policy,
      priorityClasses,
      preemptibleBelowPriority: config.preemptibleBelowPriority,
      existing,
      now: new Date(this.context.clock.now()).toISOString(),
    });
    // By value: key order says nothing about a change.
    const relabelled = !isDeepStrictEqual(existing?.metadata.labels, built.binding.metadata.labels);
    if (built.changed || relabelled) {
      try {
        const [written] = await store.transact([
          { op: 'put', object: built.binding, expectedVersion: existing?.metadata.resourceVersion ?? null },
          ...(await requestChangeWrites(this.context, existing, built.binding)),
        ]);
        await requestScheduling(this.context, [written as ResourceBinding]);
      } catch (error) {
        if (decision.kind === 'preempt' && (lastAttempt || !(error instanceof ConflictError))) {
          await this.preemptionFailed(template, decision, error);
        }
        throw error;
      }
      for (const warning of built.warnings) await this.context.events.record(warning);
    }
    if (decision.kind === 'preempt') await this.preemptionSucceeded(template, decision);
  }

  private async removeBinding(binding: ResourceBinding): Promise<void> {
    await this.context.store.transact(await deletionWrites(this.context, binding));
    if ((binding.spec.clusters ?? []).length > 0) {
      await requeueUnschedulable(this.context, `${bindingGroupId(bindingRefOf(binding))}@${binding.metadata.resourceVersion ?? '0'}@deleted`);
    }
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

