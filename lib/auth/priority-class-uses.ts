import { isPolicy, isTemplate, type KubeObject } from '../api/decode';
import { templatePodSpec } from '../api/resource-template';

/** A PriorityClass an object names, and the field naming it (for messages). */
export interface PriorityClassUse {
  readonly name: string;
  readonly field: string;
}

/**
 * The PriorityClasses an object can give its bindings: a policy's KubePriorityClass, and a
 * template's pod priorityClassName, which any policy with PodPriorityClass reads. Templates are
 * checked whatever their policies say, since a policy written later could start reading them.
 * Bindings name none: users may change only their suspension.
 */
export function priorityClassUses(object: KubeObject): PriorityClassUse[] {
  if (isPolicy(object)) {
    const name = object.spec.schedulePriority?.priorityClassName;
    return name === undefined ? [] : [{ name, field: 'spec.schedulePriority.priorityClassName' }];
  }
  if (isTemplate(object)) {
    const name = templatePodSpec(object).priorityClassName;
    return name === undefined ? [] : [{ name, field: 'spec.template.spec.priorityClassName' }];
  }
  return [];
}
