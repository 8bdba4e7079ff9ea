import { matchesLabelSelector } from '../api/label-selector';
import type { AnyPropagationPolicy, ResourceSelector } from '../api/propagation-policy';
import type { ResourceTemplate } from '../api/resource-template';
import { isPropagatable } from './propagatable';

/**
 * How precisely a policy selects a template (Karmada's implicit priority): by name beats by label
 * selector beats by kind alone; 0 means the policy does not select the template.
 */
export enum Specificity {
  None = 0,
  KindOnly = 1,
  LabelSelector = 2,
  Name = 3,
}

function selectorSpecificity(selector: ResourceSelector, template: ResourceTemplate): Specificity {
  if (selector.apiVersion !== template.apiVersion || selector.kind !== template.kind || !isPropagatable(template)) return Specificity.None;
  const namespace = template.metadata.namespace ?? '';
  if (selector.namespace !== undefined && selector.namespace !== namespace) return Specificity.None;
  if (selector.name !== undefined) {
    // As in Karmada, a selector that names its resource ignores its label selector.
    return selector.name === template.metadata.name ? Specificity.Name : Specificity.None;
  }
  if (selector.labelSelector !== undefined) {
    return matchesLabelSelector(selector.labelSelector, template.metadata.labels) ? Specificity.LabelSelector : Specificity.None;
  }
  return Specificity.KindOnly;
}

/** The best specificity over the policy's selectors; a PropagationPolicy only sees its own namespace. */
export function policySpecificity(policy: AnyPropagationPolicy, template: ResourceTemplate): Specificity {
  if (policy.kind === 'PropagationPolicy' && (template.metadata.namespace ?? '') !== policy.metadata.namespace) {
    return Specificity.None;
  }
  let best = Specificity.None;
  for (const selector of policy.spec.resourceSelectors) {
    best = Math.max(best, selectorSpecificity(selector, template));
  }
  return best;
}

export function explicitPriority(policy: AnyPropagationPolicy): number {
  return policy.spec.priority ?? 0;
}

export function isClusterPolicy(policy: AnyPropagationPolicy): boolean {
  return policy.kind === 'ClusterPropagationPolicy';
}

export interface PolicyRef {
  readonly kind: 'PropagationPolicy' | 'ClusterPropagationPolicy';
  readonly namespace: string;
  readonly name: string;
}

export function policyRef(policy: AnyPropagationPolicy): PolicyRef {
  return { kind: policy.kind, namespace: policy.metadata.namespace ?? '', name: policy.metadata.name };
}

export function samePolicy(a: PolicyRef, b: PolicyRef): boolean {
  return a.kind === b.kind && a.namespace === b.namespace && a.name === b.name;
}

export function describePolicy(ref: PolicyRef): string {
  return ref.namespace ? `${ref.kind} ${ref.namespace}/${ref.name}` : `${ref.kind} ${ref.name}`;
}
