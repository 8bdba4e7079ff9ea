/**
 * How controllers name a binding: in messages (BindingRef), as a store reference, by the template it
 * propagates, and by the policy that claimed it.
 */
import { refKey, type ObjectRef } from '../api/kinds';
import { bindingName } from '../api/binding-name';
import { BINDING_GROUP, CLUSTER_POLICY_NAME_LABEL, POLICY_NAME_LABEL, POLICY_NAMESPACE_LABEL, type ResourceBinding } from '../api/resource-binding';
import type { PolicyRef } from '../policy/policy-match';

export type BindingKind = 'ResourceBinding' | 'ClusterResourceBinding';

/** A binding as messages carry it. */
export interface BindingRef {
  readonly kind: BindingKind;
  readonly namespace: string;
  readonly name: string;
}

/** The store reference of a binding a message names. */
export function bindingObjectRef(binding: BindingRef): ObjectRef {
  return { group: BINDING_GROUP, kind: binding.kind, namespace: binding.namespace, name: binding.name };
}

/** A stored binding as messages name it. */
export function bindingRefOf(binding: { kind: string; metadata: { namespace?: string; name: string } }): BindingRef {
  return {
    kind: binding.kind === 'ClusterResourceBinding' ? 'ClusterResourceBinding' : 'ResourceBinding',
    namespace: binding.metadata.namespace ?? '',
    name: binding.metadata.name,
  };
}

/** The binding's key in informers and the scheduling snapshot (refKey of its object reference). */
export function bindingKeyFor(binding: BindingRef): string {
  return refKey(bindingObjectRef(binding));
}

/** The binding a template is propagated by, named by bindingName; a ClusterResourceBinding for a cluster-scoped template. */
export function bindingRefFor(template: ObjectRef): ObjectRef {
  return {
    group: BINDING_GROUP,
    kind: template.namespace ? 'ResourceBinding' : 'ClusterResourceBinding',
    namespace: template.namespace,
    name: bindingName(template.name, template.kind),
  };
}

/** The policy that claimed the binding's template, by the labels it left on the binding. */
export function claimantOf(binding: ResourceBinding | undefined): PolicyRef | undefined {
  const labels = binding?.metadata.labels ?? {};
  if (labels[CLUSTER_POLICY_NAME_LABEL]) {
    return { kind: 'ClusterPropagationPolicy', namespace: '', name: labels[CLUSTER_POLICY_NAME_LABEL] };
  }
  if (labels[POLICY_NAME_LABEL]) {
    return { kind: 'PropagationPolicy', namespace: labels[POLICY_NAMESPACE_LABEL] ?? '', name: labels[POLICY_NAME_LABEL] };
  }
  return undefined;
}

/** A policy as an informer index key. */
export function policyKey(policy: PolicyRef): string {
  return `${policy.kind}/${policy.namespace}/${policy.name}`;
}
