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
import { availableReplicasDivision } from './dynamic-weight';
import type { TieOrder } from './tie-order';

export function divideAggregated(
  replicas: number,
  clusters: readonly ClusterCapacity[],
  ties: TieOrder = 'name-ascending',
  prior: ReadonlySet<string> = new Set(),
): Division {
  assertDivisionInput(replicas, clusters);
  return aggregatedDivision(replicas, clusters, ties, prior);
}

/** divideAggregated of input a caller has checked already (assertDivisionInput). */
export function aggregatedDivision(replicas: number, clusters: readonly ClusterCapacity[], ties: TieOrder, prior: ReadonlySet<string>): Division {
  return availableReplicasDivision(replicas, fewestClustersHolding(replicas, clusters, prior), ties);
}

/**
 * Prior clusters first, then the roomiest, then by name: a total order, so that the run it starts does
 * not depend on the input's order.
 */
function comesFirst(prior: ReadonlySet<string>, a: ClusterCapacity, b: ClusterCapacity): number {
  return Number(prior.has(b.name)) - Number(prior.has(a.name)) || b.availableReplicas - a.availableReplicas || byName(a, b);
}

/**
 * Past this many clusters chosen, sorting them all is cheaper than picking each from the rest; most
 * bindings fit on one or two.
 */
const PICKED_ONE_BY_ONE = 8;

/** The shortest run of the clusters, prior ones first and each group roomiest first, whose availability adds up to `replicas` (empty for 0 replicas). */
function fewestClustersHolding(replicas: number, clusters: readonly ClusterCapacity[], prior: ReadonlySet<string>): ClusterCapacity[] {
  const chosen: ClusterCapacity[] = [];
  const taken = new Uint8Array(clusters.length);
  let room = 0;
  while (room < replicas && chosen.length < Math.min(PICKED_ONE_BY_ONE, clusters.length)) {
    let first = -1;
    for (let index = 0; index < clusters.length; index++) {
      if (taken[index] === 0 && (first < 0 || comesFirst(prior, clusters[index]!, clusters[first]!) < 0)) first = index;
    }
    taken[first] = 1;
    chosen.push(clusters[first]!);
    room += clusters[first]!.availableReplicas;
  }
  if (room >= replicas || chosen.length === clusters.length) return chosen;
  const rest = clusters.filter((_, index) => taken[index] === 0).sort((a, b) => comesFirst(prior, a, b));
  for (const cluster of rest) {
    if (room >= replicas) break;
    chosen.push(cluster);
    room += cluster.availableReplicas;
  }
  return chosen;
}
