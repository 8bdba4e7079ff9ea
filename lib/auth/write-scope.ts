import { matchesPrincipal } from './principal-pattern';
import type { TenancySettings } from './tenancy-settings';

/** What one principal may write: everything (an admin), or the objects in some namespaces. */
export type WriteScope = { readonly admin: true } | { readonly admin: false; readonly namespaces: ReadonlySet<string> };

/**
 * A principal in several tenants writes the namespaces of all of them: tenants are lists of grants,
 * not identities a caller picks between.
 */
export function writeScopeOf(tenancy: TenancySettings, principal: string): WriteScope {
  if (tenancy.admins.some((pattern) => matchesPrincipal(pattern, principal))) return { admin: true };
  const tenants = tenancy.tenants.filter((tenant) => tenant.principals.some((pattern) => matchesPrincipal(pattern, principal)));
  return { admin: false, namespaces: new Set(tenants.flatMap((tenant) => tenant.namespaces)) };
}
