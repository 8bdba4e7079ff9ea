import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { availableReplicas } from '../resources';
import { evictingFrom } from './binding-filter';
import { isLostTarget } from './lost-target';
import { refusedTargets } from './refused-targets';
import { bindingStrategy } from './replica-strategy';
import type { ScheduleDecision } from './schedule-binding';
import { bindingState, type SchedulingSnapshot } from './snapshot';

/**
 * The binding's current placement, as a decision to keep it, when it still stands: it places every
 * replica (each target holds them all when Duplicated; the targets add up to them when Divided), and
 * every cluster it is on exists as the cluster it was placed on, is ready, is still admitted by the
 * affinity term it was placed by (refused-targets.ts), is not one it is being evicted from, and has room
 * for its replicas there now (its own placement counted as free). Keeping a placement is a decision like
 * any other: no placement is kept on a cluster it no longer fits, so a cluster that shrank, or was
 * created again smaller, is never declared to hold more than it can. Undefined: schedule it afresh.
 */
export function keptPlacement(binding: ResourceBinding, snapshot: SchedulingSnapshot): ScheduleDecision | undefined {
  const targets = binding.spec.clusters ?? [];
  if (!placesEveryReplica(binding, targets)) return undefined;
  if (evictingFrom(binding).size > 0 || refusedTargets(binding, (name) => snapshot.clusters.get(name)?.cluster).length > 0) return undefined;
  const state = bindingState(binding);
  for (const target of targets) {
    const cluster = snapshot.clusters.get(target.name);
    if (!cluster?.ready || isLostTarget(binding, cluster.cluster)) return undefined;
    if (availableReplicas(snapshot.free(cluster, state), state.request) < target.replicas) return undefined;
  }
  return { result: 'scheduled', targets, affinityName: binding.status?.schedulerObservingAffinityName, victims: [], exactVictims: true };
}

function placesEveryReplica(binding: ResourceBinding, targets: readonly TargetCluster[]): boolean {
  const replicas = binding.spec.replicas ?? 0;
  if (bindingStrategy(binding).type === 'duplicated') return targets.length > 0 && targets.every((target) => target.replicas === replicas);
  return targets.reduce((sum, target) => sum + target.replicas, 0) === replicas;
}
