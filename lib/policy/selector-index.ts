import type { LabelSelector } from '../api/meta';
import type { AnyPropagationPolicy, ResourceSelector } from '../api/propagation-policy';
import { apiGroupOf, type ResourceTemplate } from '../api/resource-template';

/**
 * Index keys that let policy-change find, for a template, the policies that may select it, and, for a
 * policy, the templates it may select — without listing either kind (the informers' indexes hold them).
 * An index only narrows the search: the claim rules (policy-match.ts) still decide what matches.
 */

/** Stands for "every namespace" in keys: a ClusterPropagationPolicy selector that names no namespace. */
const ANY_NAMESPACE = '*';

function scopeKey(selector: ResourceSelector, namespace: string): string {
  return `${selector.apiVersion}/${selector.kind}|${namespace}`;
}

function selectorNamespace(policy: AnyPropagationPolicy, selector: ResourceSelector): string {
  return policy.kind === 'PropagationPolicy' ? (policy.metadata.namespace ?? '') : (selector.namespace ?? ANY_NAMESPACE);
}

/**
 * A label every object the selector matches must carry, if there is one: a matchLabels key, or the key
 * of an In or Exists requirement. A selector made only of NotIn and DoesNotExist has none.
 */
function requiredLabel(selector: LabelSelector): { key: string; values?: readonly string[] } | undefined {
  const [matched] = Object.entries(selector.matchLabels ?? {});
  if (matched) return { key: matched[0], values: [matched[1]] };
  const requirement = (selector.matchExpressions ?? []).find((r) => r.operator === 'In' || r.operator === 'Exists');
  if (!requirement) return undefined;
  return requirement.operator === 'In' ? { key: requirement.key, values: requirement.values ?? [] } : { key: requirement.key };
}

/** Keys a policy is indexed by: per selector, its name, else a label it requires, else its whole kind. */
export function policySelectorKeys(policy: AnyPropagationPolicy): string[] {
  return policy.spec.resourceSelectors.map((selector) => {
    const scope = scopeKey(selector, selectorNamespace(policy, selector));
    if (selector.name !== undefined) return `${scope}|name=${selector.name}`;
    const label = selector.labelSelector ? requiredLabel(selector.labelSelector) : undefined;
    return label ? `${scope}|label=${label.key}` : `${scope}|all`;
  });
}

/** The policy index keys under which every policy that may select this template is found (looked up at every claim). */
export function policyLookupKeys(template: ResourceTemplate): string[] {
  const selector = { apiVersion: template.apiVersion, kind: template.kind };
  const labelKeys = Object.keys(template.metadata.labels ?? {});
  const keys: string[] = [];
  for (const namespace of [template.metadata.namespace ?? '', ANY_NAMESPACE]) {
    const scope = scopeKey(selector, namespace);
    keys.push(`${scope}|name=${template.metadata.name}`, `${scope}|all`);
    for (const key of labelKeys) keys.push(`${scope}|label=${key}`);
  }
  return keys;
}

/** Keys a template is indexed by in its kind's informer: its namespace, its name, and each label with and without its value. */
export function templateIndexKeys(template: ResourceTemplate): string[] {
  const namespace = template.metadata.namespace ?? '';
  const keys = [`ns=${namespace}`, `name=${template.metadata.name}`];
  for (const [key, value] of Object.entries(template.metadata.labels ?? {})) {
    for (const scope of [namespace, ANY_NAMESPACE]) keys.push(`${scope}|${key}`, `${scope}|${key}=${value}`);
  }
  return keys;
}

/** How to find every template a selector may match. */
export type TemplateLookup =
  | { readonly by: 'name'; readonly namespace: string; readonly name: string }
  | { readonly by: 'index'; readonly keys: readonly string[] }
  | { readonly by: 'kind' };

/** The lookup for one selector of a policy: a point read by name, the template index by label or namespace, or the whole kind. */
export function templateLookup(policy: AnyPropagationPolicy, selector: ResourceSelector): TemplateLookup {
  const namespace = selectorNamespace(policy, selector);
  if (selector.name !== undefined) {
    return namespace === ANY_NAMESPACE ? { by: 'index', keys: [`name=${selector.name}`] } : { by: 'name', namespace, name: selector.name };
  }
  const label = selector.labelSelector ? requiredLabel(selector.labelSelector) : undefined;
  if (label) {
    return { by: 'index', keys: label.values ? label.values.map((value) => `${namespace}|${label.key}=${value}`) : [`${namespace}|${label.key}`] };
  }
  return namespace === ANY_NAMESPACE ? { by: 'kind' } : { by: 'index', keys: [`ns=${namespace}`] };
}

/** The template kinds (by `<kind>.<group>`) that any of the policies may select. */
export function selectedTemplateKinds(policies: Iterable<AnyPropagationPolicy>): Map<string, { group: string; kind: string }> {
  const kinds = new Map<string, { group: string; kind: string }>();
  for (const policy of policies) {
    for (const selector of policy.spec.resourceSelectors) {
      const group = apiGroupOf(selector.apiVersion);
      kinds.set(`${selector.kind}.${group}`, { group, kind: selector.kind });
    }
  }
  return kinds;
}
