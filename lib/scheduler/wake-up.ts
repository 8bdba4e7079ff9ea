import type { Cluster } from '../api/cluster';
import type { ResourceBinding, TargetCluster } from '../api/resource-binding';
import { accumulate, add, fitsWithin, scale, subtract, type ResourceList } from '../resources';
import { bindingFilterFailure } from './binding-filter';
import { bindingStrategy, isPlainBinding } from './replica-strategy';
import { affinityTerms } from './schedule-binding';
import { bindingState, type BindingState } from './snapshot';

/** A cluster where room was freed (or that changed), with the room it has now. */
export interface FreedRoom {
  readonly cluster: Cluster;
  readonly room: ResourceList;
}

/** A binding to wake, with the clusters whose room it was woken for (passed on should it not fit after all). */
export interface WokenBinding {
  readonly binding: ResourceBinding;
  readonly clusters: readonly string[];
}

/** The scheduler's view, from a caller that holds a snapshot. */
export interface Placer {
  /**
   * Where the binding would be placed now without preemption, with `reserved` taken off each cluster's
   * room (what the bindings woken before it will take), or undefined if nowhere.
   */
  place(binding: ResourceBinding, reserved: ReadonlyMap<string, ResourceList>): readonly TargetCluster[] | undefined;
  /** The free room on a cluster now. */
  room(cluster: string): ResourceList | undefined;
}

/**
 * Whether any affinity term of the binding's placement admits the cluster (a failed attempt may move on
 * to later terms), as the binding meets the filters (binding-filter.ts); with `ignoringReadiness`,
 * whether it would if the cluster were ready.
 */
export function admits(binding: ResourceBinding, cluster: Cluster, now: number, ignoringReadiness = false): boolean {
  return affinityTerms(binding.spec.placement, binding.status?.schedulerObservingAffinityName).some((term) => {
    const failure = bindingFilterFailure(binding, cluster, term.affinity, now);
    return failure === undefined || (ignoringReadiness && failure === 'not-ready');
  });
}

function isDuplicated(binding: ResourceBinding): boolean {
  return bindingStrategy(binding).type === 'duplicated';
}

/** The least a binding must place on one cluster: all its replicas when Duplicated, else one; nothing for a plain binding. */
function leastOnOneCluster(state: BindingState): ResourceList {
  if (isPlainBinding(state.binding)) return {};
  return isDuplicated(state.binding) ? scale(state.request, Math.max(1, state.binding.spec.replicas ?? 0)) : state.request;
}

/** A waiting binding that still holds a placement on the cluster (its clusters went away and came back) may reuse what it holds. */
function withOwnUsage(room: ResourceList, state: BindingState, cluster: string): ResourceList {
  const held = state.clusters.find((target) => target.name === cluster)?.replicas ?? 0;
  return held > 0 ? add(room, scale(state.request, held)) : room;
}

/**
 * Waiting bindings are filed by the cpu they need at least on one cluster, in classes of powers of two
 * (0: none, n: from 2^(n-1) up to 2^n millicores), so that freed room is offered only to the classes that
 * may fit in it rather than to every waiting binding. One that still holds a placement (its clusters went
 * away and came back) may count what it holds there, so it is filed in class 0, which is always looked at.
 */
export function roomClass(binding: ResourceBinding): number {
  const state = bindingState(binding);
  return state.clusters.length > 0 ? 0 : cpuClass(leastOnOneCluster(state).cpu ?? 0);
}

export function cpuClass(milliCpu: number): number {
  return milliCpu <= 0 ? 0 : 1 + Math.floor(Math.log2(milliCpu));
}

/** The highest room class a waiting binding may be in and still fit in some of the freed room. */
export function highestFittingClass(freed: readonly FreedRoom[]): number {
  return cpuClass(Math.max(0, ...freed.map(({ room }) => room.cpu ?? 0)));
}

function byPriority(a: BindingState, b: BindingState): number {
  return b.priority - a.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
}

/**
 * Which waiting bindings to queue again after room was freed (binding priority and preemption (000),
 * queue: unschedulable bindings are tried again when room is freed), highest priority first. A binding
 * is a candidate when a freed cluster admits it (affinity, tolerations, readiness) and the least it must
 * place on one cluster fits in the room there now; a binding that fits nowhere freed is not woken.
 *
 * With a `placer` (the schedule cycle, which holds a snapshot) each candidate is also placed, without
 * preemption, and woken only if that succeeds within the room the bindings woken before it will take:
 * a small freed room wakes few bindings, each for the clusters it was placed on. Without one
 * (policy-change, on a deletion or a cluster change) every candidate is woken, for the freed clusters
 * it fits on. Bindings not woken are still tried when the unschedulable flush comes round.
 */
export function bindingsToWake(
  waiting: Iterable<ResourceBinding>,
  freed: readonly FreedRoom[],
  now: number,
  placer?: Placer,
): WokenBinding[] {
  if (freed.length === 0) return [];
  const candidates: Array<{ state: BindingState; clusters: string[] }> = [];
  for (const binding of waiting) {
    const state = bindingState(binding);
    const least = leastOnOneCluster(state);
    const clusters = freed
      .filter(({ cluster, room }) => fitsWithin(least, withOwnUsage(room, state, cluster.metadata.name)) && admits(binding, cluster, now))
      .map(({ cluster }) => cluster.metadata.name);
    if (clusters.length > 0) candidates.push({ state, clusters });
  }
  candidates.sort((a, b) => byPriority(a.state, b.state));
  if (!placer) return candidates.map(({ state, clusters }) => ({ binding: state.binding, clusters }));

  const taken = new Map<string, Record<string, number>>();
  const woken: WokenBinding[] = [];
  for (const { state } of candidates) {
    const targets = placer.place(state.binding, taken);
    if (!targets) continue;
    const fits = targets.every((target) => {
      const room = placer.room(target.name);
      if (room === undefined) return false;
      return fitsWithin(scale(state.request, target.replicas), subtract(withOwnUsage(room, state, target.name), taken.get(target.name) ?? {}));
    });
    if (!fits) continue;
    for (const target of targets) {
      let sum = taken.get(target.name);
      if (!sum) taken.set(target.name, (sum = {}));
      accumulate(sum, state.request, target.replicas);
    }
    woken.push({ binding: state.binding, clusters: targets.map((target) => target.name) });
  }
  return woken;
}
