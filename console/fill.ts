import { formatQuantity } from '../lib/quantity';
import { add, amountOf, subtract, toResourceList } from '../lib/resources';
import type { Cluster, ClusterAllocation } from './model';

/**
 * How full a cluster is, resource by resource, as the scheduler sees it: what outrank placed there (its
 * ClusterAllocation) against what the cluster leaves to outrank, allocatable − allocated − allocating
 * (lib/scheduler/snapshot.ts capacityOf). Every resource the cluster reports counts — GPUs and other
 * extended resources too: a cluster whose GPUs are all placed is full for a GPU workload, however much
 * CPU it has left.
 */
export interface ResourceFill {
  readonly resource: string;
  /** In the scheduler's units (millicores for cpu, bytes for memory). */
  readonly placed: number;
  /** allocatable − allocated − allocating: what outrank may place there. */
  readonly capacity: number;
  readonly allocatable: number;
  /** allocated + allocating: what the member cluster reports used by others than outrank. */
  readonly others: number;
  /** placed / capacity; 1 where there is no capacity at all (no room for any request of it). */
  readonly fraction: number;
  /** "3 / 4", "2500m / 8", as kubectl describe node writes amounts. */
  readonly label: string;
}

/** The resources people look at first, then the others (GPUs, extended resources) by name, as `outrank simulate` orders them. */
const FIRST = ['cpu', 'memory', 'pods'];

export function resourceOrder(a: string, b: string): number {
  const rank = (resource: string) => (FIRST.includes(resource) ? FIRST.indexOf(resource) : FIRST.length);
  return rank(a) - rank(b) || a.localeCompare(b);
}

/** Each resource the cluster reports or outrank placed there, in resourceOrder. */
export function clusterFill(cluster: Cluster, allocation: ClusterAllocation | undefined): ResourceFill[] {
  const summary = cluster.status?.resourceSummary ?? {};
  const allocatable = toResourceList(summary.allocatable);
  const others = add(toResourceList(summary.allocated), toResourceList(summary.allocating));
  const capacity = subtract(allocatable, others);
  const placed = allocation?.spec.placed ?? {};
  const resources = new Set([...Object.keys(capacity), ...Object.keys(placed).filter((resource) => placed[resource] !== 0)]);
  return [...resources].sort(resourceOrder).map((resource) => {
    const room = Math.max(0, amountOf(capacity, resource));
    const amount = amountOf(placed, resource);
    return {
      resource,
      placed: amount,
      capacity: room,
      allocatable: amountOf(allocatable, resource),
      others: amountOf(others, resource),
      fraction: room > 0 ? amount / room : 1,
      label: `${formatQuantity(amount, resource)} / ${formatQuantity(room, resource)}`,
    };
  });
}

/** The resource of a cluster that is fullest, which is the one that decides what still fits there. */
export function fullest(fills: readonly ResourceFill[]): ResourceFill | undefined {
  return fills.reduce<ResourceFill | undefined>((most, fill) => (most === undefined || fill.fraction > most.fraction ? fill : most), undefined);
}

/** Every resource any cluster of the fleet reports, in resourceOrder. */
export function fleetResources(fills: Iterable<readonly ResourceFill[]>): string[] {
  const resources = new Set<string>();
  for (const cluster of fills) for (const fill of cluster) resources.add(fill.resource);
  return [...resources].sort(resourceOrder);
}

/** The bins clusters are counted in by fill: 0–9 %, 10–19 %, … 90–99 %, and full. */
export const FILL_BINS = [...Array.from({ length: 10 }, (_, tenth) => `${tenth * 10}–${tenth * 10 + 9}%`), 'full'];

export function fillBin(fraction: number): number {
  return fraction >= 1 ? FILL_BINS.length - 1 : Math.max(0, Math.floor(fraction * 10));
}

/**
 * How many clusters are in each fill bin, resource by resource: how full the fleet is, legible at a
 * hundred clusters as a hundred bars are not. A cluster that reports none of a resource is not counted
 * for it.
 */
export function fillHistograms(fleet: Iterable<readonly ResourceFill[]>): Map<string, number[]> {
  const histograms = new Map<string, number[]>();
  for (const cluster of fleet) {
    for (const fill of cluster) {
      let bins = histograms.get(fill.resource);
      if (!bins) histograms.set(fill.resource, (bins = FILL_BINS.map(() => 0)));
      bins[fillBin(fill.fraction)]! += 1;
    }
  }
  return histograms;
}

/** The whole fleet's placed / capacity of one resource, in whole percent (rounded down, as kubectl describe node rounds). */
export function fleetPercent(fleet: Iterable<readonly ResourceFill[]>, resource: string): number {
  let placed = 0;
  let capacity = 0;
  for (const cluster of fleet) {
    const fill = cluster.find((candidate) => candidate.resource === resource);
    placed += fill?.placed ?? 0;
    capacity += fill?.capacity ?? 0;
  }
  return capacity > 0 ? Math.floor((placed * 100) / capacity) : placed > 0 ? 100 : 0;
}
