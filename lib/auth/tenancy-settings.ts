import * as z from 'zod';
import { namespaceName, objectName } from '../api/meta';
import { principalPattern } from './principal-pattern';

/** Principals that write the namespaces listed with them, and nothing else. */
const tenantSchema = z.strictObject({
  principals: z.array(principalPattern).min(1, 'must name at least one principal').max(1024),
  namespaces: z.array(namespaceName).min(1, 'must name at least one namespace').max(1024),
});

/**
 * Who may write what (the `tenancy` of OUTRANK_SETTINGS). Without it every caller is an admin, which
 * is how outrank behaved before tenancy existed. Reads are open to every authenticated caller either way.
 */
export const tenancySettingsSchema = z.strictObject({
  /** Write everything: cluster-scoped objects, every namespace, every PriorityClass. */
  admins: z.array(principalPattern).max(1024),
  tenants: z.array(tenantSchema).max(1024),
  /**
   * PriorityClasses no namespace may use unless `namespacePriorityClasses` grants them to it. Classes
   * labelled `outrank.io/restricted: "true"` are restricted too: either mark suffices, so that no
   * class escapes restriction by missing from one of the two places.
   */
  restrictedPriorityClasses: z.array(objectName).max(1024).optional(),
  /** Per namespace, the restricted PriorityClasses it may use nonetheless. */
  namespacePriorityClasses: z.record(namespaceName, z.array(objectName).max(1024)).optional(),
  /**
   * The namespaces whose work may be declared non-preemptible (a policy's `preemptibility`, or the
   * `kai.scheduler/preemptibility` label): elsewhere a tenant's declaration is refused, and a label
   * is ignored when bindings are built. Work at or above the preemptibility threshold is
   * non-preemptible wherever it is: that is governed by the PriorityClasses a namespace may use.
   */
  nonPreemptibleNamespaces: z.array(namespaceName).max(1024).optional(),
});
export type TenancySettings = z.infer<typeof tenancySettingsSchema>;
