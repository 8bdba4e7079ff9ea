import type { ObjectRef } from '../api/kinds';
import { bindingName, CLUSTER_POLICY_NAME_LABEL, POLICY_NAME_LABEL, POLICY_NAMESPACE_LABEL, type ResourceBinding } from '../api/resource-binding';
import type { PolicyRef } from '../policy/policy-match';

/** The binding a template is propagated by: `<template>-<kind>`, a ClusterResourceBinding for a cluster-scoped template. */
export function bindingRefFor(template: ObjectRef): ObjectRef {
  return {
    group: 'work.karmada.io',
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
