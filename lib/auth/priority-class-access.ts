import type { PriorityClass } from '../api/priority-class';
import type { PriorityClassLookup } from './priority-class-lookup';
import type { TenancySettings } from './tenancy-settings';

/** The label that marks a PriorityClass restricted: `outrank.io/restricted: "true"`. */
const RESTRICTED_LABEL = 'outrank.io/restricted';

function isRestricted(tenancy: TenancySettings, priorityClass: PriorityClass): boolean {
  return priorityClass.metadata.labels?.[RESTRICTED_LABEL] === 'true' || (tenancy.restrictedPriorityClasses ?? []).includes(priorityClass.metadata.name);
}

/** Own keys only: a namespace may be called "constructor", which every object inherits. */
function grantedTo(tenancy: TenancySettings, namespace: string): readonly string[] {
  const grants = tenancy.namespacePriorityClasses ?? {};
  return Object.hasOwn(grants, namespace) ? grants[namespace]! : [];
}

/**
 * Why a namespace may not use a PriorityClass, or undefined when it may: a class the namespace is
 * granted, or an existing class that is not restricted. A class that does not exist is refused: the
 * binding would fall back to the default today, but an admin creating a restricted class of that
 * name later would hand its priority to every binding made afterwards, unchecked.
 */
export async function priorityClassRefusal(
  tenancy: TenancySettings,
  namespace: string,
  className: string,
  lookup: PriorityClassLookup,
): Promise<string | undefined> {
  if (grantedTo(tenancy, namespace).includes(className)) return undefined;
  const priorityClass = await lookup(className);
  if (!priorityClass) return `PriorityClass "${className}" does not exist; a tenant may use only existing PriorityClasses that are not restricted`;
  if (isRestricted(tenancy, priorityClass)) return `PriorityClass "${className}" is restricted and not allowed in namespace "${namespace}"`;
  return undefined;
}
