import { isClusterReady, type Cluster } from '../api/cluster';
import { refKey } from '../api/kinds';
import { DEFAULT_SCHEDULER_NAME, isScheduledBy } from '../api/scheduler-name';
import { BINDING_GROUP, bindingPriority, type ResourceBinding, type TargetCluster } from '../api/resource-binding';
import { accumulate, add, amountOf, scale, subtract, toResourceList, type ResourceList } from '../resources';
import type { ClusterAffinity, Toleration } from '../api/propagation-policy';
import { filterClusters, type FilteredClusters } from './cluster-filter';
import { victimKeyHash } from './preemption/victim-tie-order';
import { isPlainBinding } from './replica-strategy';
import { firstAtOrAbove } from './rank-search';

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
  /**
   * A preemptible ResourceBinding that requests resources: binding priority and preemption (000) lets only such
   * bindings be victims, of preemptors of strictly higher priority (see isVictimCandidate).
   */
  readonly mayBeVictim: boolean;
  readonly clusters: readonly TargetCluster[];
}

export interface ClusterState {
  readonly name: string;
  readonly cluster: Cluster;
  readonly ready: boolean;
  /** allocatable − allocated − allocating, as the member cluster reports it. */
  readonly capacity: ResourceList;
  /** What outrank has placed there. */
  readonly placed: ResourceList;
  /** capacity − placed. */
  readonly room: ResourceList;
  /** Bindings placed there, by key, with their replica count. */
  readonly residents: ReadonlyMap<string, number>;
}

/**
 * Every binding of a snapshot by priority, then key hash, then key (victim-tie-order.ts: each preemptor
 * steps through each priority's ranks with a start and stride of its own); `rank` is a key's position in `states`.
 */
export interface PriorityOrder {
  readonly states: readonly BindingState[];
  readonly rank: ReadonlyMap<string, number>;
  /** By rank, as flat arrays: preemption reads them for thousands of bindings per decision. */
  readonly priorities: Float64Array;
  readonly keyHashes: Uint32Array;
  readonly mayBeVictim: Uint8Array;
  /** Each binding's per-replica request of `resource`, by rank. */
  requests(resource: string): Float64Array;
}

/** A PriorityOrder that takes a binding's new state at its rank; its request columns are built when first read. */
class BindingOrder implements PriorityOrder {
  readonly states: BindingState[];
  readonly rank: ReadonlyMap<string, number>;
  readonly priorities: Float64Array;
  readonly mayBeVictim: Uint8Array;
  readonly keyHashes: Uint32Array;
  private readonly columns = new Map<string, Float64Array>();

  constructor(bindings: Iterable<BindingState>) {
    // Each priority's ranks are then in an order no key name steers, which each preemptor steps
    // through from its own start with its own stride (victim-tie-order.ts).
    const hashed = [...bindings].map((state) => ({ state, hash: victimKeyHash(state.key) }));
    hashed.sort((a, b) => compareNumbers(a.state.priority, b.state.priority) || a.hash - b.hash || compareKeys(a.state.key, b.state.key));
    this.states = hashed.map(({ state }) => state);
    this.keyHashes = Uint32Array.from(hashed, ({ hash }) => hash);
    this.rank = new Map(this.states.map((state, rank) => [state.key, rank]));
    this.priorities = Float64Array.from(this.states, (state) => state.priority);
    this.mayBeVictim = Uint8Array.from(this.states, (state) => (state.mayBeVictim ? 1 : 0));
  }

  requests(resource: string): Float64Array {
    let column = this.columns.get(resource);
    if (!column) this.columns.set(resource, (column = Float64Array.from(this.states, (state) => amountOf(state.request, resource))));
    return column;
  }

  /** The same binding at the same priority: its rank holds. */
  replace(rank: number, state: BindingState): void {
    this.states[rank] = state;
    this.mayBeVictim[rank] = state.mayBeVictim ? 1 : 0;
    this.columns.forEach((column, resource) => (column[rank] = amountOf(state.request, resource)));
  }
}

/**
 * A cluster's residents as ranks in a PriorityOrder, ascending (the victim search's order), with the
 * replicas each has there: preemption reads a cluster's lowest ranks first and may stop early.
 */
export interface RankedResidents {
  readonly ranks: Int32Array;
  readonly replicas: Float64Array;
}

/**
 * A cluster's bookkeeping. `placed` is a running total changed in place, and `room` is computed when
 * first read after a change: every decision reads the room of every feasible cluster, few change it.
 */
class ClusterRoom implements ClusterState {
  readonly placed: Record<string, number> = {};
  /** Read only: changed through admit and release. */
  readonly residents = new Map<string, number>();
  private cachedRoom: ResourceList | undefined;
  private ranked: (RankedResidents & { readonly order: PriorityOrder }) | undefined;

  constructor(
    readonly name: string,
    public cluster: Cluster,
    public ready: boolean,
    public capacity: ResourceList,
  ) {}

  /** The cluster as it reports itself now; what outrank placed there stays. */
  update(cluster: Cluster): void {
    this.cluster = cluster;
    this.ready = isClusterReady(cluster);
    this.capacity = capacityOf(cluster);
    this.cachedRoom = undefined;
  }

  get room(): ResourceList {
    // Frozen because it is shared by every reader until the next change.
    this.cachedRoom ??= Object.freeze(subtract(this.capacity, this.placed));
    return this.cachedRoom;
  }

  /**
   * A binding placed here. `rank` is its rank in the priority order when that order stays as it is: the
   * residents by rank are then updated rather than looked up again, key by key, when next read.
   */
  admit(state: BindingState, replicas: number, rank: number | undefined): void {
    accumulate(this.placed, state.request, replicas);
    this.cachedRoom = undefined;
    this.residents.set(state.key, replicas);
    this.ranked = rank === undefined || !this.ranked ? undefined : { ...withResident(this.ranked, rank, replicas), order: this.ranked.order };
  }

  /** A binding no longer placed here; `rank` as for admit. */
  release(state: BindingState, replicas: number, rank: number | undefined): void {
    accumulate(this.placed, state.request, -replicas);
    this.cachedRoom = undefined;
    this.residents.delete(state.key);
    this.ranked = rank === undefined || !this.ranked ? undefined : { ...withoutResident(this.ranked, rank), order: this.ranked.order };
  }

  /** The residents by their rank in `order`, kept while neither the residents nor the order change. */
  rankedResidents(order: PriorityOrder): RankedResidents {
    if (this.ranked?.order !== order) {
      const unsorted = new Int32Array(this.residents.size);
      const counts = new Float64Array(this.residents.size);
      let index = 0;
      // forEach rather than for…of: no [key, value] array per resident.
      this.residents.forEach((count, key) => {
        unsorted[index] = order.rank.get(key)!;
        counts[index++] = count;
      });
      const byRank = Int32Array.from(unsorted.keys()).sort((a, b) => unsorted[a]! - unsorted[b]!);
      const ranks = Int32Array.from(byRank, (at) => unsorted[at]!);
      const replicas = Float64Array.from(byRank, (at) => counts[at]!);
      this.ranked = { order, ranks, replicas };
    }
    return this.ranked;
  }
}

function withResident({ ranks, replicas }: RankedResidents, rank: number, count: number): RankedResidents {
  const at = firstAtOrAbove(ranks, rank);
  if (ranks[at] === rank) {
    const updated = replicas.slice();
    updated[at] = count;
    return { ranks, replicas: updated };
  }
  const grownRanks = new Int32Array(ranks.length + 1);
  const grownReplicas = new Float64Array(ranks.length + 1);
  grownRanks.set(ranks.subarray(0, at));
  grownRanks.set(ranks.subarray(at), at + 1);
  grownReplicas.set(replicas.subarray(0, at));
  grownReplicas.set(replicas.subarray(at), at + 1);
  grownRanks[at] = rank;
  grownReplicas[at] = count;
  return { ranks: grownRanks, replicas: grownReplicas };
}

function withoutResident({ ranks, replicas }: RankedResidents, rank: number): RankedResidents {
  const at = firstAtOrAbove(ranks, rank);
  if (ranks[at] !== rank) return { ranks, replicas };
  const shrunkRanks = new Int32Array(ranks.length - 1);
  const shrunkReplicas = new Float64Array(ranks.length - 1);
  shrunkRanks.set(ranks.subarray(0, at));
  shrunkRanks.set(ranks.subarray(at + 1), at);
  shrunkReplicas.set(replicas.subarray(0, at));
  shrunkReplicas.set(replicas.subarray(at + 1), at);
  return { ranks: shrunkRanks, replicas: shrunkReplicas };
}


/**
 * allocatable − allocated − allocating, as the member cluster reports it. Every replica is a pod, so a
 * summary without a `pods` entry leaves room for none, as Karmada's general estimator counts it
 * (pkg/estimator/client/general.go, getAllowedPodNumber: a missing entry is 0 allowed pods).
 */
export function capacityOf(cluster: Cluster): ResourceList {
  const summary = cluster.status?.resourceSummary;
  return subtract(toResourceList(summary?.allocatable), add(toResourceList(summary?.allocated), toResourceList(summary?.allocating)));
}

const bindingStates = new WeakMap<ResourceBinding, BindingState>();

/** The binding's key in the snapshot and in informers: the refKey of its store reference, as bindingKeyFor gives for a message's. */
export function bindingKeyOf(binding: ResourceBinding): string {
  return refKey({ group: BINDING_GROUP, kind: binding.kind, namespace: binding.metadata.namespace ?? '', name: binding.metadata.name });
}

/** Reads a binding once; stored bindings are immutable, so the result is cached per object. */
export function bindingState(binding: ResourceBinding): BindingState {
  const cached = bindingStates.get(binding);
  if (cached) return cached;
  const resources = toResourceList(binding.spec.replicaRequirements?.resourceRequest);
  const preemptible = binding.spec.preemptibility === 'preemptible';
  const requestsResources = Object.values(resources).some((amount) => amount > 0);
  const state: BindingState = {
    key: bindingKeyOf(binding),
    binding,
    priority: bindingPriority(binding),
    preemptible,
    request: add(resources, { pods: 1 }),
    requestsResources,
    mayBeVictim: preemptible && requestsResources && binding.kind === 'ResourceBinding',
    clusters: binding.spec.clusters ?? [],
  };
  if (Object.isFrozen(binding)) bindingStates.set(binding, state);
  return state;
}

const othersStates = new WeakMap<BindingState, BindingState>();

/**
 * Another scheduler's binding, as outrank's scheduler sees it: its placement occupies room like any
 * other, but it is never a victim (each scheduler preempts only the bindings it manages: binding
 * priority and preemption (000), "Preemption in multi-scheduler").
 */
function otherSchedulersState(state: BindingState): BindingState {
  if (!state.mayBeVictim) return state;
  let seen = othersStates.get(state);
  if (!seen) othersStates.set(state, (seen = { ...state, mayBeVictim: false }));
  return seen;
}

export function usageOn(state: BindingState, replicas: number): ResourceList {
  return scale(state.request, replicas);
}

/**
 * The scheduler's view of the fleet: every cluster's capacity and what outrank placed there, kept up
 * to date as decisions are made within a cycle (like the Kubernetes scheduler's cache).
 */
/** Distinct affinities remembered at once; beyond it they are worked out again. */
const FILTER_RESULTS_KEPT = 1_000;

export class SchedulingSnapshot {
  /** By name; what is placed on them changes only through upsert and remove. */
  readonly clusters: ReadonlyMap<string, ClusterState>;
  readonly bindings = new Map<string, BindingState>();
  private readonly rooms = new Map<string, ClusterRoom>();
  /** Built by priorityOrder(); undefined once a binding comes, goes or changes priority. */
  private order: BindingOrder | undefined;
  /** filtered() by affinity and tolerations; emptied when a cluster comes, goes or changes. */
  private readonly filterResults = new Map<string, FilteredClusters<ClusterState>>();

  /**
   * `schedulerNames`: the scheduler the snapshot decides for answers to these; the other bindings are
   * another scheduler's (scheduler-name.ts).
   */
  constructor(
    clusters: readonly Cluster[],
    bindings: readonly ResourceBinding[],
    private readonly schedulerNames: readonly string[] = [DEFAULT_SCHEDULER_NAME],
  ) {
    this.clusters = this.rooms;
    for (const cluster of clusters) {
      const name = cluster.metadata.name;
      this.rooms.set(name, new ClusterRoom(name, cluster, isClusterReady(cluster), capacityOf(cluster)));
    }
    for (const binding of bindings) this.upsert(binding);
  }

  /**
   * Records a cluster as stored now. A cluster new to the snapshot takes in the bindings already known
   * to be placed on it (they may have been read before it).
   */
  upsertCluster(cluster: Cluster): void {
    const name = cluster.metadata.name;
    this.filterResults.clear();
    const known = this.rooms.get(name);
    if (known) {
      known.update(cluster);
      return;
    }
    const room = new ClusterRoom(name, cluster, isClusterReady(cluster), capacityOf(cluster));
    this.rooms.set(name, room);
    for (const state of this.bindings.values()) {
      const replicas = state.clusters.find((target) => target.name === name)?.replicas ?? 0;
      if (replicas > 0) room.admit(state, replicas, undefined);
    }
  }

  /** A cluster deleted: the bindings placed on it are no longer counted anywhere for it. */
  removeCluster(name: string): void {
    this.filterResults.clear();
    this.rooms.delete(name);
  }

  /**
   * The clusters that pass the filters (cluster-filter.ts) for this affinity and these tolerations: the
   * same for every binding that shares them (as a policy's bindings do), so worked out once per cluster
   * change rather than per cluster per decision.
   */
  filtered(affinity: ClusterAffinity | undefined, tolerations: readonly Toleration[]): FilteredClusters<ClusterState> {
    const key = JSON.stringify([affinity ?? null, tolerations]);
    let result = this.filterResults.get(key);
    if (!result) {
      if (this.filterResults.size >= FILTER_RESULTS_KEPT) this.filterResults.clear();
      result = filterClusters(this.rooms.values(), affinity, tolerations);
      this.filterResults.set(key, result);
    }
    return result;
  }

  /** Records a binding as stored now, replacing what was known of it. */
  upsert(binding: ResourceBinding): void {
    const own = bindingState(binding);
    const state = isScheduledBy(this.schedulerNames, binding) ? own : otherSchedulersState(own);
    const previous = this.bindings.get(state.key);
    if (isPlainBinding(binding) && (!previous || isPlainBinding(previous.binding)) && !this.order?.rank.has(state.key)) {
      // A plain binding holds no room and is never a victim: it stays out of the priority order (which
      // it would only lengthen and make to be sorted again) and off the clusters' residents.
      this.bindings.set(state.key, state);
      return;
    }
    // The same binding at the same priority keeps its rank; anything else reorders when next asked.
    const rank = previous?.priority === state.priority ? this.order?.rank.get(state.key) : undefined;
    if (previous) this.forget(previous, rank);
    this.bindings.set(state.key, state);
    for (const target of state.clusters) {
      const cluster = this.rooms.get(target.name);
      if (!cluster || target.replicas === 0) continue;
      cluster.admit(state, target.replicas, rank);
    }
    if (rank === undefined) this.order = undefined;
    else this.order!.replace(rank, state);
  }

  remove(key: string): void {
    const previous = this.bindings.get(key);
    if (!previous) return;
    this.forget(previous, undefined);
    if (!isPlainBinding(previous.binding) || this.order?.rank.has(key)) this.order = undefined;
  }

  /**
   * Every binding by priority, then key hash, then key (victim-tie-order.ts steps through each priority's ranks), with each
   * key's rank, so that preemption orders its candidates by number rather than comparing keys; built when first asked after
   * a binding was added, removed or changed priority.
   */
  priorityOrder(): PriorityOrder {
    this.order ??= new BindingOrder([...this.bindings.values()].filter((state) => !isPlainBinding(state.binding)));
    return this.order;
  }

  /** A cluster's residents by rank in priorityOrder(); preemption reads them for every decision. */
  rankedResidents(cluster: ClusterState): RankedResidents {
    const room = this.rooms.get(cluster.name);
    if (room !== cluster) throw new Error(`cluster ${cluster.name} is not part of this snapshot`);
    return room.rankedResidents(this.priorityOrder());
  }

  /**
   * Free room on a cluster; `ignoring` is a binding whose own placement counts as free (it is being
   * rescheduled). What is given back is what was counted for it here: its request may have changed since.
   */
  free(cluster: ClusterState, ignoring?: BindingState): ResourceList {
    const counted = ignoring ? this.bindings.get(ignoring.key) : undefined;
    // A binding placed nowhere is resident nowhere: no need to look on each cluster.
    const own = counted && counted.clusters.length > 0 ? cluster.residents.get(counted.key) : undefined;
    return own && counted ? add(cluster.room, usageOn(counted, own)) : cluster.room;
  }

  private forget(previous: BindingState, rank: number | undefined): void {
    this.bindings.delete(previous.key);
    for (const target of previous.clusters) {
      const cluster = this.rooms.get(target.name);
      if (!cluster || !cluster.residents.has(previous.key)) continue;
      cluster.release(previous, target.replicas, rank);
    }
  }
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Code-unit order, independent of locale. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
