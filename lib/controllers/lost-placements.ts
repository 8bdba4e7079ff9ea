import { involvedObjectOf } from '../api/event';
import { asWrittenByScheduler } from '../api/generation';
import type { ResourceBinding } from '../api/resource-binding';
import { timestampOf } from '../ports/clock';
import { lostTargets } from '../scheduler/lost-target';
import { allocationAdds, allocationsOf, removeEmptyAllocations } from './allocations';
import { bindingInformerFor, bindingsBy } from './binding-informers';
import { bindingObjectRef, bindingRefOf } from './binding-references';
import { releaseLostTargets } from './commit-plan';
import type { ControllerContext } from './context';
import { retryOnConflict } from './retry-on-conflict';
import type { ClusterLookup } from './scheduling-need';

/**
 * A binding's replicas on a cluster that is gone are no longer placed (releaseLostTargets): each
 * binding given loses those targets in one transaction with the allocation they give back, decided
 * again on a conflict, with a ClusterDeleted event. Then the allocation records of the clusters left
 * holding nothing are removed, so a cluster created again under the same name starts empty. Returns
 * the bindings as they are now (released or not).
 */
export async function releaseLostPlacements(context: ControllerContext, bindings: readonly ResourceBinding[], clusterOf: ClusterLookup): Promise<ResourceBinding[]> {
  const current: ResourceBinding[] = [];
  const emptied = new Set<string>();
  for (const binding of bindings) {
    const ref = bindingObjectRef(bindingRefOf(binding));
    const informer = bindingInformerFor(context, ref);
    const released = await retryOnConflict(
      context.config.maxCommitAttempts,
      async () => {
        const stored = informer.get(ref);
        const lost = stored ? lostTargets(stored, clusterOf) : [];
        if (!stored || lost.length === 0) return stored;
        const now = timestampOf(context.clock);
        const release = releaseLostTargets(stored, lost, now);
        const [written] = await context.store.transact([
          { op: 'put', object: asWrittenByScheduler(release.binding, stored), expectedVersion: stored.metadata.resourceVersion ?? null },
          ...allocationAdds(release.deltas, { now }),
        ]);
        informer.observe(written as ResourceBinding);
        for (const target of lost) emptied.add(target.name);
        await context.events.record({ type: 'Warning', reason: 'ClusterDeleted', object: involvedObjectOf(stored), message: release.message });
        return written as ResourceBinding;
      },
      { onConflict: () => informer.refresh([ref]) },
    );
    if (released) current.push(released);
  }
  const empty = [...emptied].filter((cluster) => bindingsBy(context, 'cluster', cluster).length === 0);
  if (empty.length > 0) await removeEmptyAllocations(context.store, (await allocationsOf(context.store, empty)).values());
  return current;
}
