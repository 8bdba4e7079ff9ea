import { apiGroupOf } from '../api/resource-template';

/**
 * The API groups no policy propagates, as Karmada's detector skips them by default
 * (pkg/util/apigroup.go, NewSkippedResourceConfig): Karmada's own (its clusters, policies — the
 * OverridePolicies among them —, bindings and the rest), events, leases; and outrank's allocation records.
 */
const SKIPPED_GROUPS: ReadonlySet<string> = new Set([
  'cluster.karmada.io',
  'policy.karmada.io',
  'work.karmada.io',
  'config.karmada.io',
  'networking.karmada.io',
  'autoscaling.karmada.io',
  'remedy.karmada.io',
  'apps.karmada.io',
  'events.k8s.io',
  'coordination.k8s.io',
  'scheduling.outrank.io',
]);

/** Whether a policy may select an object of this kind: not of a skipped group, and not a core Event. */
export function isPropagatable(object: { readonly apiVersion: string; readonly kind: string }): boolean {
  const group = apiGroupOf(object.apiVersion);
  return !SKIPPED_GROUPS.has(group) && !(group === '' && object.kind === 'Event');
}
