import { clusterRef, isClusterReady } from '../api/cluster';
import { subtract } from '../resources';
import { capacityOf } from '../scheduler/snapshot';
import { allocationRef, type ClusterAllocation } from './allocations';
import { admits } from '../scheduler/wake-up';
import { bindingsBy, syncBindings, waitingBindings } from './binding-informers';
import { requestScheduling, wakeWaiting } from './binding-requests';
import type { ControllerContext } from './context';

/**
 * A cluster changed. Bindings placed on a cluster that went away or stopped being ready are scheduled
 * again (failover, ordered cluster-affinity groups (004)); a ready cluster may have room or admit
 * bindings it did not before, so the waiting bindings that can now use it are woken. The bindings are
 * found through the informers' index by cluster, not by listing.
 */
export async function clusterChanged(context: ControllerContext, name: string): Promise<void> {
  const ref = clusterRef(name);
  const clusters = context.informers.clusters();
  await clusters.sync(context.batch);
  const before = clusters.get(ref);
  await clusters.refresh([ref]);
  const cluster = clusters.get(ref);
  // A deleted cluster's allocation stays: the bindings placed there still count on it until they move
  // off (which empties and removes it), and count again if the cluster comes back first.
  // Each version of the cluster is a change of its own: a cluster that goes not ready a second time
  // strands its bindings again, though they may not have changed since the first time.
  const cause = `Cluster/${name}@${cluster?.metadata.resourceVersion ?? `deleted@${context.clock.now()}`}`;
  if (!cluster || !isClusterReady(cluster)) {
    await syncBindings(context);
    // A waiting binding the cluster admitted may fit without it: a Duplicated one must fit on every
    // cluster it admits, static weights divide among fewer (all waiting ones, if the cluster is no longer known).
    const admitted = waitingBindings(context).filter((binding) => !before || admits(binding, before, true));
    await requestScheduling(context, [...bindingsBy(context, 'cluster', name), ...admitted], cause);
    return;
  }
  const allocation = await context.store.get<ClusterAllocation>(allocationRef(name));
  await wakeWaiting(context, [{ cluster, room: subtract(capacityOf(cluster), allocation?.spec.placed ?? {}) }], cause);
}
