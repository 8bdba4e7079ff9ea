import { involvedObjectOf } from '../api/event';
import type { Cluster } from '../api/cluster';
import type { EventRecord } from '../ports/event-log';

/** The reason of the Warning a cluster gets when its resource summary names no pods. */
export const NO_PODS_ALLOCATABLE = 'NoPodsAllocatable';

/** A cluster that reports a resource summary without `allocatable.pods`: it has room for no replica (capacityOf). */
export function lacksPodsEntry(cluster: Cluster): boolean {
  const summary = cluster.status?.resourceSummary;
  return summary !== undefined && summary.allocatable?.pods === undefined;
}

/**
 * The Warning on a cluster whose summary lost its pods entry (or came without one), as this process
 * knew it before (`known`): one per time the entry goes missing, not one per status update.
 */
export function missingPodsWarning(cluster: Cluster, known: Cluster | undefined): EventRecord | undefined {
  if (!lacksPodsEntry(cluster) || (known !== undefined && lacksPodsEntry(known))) return undefined;
  return {
    type: 'Warning',
    reason: NO_PODS_ALLOCATABLE,
    object: involvedObjectOf(cluster),
    message:
      'status.resourceSummary.allocatable has no "pods" entry: every replica is a pod, so no replica is placed here ' +
      '(as Karmada\'s general estimator counts a missing entry: 0 allowed pods)',
  };
}
