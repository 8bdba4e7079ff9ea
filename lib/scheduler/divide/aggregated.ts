/**
 * Divided replica scheduling with the Aggregated preference: as few clusters as possible.
 *
 * As in Karmada (pkg/scheduler/core/division_algorithm.go, dynamicDivideReplicas, AggregatedStrategy case): order the
 * clusters by available replicas, largest first, keep the shortest prefix that can hold all replicas, then fall
 * through to the dynamic-weight division over that prefix (Webster weighted by available replicas). So replicas are
 * spread proportionally within the prefix rather than filling the roomiest cluster first. When even all clusters
 * together lack room, the prefix is every cluster and the dynamic-weight division reports the shortfall.
 *
 * When scaling up, the clusters the binding already runs on (`prior`) come first, each group in that order, so the
 * added replicas go to clusters already in use before new ones (assignment.go, resortAvailableClusters).
 *
 * Karmada's sort is unstable on equal availability; we break ties by name so the prefix does not depend on input
 * order.
 */
import { assertDivisionInput, byName, type ClusterCapacity, type Division } from './division';
import { divideByAvailableReplicas } from './dynamic-weight';
import type { TieOrder } from './tie-order';

export function divideAggregated(
  replicas: number,
  clusters: readonly ClusterCapacity[],
  ties: TieOrder = 'name-ascending',
  prior: ReadonlySet<string> = new Set(),
): Division {
  assertDivisionInput(replicas, clusters);
  return divideByAvailableReplicas(replicas, fewestClustersHolding(replicas, clusters, prior), ties);
}

/** The shortest run of the clusters, prior ones first and each group roomiest first, whose availability adds up to `replicas` (empty for 0 replicas). */
function fewestClustersHolding(replicas: number, clusters: readonly ClusterCapacity[], prior: ReadonlySet<string>): ClusterCapacity[] {
  const roomiestFirst = [...clusters].sort(
    (a, b) => Number(prior.has(b.name)) - Number(prior.has(a.name)) || b.availableReplicas - a.availableReplicas || byName(a, b),
  );
  const chosen: ClusterCapacity[] = [];
  let room = 0;
  for (const cluster of roomiestFirst) {
    if (room >= replicas) break;
    chosen.push(cluster);
    room += cluster.availableReplicas;
  }
  return chosen;
}
