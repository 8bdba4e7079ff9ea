import { isClusterReady, type Cluster } from '../api/cluster';
import { allocationsOf } from '../controllers/allocations';
import type { ObjectStore } from '../ports/object-store';
import { formatQuantity } from '../quantity';
import { amountOf, toResourceList } from '../resources';

/** One resource of a cluster: what outrank placed there against what the cluster offers (its allocatable), as quantities. */
export interface ResourceFill {
  readonly resource: string;
  readonly placed: string;
  /** As the cluster reports it; null when it reports none of this resource. */
  readonly allocatable: string | null;
  /** placed / allocatable in whole percent, rounded down as kubectl describe node rounds; null without allocatable. */
  readonly percent: number | null;
}

export interface ClusterFill {
  readonly name: string;
  readonly ready: boolean;
  readonly resources: readonly ResourceFill[];
}

/** The resources people look at first, then the others (GPUs, extended resources) by name. */
const FIRST = ['cpu', 'memory', 'pods'];

export function resourceOrder(a: string, b: string): number {
  const rank = (resource: string) => (FIRST.includes(resource) ? FIRST.indexOf(resource) : FIRST.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

function fillOf(cluster: Cluster, placed: Readonly<Record<string, number>>): ClusterFill {
  const written = cluster.status?.resourceSummary?.allocatable ?? {};
  const allocatable = toResourceList(written);
  const resources = [...new Set([...Object.keys(written), ...Object.keys(placed).filter((resource) => placed[resource] !== 0)])].sort(resourceOrder);
  return {
    name: cluster.metadata.name,
    ready: isClusterReady(cluster),
    resources: resources.map((resource) => {
      const amount = amountOf(placed, resource);
      const offered = written[resource] === undefined ? undefined : amountOf(allocatable, resource);
      return {
        resource,
        placed: formatQuantity(amount, resource),
        allocatable: offered === undefined ? null : String(written[resource]),
        percent: offered === undefined || offered <= 0 ? null : Math.floor((amount * 100) / offered),
      };
    }),
  };
}

/** How full every cluster is: each resource it reports, placed (its ClusterAllocation) against allocatable, by cluster name. */
export async function clusterFill(store: ObjectStore): Promise<ClusterFill[]> {
  const clusters = await store.list<Cluster>('cluster.karmada.io', 'Cluster');
  const allocations = await allocationsOf(store, clusters.map((cluster) => cluster.metadata.name));
  return clusters
    .map((cluster) => fillOf(cluster, allocations.get(cluster.metadata.name)?.spec.placed ?? {}))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A cluster's fullest resource, in percent (0 when it reports none). */
export function fullestPercent(fill: ClusterFill): number {
  return Math.max(0, ...fill.resources.map((resource) => resource.percent ?? 0));
}
