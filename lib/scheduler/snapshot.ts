import { isClusterReady, type Cluster } from '../api/cluster';
import { refKey } from '../api/kinds';
import { bindingPriority, type ResourceBinding, type TargetCluster } from '../api/resource-binding';
import { add, scale, subtract, toResourceList, type ResourceList } from '../resources';

/** What the scheduler knows of a binding: priority, preemptibility, per-replica request and placement. */
export interface BindingState {
  readonly key: string;
  readonly binding: ResourceBinding;
  readonly priority: number;
  readonly preemptible: boolean;
  /** Per-replica request including one pod. */
  readonly request: ResourceList;
  /** The binding requests resources beyond its pods (000: only such bindings are preemption victims). */
  readonly requestsResources: boolean;
  readonly clusters: readonly TargetCluster[];
}

export interface ClusterState {
  readonly name: string;
  readonly cluster: Cluster;
  readonly ready: boolean;
  /** allocatable − allocated − allocating, as the member cluster reports it. */
  readonly capacity: ResourceList;
  /** What outrank has placed there. */
  placed: ResourceList;
  /** Bindings placed there, by key, with their replica count. */
  readonly residents: Map<string, number>;
}

const UNLIMITED_PODS = 2 ** 40;

const bindingStates = new WeakMap<ResourceBinding, BindingState>();

export function bindingKeyOf(binding: ResourceBinding): string {
  return refKey({ group: 'work.karmada.io', kind: binding.kind, namespace: binding.metadata.namespace ?? '', name: binding.metadata.name });
}

/** Reads a binding once; stored bindings are immutable, so the result is cached per object. */
export function bindingState(binding: ResourceBinding): BindingState {
  const cached = bindingStates.get(binding);
  if (cached) return cached;
  const resources = toResourceList(binding.spec.replicaRequirements?.resourceRequest);
  const state: BindingState = {
    key: bindingKeyOf(binding),
    binding,
    priority: bindingPriority(binding),
    preemptible: binding.spec.preemptibility === 'preemptible',
    request: add(resources, { pods: 1 }),
    requestsResources: Object.values(resources).some((amount) => amount > 0),
    clusters: binding.spec.clusters ?? [],
  };
  if (Object.isFrozen(binding)) bindingStates.set(binding, state);
  return state;
}

export function usageOn(state: BindingState, replicas: number): ResourceList {
  return scale(state.request, replicas);
}

/**
 * The scheduler's view of the fleet: every cluster's capacity and what outrank placed there, kept up
 * to date as decisions are made within a cycle (like the Kubernetes scheduler's cache).
 */
export class SchedulingSnapshot {
  readonly clusters = new Map<string, ClusterState>();
  readonly bindings = new Map<string, BindingState>();

  constructor(clusters: readonly Cluster[], bindings: readonly ResourceBinding[]) {
    for (const cluster of clusters) {
      const summary = cluster.status?.resourceSummary;
      const allocatable = toResourceList(summary?.allocatable);
      // A cluster that does not report a pod limit is not limited by pod count.
      const withPods = allocatable.pods === undefined ? { ...allocatable, pods: UNLIMITED_PODS } : allocatable;
      const capacity = subtract(withPods, add(toResourceList(summary?.allocated), toResourceList(summary?.allocating)));
      this.clusters.set(cluster.metadata.name, {
        name: cluster.metadata.name,
        cluster,
        ready: isClusterReady(cluster),
        capacity,
        placed: {},
        residents: new Map(),
      });
    }
    for (const binding of bindings) this.upsert(binding);
  }

  /** Records a binding as stored now, replacing what was known of it. */
  upsert(binding: ResourceBinding): void {
    const state = bindingState(binding);
    this.remove(state.key);
    this.bindings.set(state.key, state);
    for (const target of state.clusters) {
      const cluster = this.clusters.get(target.name);
      if (!cluster || target.replicas === 0) continue;
      cluster.placed = add(cluster.placed, usageOn(state, target.replicas));
      cluster.residents.set(state.key, target.replicas);
    }
  }

  remove(key: string): void {
    const previous = this.bindings.get(key);
    if (!previous) return;
    this.bindings.delete(key);
    for (const target of previous.clusters) {
      const cluster = this.clusters.get(target.name);
      if (!cluster || !cluster.residents.has(key)) continue;
      cluster.placed = subtract(cluster.placed, usageOn(previous, target.replicas));
      cluster.residents.delete(key);
    }
  }

  /**
   * Free room on a cluster; `ignoring` is a binding whose own placement counts as free (it is being
   * rescheduled). What is given back is what was counted for it here: its request may have changed since.
   */
  free(cluster: ClusterState, ignoring?: BindingState): ResourceList {
    const free = subtract(cluster.capacity, cluster.placed);
    const own = ignoring ? cluster.residents.get(ignoring.key) : undefined;
    const counted = ignoring ? this.bindings.get(ignoring.key) : undefined;
    return own && counted ? add(free, usageOn(counted, own)) : free;
  }
}
