/**
 * Karmada's SpreadConstraint filter plugin (pkg/scheduler/framework/plugins/spreadconstraint): a cluster
 * cannot be selected by a spread over a field it does not have. It applies whether or not the spread
 * constraints select clusters (static weights ignore them, the filter still runs).
 */
import type { Cluster } from '../../api/cluster';
import type { SpreadConstraint } from '../../api/spread-constraint';
import type { FilterFailure, FilteredClusters } from '../cluster-filter';

/** The first constraint, in order, whose field the cluster lacks (region and provider non-empty, zones listed). */
export function missingSpreadProperty(constraints: readonly SpreadConstraint[], cluster: Cluster): FilterFailure | undefined {
  for (const { spreadByField } of constraints) {
    if (spreadByField === 'provider' && !cluster.spec?.provider) return 'no-provider';
    if (spreadByField === 'region' && !cluster.spec?.region) return 'no-region';
    if (spreadByField === 'zone' && (cluster.spec?.zones ?? []).length === 0) return 'no-zones';
  }
  return undefined;
}

/** The clusters that also pass this filter; the ones it keeps out are counted with the other failures. */
export function filterBySpreadProperties<C extends { readonly cluster: Cluster }>(
  filtered: Pick<FilteredClusters<C>, 'feasible' | 'failures'>,
  constraints: readonly SpreadConstraint[] | undefined,
): Pick<FilteredClusters<C>, 'feasible' | 'failures'> {
  if (!constraints?.some((constraint) => constraint.spreadByField && constraint.spreadByField !== 'cluster')) return filtered;
  const feasible: C[] = [];
  const failures = new Map(filtered.failures);
  for (const candidate of filtered.feasible) {
    const failure = missingSpreadProperty(constraints, candidate.cluster);
    if (failure) failures.set(failure, (failures.get(failure) ?? 0) + 1);
    else feasible.push(candidate);
  }
  return { feasible, failures };
}
