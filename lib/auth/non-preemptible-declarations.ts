import { isPolicy, isTemplate, type KubeObject } from '../api/decode';
import { templatePodLabels } from '../api/resource-template';
import { PREEMPTIBILITY_LABEL } from '../policy/resolve-preemptibility';
import type { TenancySettings } from './tenancy-settings';

/**
 * The fields of an object that declare its work non-preemptible (preemptibility separate from priority
 * (001)): a policy's `spec.preemptibility`, and a template's or its pod template's
 * `kai.scheduler/preemptibility` label.
 */
export function nonPreemptibleDeclarations(object: KubeObject): string[] {
  if (isPolicy(object)) return object.spec.preemptibility === 'non-preemptible' ? ['spec.preemptibility'] : [];
  if (!isTemplate(object)) return [];
  const fields: string[] = [];
  if (object.metadata.labels?.[PREEMPTIBILITY_LABEL] === 'non-preemptible') fields.push(`metadata.labels["${PREEMPTIBILITY_LABEL}"]`);
  if (templatePodLabels(object)[PREEMPTIBILITY_LABEL] === 'non-preemptible') fields.push(`spec.template.metadata.labels["${PREEMPTIBILITY_LABEL}"]`);
  return fields;
}

/**
 * Whether work in the namespace may be declared non-preemptible: a privilege, as a restricted
 * PriorityClass is, granted per namespace by `nonPreemptibleNamespaces`. Without tenancy everyone may.
 */
export function mayDeclareNonPreemptible(tenancy: Pick<TenancySettings, 'nonPreemptibleNamespaces'> | undefined, namespace: string): boolean {
  return tenancy === undefined || (tenancy.nonPreemptibleNamespaces ?? []).includes(namespace);
}
