import { clusterRef, isClusterReady, type Cluster } from '../api/cluster';
import { isScheduledBy } from '../api/scheduler-name';
import { subtract } from '../resources';
import { isLostTarget } from '../scheduler/lost-target';
import { bindingKeyOf, capacityOf } from '../scheduler/snapshot';
import { allocationRef, type ClusterAllocation } from './allocations';
import { admits } from '../scheduler/wake-up';
import { bindingsBy, syncBindings, waitingBindings } from './binding-informers';
import { requestScheduling, wakeWaiting } from './binding-requests';
import type { ControllerContext } from './context';
import { releaseLostPlacements } from './lost-placements';
import { mustLeaveNow, schedulingNeed } from './scheduling-need';
import { missingPodsWarning } from './missing-pods';

/**
 * A cluster changed. Bindings placed on a cluster that went away or stopped being ready are scheduled
 * again (failover, ordered cluster-affinity groups (004)), and so are those placed on a ready one that
 * their placement no longer admits (its labels changed: scheduling-need.ts); a ready cluster may have
 * room or admit bindings it did not before, so the waiting bindings that can now use it are woken. The
 * bindings are found through the informers' index by cluster and the waiting index, not by listing.
 *
 * A cluster whose resource summary names no pods gets a Warning (missing-pods.ts): it has room for none.
 *
 * A deleted cluster takes the placements on it with it (lost-placements.ts): the bindings placed there
 * wait to be placed again and its allocation record goes. A cluster seen created again after
 * bindings were placed on the one it replaces (deleted and created between two looks) does the same
 * for them before it takes any placement.
 */
export async function clusterChanged(context: ControllerContext, name: string): Promise<void> {
  const ref = clusterRef(name);
  const clusters = context.informers.clusters();
  const known = clusters.get(ref);
  await Promise.all([clusters.sync(context.batch), syncBindings(context)]);
  const before = clusters.get(ref);
  await clusters.refresh([ref]);
  const cluster = clusters.get(ref);
  const warning = cluster && missingPodsWarning(cluster, known);
  if (warning) await context.events.record(warning);
  const clusterOf = (other: string): Cluster | undefined => (other === name ? cluster : clusters.get(clusterRef(other)));
  // Each version of the cluster is a change of its own: a cluster that goes not ready a second time
  // strands its bindings again, though they may not have changed since the first time.
  const cause = `Cluster/${name}@${cluster?.metadata.resourceVersion ?? `deleted@${context.clock.now()}`}`;
  // Another scheduler's bindings are its own to move: their placements stay, counted where they are.
  const placedThere = bindingsBy(context, 'cluster', name).filter((binding) => isScheduledBy(context.config.schedulerNames, binding));
  if (!cluster || !isClusterReady(cluster)) {
    const current = cluster ? placedThere : await releaseLostPlacements(context, placedThere, clusterOf);
    // A waiting binding the cluster admitted may fit without it: a Duplicated one must fit on every
    // cluster it admits, static weights divide among fewer (all waiting ones, if the cluster is no longer known).
    const admitted = waitingBindings(context).filter((binding) => !before || admits(binding, before, context.clock.now(), true));
    const requested = new Map([...current, ...admitted].map((binding) => [bindingKeyOf(binding), binding]));
    await requestScheduling(context, [...requested.values()], cause);
    return;
  }
  const stale = placedThere.filter((binding) => isLostTarget(binding, cluster));
  if (stale.length > 0) await requestScheduling(context, await releaseLostPlacements(context, stale, clusterOf), cause);
  // Its labels or NoExecute taints may no longer admit the bindings placed there (Karmada's
  // updateCluster requeues the bindings of a cluster whose labels or spec changed, and its taint manager
  // evicts): those that must leave it are scheduled again.
  const now = context.clock.now();
  const refusing = placedThere.filter((binding) => schedulingNeed(binding, clusterOf, now, context.config.schedulerNames).needed && mustLeaveNow(binding, clusterOf, now));
  if (refusing.length > 0) await requestScheduling(context, refusing, cause);
  const allocation = await context.store.get<ClusterAllocation>(allocationRef(name));
  await wakeWaiting(context, [{ cluster, room: subtract(capacityOf(cluster), allocation?.spec.placed ?? {}) }], cause);
}
