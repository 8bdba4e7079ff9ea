/**
 * What a placement's spreadConstraints ask of the cluster selection, as Karmada's scheduler reads them
 * (pkg/scheduler/core/spreadconstraint/select_clusters.go, SelectBestClusters): by region when a region
 * constraint is given, else by cluster; constraints by zone, provider or label only keep out clusters
 * without the field (spread-property-filter.ts) and group nothing. Spreading by label alone selects nothing.
 */
import type { Placement } from '../../api/propagation-policy';
import { effectiveSpreadConstraint, type EffectiveSpreadConstraint, type SpreadConstraint } from '../../api/spread-constraint';
import { replicaStrategy } from '../replica-strategy';

/** How many groups may be selected: minGroups (at least 1) and maxGroups (0: none). */
export interface GroupBounds {
  readonly minGroups: number;
  readonly maxGroups: number;
}

export type SpreadRule =
  | { readonly by: 'cluster'; readonly clusters: GroupBounds }
  | { readonly by: 'region'; readonly regions: GroupBounds; readonly clusters: GroupBounds }
  /** Karmada: "just support cluster and region spread constraint". */
  | { readonly by: 'unsupported' };

/**
 * The selection rule, or undefined when every feasible cluster is a candidate: no constraints, or a
 * division by static weights, which Karmada's shouldIgnoreSpreadConstraint exempts from them. (Karmada
 * exempts static weights only when a weight list is given or weightPreference is absent; an explicitly
 * empty weightPreference is exempt here too, so that static weights always divide over fixed clusters.)
 */
export function spreadRule(placement: Placement | undefined): SpreadRule | undefined {
  const constraints = effectiveConstraints(placement?.spreadConstraints);
  if (constraints.length === 0 || replicaStrategy(placement).type === 'static-weight') return undefined;
  // Karmada keys the constraints by field, the last of a field winning; validation allows one per field.
  const byField = new Map(constraints.flatMap((constraint) => (constraint.field ? [[constraint.field, bounds(constraint)] as const] : [])));
  const clusters = byField.get('cluster');
  const regions = byField.get('region');
  // Without a cluster constraint (which validation requires beside any by field) Karmada reads its zero value.
  if (regions) return { by: 'region', regions, clusters: clusters ?? { minGroups: 0, maxGroups: 0 } };
  if (clusters) return { by: 'cluster', clusters };
  return { by: 'unsupported' };
}

export function effectiveConstraints(constraints: readonly SpreadConstraint[] | undefined): EffectiveSpreadConstraint[] {
  return (constraints ?? []).map(effectiveSpreadConstraint);
}

function bounds({ minGroups, maxGroups }: EffectiveSpreadConstraint): GroupBounds {
  return { minGroups, maxGroups };
}
