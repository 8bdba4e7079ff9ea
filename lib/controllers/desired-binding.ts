import { isDeepStrictEqual } from 'node:util';
import { isControlledBy } from '../api/owner-reference';
import type { PriorityClass } from '../api/priority-class';
import type { AnyPropagationPolicy } from '../api/propagation-policy';
import type { ResourceBinding } from '../api/resource-binding';
import type { ResourceTemplate } from '../api/resource-template';
import type { SchedulerConfig } from '../config';
import { buildBinding, type BuiltBinding } from '../policy/build-binding';
import { decideClaim, type ClaimDecision } from '../policy/claim';
import { claimantOf } from './binding-references';

/** What a claim is decided on: the policies that may select the template, and the PriorityClasses. */
export interface ClaimInputs {
  readonly policies: readonly AnyPropagationPolicy[];
  readonly priorityClasses: readonly PriorityClass[];
  readonly config: Pick<SchedulerConfig, 'gates' | 'preemptibleBelowPriority' | 'nonPreemptibleNamespaces'>;
  /** When a new binding would be created (its creationTimestamp). */
  readonly now: string;
  /** The metadata.uid a new binding would be created with. */
  readonly newUid: () => string;
}

export interface DesiredBinding {
  readonly decision: Exclude<ClaimDecision, { kind: 'unclaimed' }>;
  readonly built: BuiltBinding;
}

/**
 * What the template's binding should be (PropagationPolicy priority and preemption (002)): the claim
 * decision and the binding it builds, or undefined when no policy claims the template.
 */
export function desiredBinding(template: ResourceTemplate, existing: ResourceBinding | undefined, inputs: ClaimInputs): DesiredBinding | undefined {
  const { config } = inputs;
  const decision = decideClaim(template, inputs.policies, claimantOf(existing), config.gates.PropagationPolicyPreemption);
  if (decision.kind === 'unclaimed') return undefined;
  const built = buildBinding({
    template,
    policy: decision.policy,
    priorityClasses: inputs.priorityClasses,
    preemptibleBelowPriority: config.preemptibleBelowPriority,
    labelsMayDeclareNonPreemptible: config.nonPreemptibleNamespaces?.includes(template.metadata.namespace ?? '') ?? true,
    existing,
    now: inputs.now,
    newUid: inputs.newUid,
  });
  return { decision, built };
}

/** The built binding differs from the stored one in its spec, or (by value: key order says nothing) in its labels, annotations or owner references. */
export function bindingDiffers(existing: ResourceBinding | undefined, built: BuiltBinding): boolean {
  return (
    built.changed ||
    !isDeepStrictEqual(existing?.metadata.labels, built.binding.metadata.labels) ||
    !isDeepStrictEqual(existing?.metadata.annotations, built.binding.metadata.annotations) ||
    !isDeepStrictEqual(existing?.metadata.ownerReferences, built.binding.metadata.ownerReferences)
  );
}

/** Whether the template's binding (or its absence) is not as the claim rules would make it. */
export function isOutOfStep(template: ResourceTemplate, existing: ResourceBinding | undefined, inputs: ClaimInputs): boolean {
  // A binding of a template deleted and created again under its name is garbage, not this template's.
  if (existing && !isControlledBy(existing, template)) return true;
  const desired = desiredBinding(template, existing, inputs);
  if (!desired) return existing !== undefined;
  return desired.decision.kind !== 'keep' || bindingDiffers(existing, desired.built);
}
