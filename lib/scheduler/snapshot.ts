import { isClusterReady, type Cluster } from '../api/cluster';
import { refKey } from '../api/kinds';
import { DEFAULT_SCHEDULER_NAME, isScheduledBy } from '../api/scheduler-name';
import { BINDING_GROUP, bindingPriority, type ResourceBinding, type TargetCluster } from '../api/resource-binding';
import { accumulate, add, amountOf, scale, subtract, toResourceList, type ResourceList } from '../resources';
import type { ClusterAffinity, Toleration } from '../api/propagation-policy';
import { filterClusters, type FilteredClusters } from './cluster-filter';
import { victimKeyHash } from './preemption/victim-tie-order';
import { VictimAmountsLedger, type VictimAmounts } from './preemption/victim-amounts';
import { isPlainBinding } from './replica-strategy';
import { PendingResidentChanges } from './pending-resident-changes';

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
  readonly rank: Pick<ReadonlyMap<string, number>, 'get' | 'has'>;
  /** By rank, as flat arrays: preemption reads them for thousands of bindings per decision. */
  readonly priorities: Float64Array;
  readonly keyHashes: Uint32Array;
  readonly mayBeVictim: Uint8Array;
  /** Each binding's per-replica request of `resource`, by rank. */
  requests(resource: string): Float64Array;
}

let orderGenerations = 0;

/** The order's sort: priority, then key hash, then key. */
function compareRanked(a: BindingState, aHash: number, b: BindingState, bHash: number): number {
  return compareNumbers(a.priority, b.priority) || aHash - bHash || compareKeys(a.key, b.key);
}

/**
 * Bindings a built order does not hold as they are now: those to place in it (new, or at another
 * priority) and the keys whose rank there no longer stands (gone, or at another priority).
 */
interface OrderChanges {
  readonly added: Map<string, BindingState>;
  readonly removed: Set<string>;
}

/** A binding's place in the order, kept from one order to the one merged from it. */
interface RankSlot {
  rank: number;
}

/** A binding's rank by key, as the order holds it. */
class RankLookup implements Pick<ReadonlyMap<string, number>, 'get' | 'has'> {
  constructor(readonly slots: Map<string, RankSlot>) {}

  get(key: string): number | undefined {
    return this.slots.get(key)?.rank;
  }

  has(key: string): boolean {
    return this.slots.has(key);
  }
}

/**
 * A PriorityOrder that takes a binding's new state at its rank; its request columns are built when first
 * read. An order merged with the changes since it was built moves each kept binding's rank in place
 * (its slot is the same), and keeps the way from the other's ranks to its own (`previous`), so that the
 * clusters' residents by rank are carried over rather than sorted again: the order it was merged from
 * is not read again.
 */
class BindingOrder implements PriorityOrder {
  readonly rank: RankLookup;
  readonly priorities: Float64Array;
  readonly mayBeVictim: Uint8Array;
  /** Which order this is, of those a snapshot has built: what a cluster's residents by rank were read in. */
  readonly generation = (orderGenerations += 1);
  /** The order this one was merged from, and each of its ranks' rank here (−1: no longer held). */
  previous: { readonly generation: number; readonly rankFromPrevious: Int32Array } | undefined;

  /** From states sorted already, their key hashes, their rank slots (also by rank) and the request columns known. */
  private constructor(
    readonly states: BindingState[],
    readonly keyHashes: Uint32Array,
    slots: Map<string, RankSlot>,
    private readonly slotsByRank: RankSlot[],
    private readonly columns: Map<string, Float64Array>,
  ) {
    this.rank = new RankLookup(slots);
    this.priorities = new Float64Array(states.length);
    this.mayBeVictim = new Uint8Array(states.length);
    for (let at = 0; at < states.length; at++) {
      this.priorities[at] = states[at]!.priority;
      this.mayBeVictim[at] = states[at]!.mayBeVictim ? 1 : 0;
    }
  }

  static of(bindings: Iterable<BindingState>): BindingOrder {
    const hashed = sortedForOrder(bindings);
    const slots = new Map<string, RankSlot>();
    const slotsByRank = hashed.map(({ state }, rank) => {
      const slot = { rank };
      slots.set(state.key, slot);
      return slot;
    });
    return new BindingOrder(
      hashed.map(({ state }) => state),
      Uint32Array.from(hashed, ({ hash }) => hash),
      slots,
      slotsByRank,
      new Map(),
    );
  }

  /**
   * This order with the changes made: each added binding found its place by a binary search, and the
   * kept ones moved up by what is added below them and down by what is gone — a pass over the order,
   * not a sort of it, and no key looked up but the changed ones.
   */
  merged({ added, removed }: OrderChanges): BindingOrder {
    const { slots } = this.rank;
    const length = this.states.length;
    const gone = new Uint8Array(length);
    for (const key of removed) {
      gone[slots.get(key)!.rank] = 1;
      slots.delete(key);
    }
    const incoming = sortedForOrder(added.values());
    // Where each added binding goes among the old ranks (before the first old one it precedes).
    const before = incoming.map(({ state, hash }) => this.firstAfter(state, hash));
    const size = length - removed.size + incoming.length;
    const states: BindingState[] = new Array(size);
    const keyHashes = new Uint32Array(size);
    const slotsByRank: RankSlot[] = new Array(size);
    const rankFromPrevious = new Int32Array(length).fill(-1);
    const incomingRank = new Int32Array(incoming.length);
    let out = 0;
    let next = 0;
    for (let at = 0; at <= length; at++) {
      for (; next < incoming.length && before[next] === at; next++) incomingRank[next] = out++;
      if (at === length || gone[at] === 1) continue;
      rankFromPrevious[at] = out;
      states[out] = this.states[at]!;
      keyHashes[out] = this.keyHashes[at]!;
      const slot = this.slotsByRank[at]!;
      slot.rank = out;
      slotsByRank[out++] = slot;
    }
    incoming.forEach(({ state, hash }, index) => {
      const rank = incomingRank[index]!;
      states[rank] = state;
      keyHashes[rank] = hash;
      const slot = { rank };
      slots.set(state.key, slot);
      slotsByRank[rank] = slot;
    });
    const columns = new Map<string, Float64Array>();
    this.columns.forEach((column, resource) => {
      const carried = new Float64Array(size);
      for (let at = 0; at < length; at++) if (rankFromPrevious[at]! >= 0) carried[rankFromPrevious[at]!] = column[at]!;
      incoming.forEach(({ state }, index) => (carried[incomingRank[index]!] = amountOf(state.request, resource)));
      columns.set(resource, carried);
    });
    const order = new BindingOrder(states, keyHashes, slots, slotsByRank, columns);
    // One step back is all a cluster's residents are carried over.
    order.previous = { generation: this.generation, rankFromPrevious };
    return order;
  }

  /** The first rank whose binding comes after `state` in the order's sort (the length when none does). */
  private firstAfter(state: BindingState, hash: number): number {
    let low = 0;
    let high = this.states.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareRanked(this.states[middle]!, this.keyHashes[middle]!, state, hash) < 0) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  requests(resource: string): Float64Array {
    let column = this.columns.get(resource);
    if (!column) {
      column = new Float64Array(this.states.length);
      for (let at = 0; at < column.length; at++) column[at] = amountOf(this.states[at]!.request, resource);
      this.columns.set(resource, column);
    }
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
 * The states with their key hashes, in the order's sort: each priority's ranks are then in an order no
 * key name steers, which each preemptor steps through from its own start with its own stride
 * (victim-tie-order.ts).
 */
function sortedForOrder(bindings: Iterable<BindingState>): Array<{ readonly state: BindingState; readonly hash: number }> {
  const hashed = [...bindings].map((state) => ({ state, hash: victimKeyHash(state.key) }));
  return hashed.sort((a, b) => compareRanked(a.state, a.hash, b.state, b.hash));
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
  private ranked: RankedIn | undefined;
  /** Admitted and released since `ranked` was last read, merged into it when next read. */
  private readonly pending = new PendingResidentChanges();
  /** What the residents that may be victims free, kept as they come and go. */
  private readonly victims = new VictimAmountsLedger();

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
   * A binding placed here. `rank` is its rank in `order` when that order stays as it is: the residents
   * by rank are then updated rather than looked up again, key by key, when next read.
   */
  admit(state: BindingState, replicas: number, rank: number | undefined, order: BindingOrder | undefined): void {
    // A cluster named twice in spec.clusters: the last entry stands, as the residents keep one.
    const held = this.residents.get(state.key);
    if (held !== undefined) this.release(state, held, rank, order);
    accumulate(this.placed, state.request, replicas);
    this.cachedRoom = undefined;
    if (state.mayBeVictim) this.victims.add(state.priority, state.request, replicas);
    this.residents.set(state.key, replicas);
    this.noteRanked(rank, order, (pending) => pending.admitted(rank!, replicas));
  }

  /** A binding no longer placed here; `rank` as for admit. */
  release(state: BindingState, replicas: number, rank: number | undefined, order: BindingOrder | undefined): void {
    accumulate(this.placed, state.request, -replicas);
    this.cachedRoom = undefined;
    if (state.mayBeVictim) this.victims.remove(state.priority, state.request, replicas);
    this.residents.delete(state.key);
    this.noteRanked(rank, order, (pending) => pending.released(rank!));
  }

  /** The residents by their rank in `order`, kept while neither the residents nor the order change. */
  rankedResidents(order: BindingOrder): RankedResidents {
    const held = this.rankedIn(order);
    if (held) return this.merged(held);
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
    this.ranked = { generation: order.generation, ranks, replicas };
    return this.ranked;
  }

  /** What the residents that may be victims free of `resource`, by priority. */
  victimAmounts(resource: string): VictimAmounts {
    return this.victims.amounts(resource);
  }

  /**
   * The residents by rank in `order` as held, the changes pending aside, carried over from the order it
   * was merged from if need be (the changes made first); undefined, and nothing held, when not.
   */
  private rankedIn(order: BindingOrder): RankedIn | undefined {
    if (this.ranked && this.ranked.generation !== order.generation && order.previous?.generation === this.ranked.generation) {
      this.ranked = carriedOver(this.pending.appliedTo(this.ranked), order.generation, order.previous.rankFromPrevious);
    }
    if (this.ranked?.generation === order.generation) return this.ranked;
    this.forgetRanked();
    return undefined;
  }

  /** The residents by rank held, with the changes pending merged into them. */
  private merged(held: RankedIn): RankedIn {
    const current = this.pending.appliedTo(held);
    if (current === held) return held;
    this.ranked = { ...current, generation: held.generation };
    return this.ranked;
  }

  /** Nothing held: the residents by rank are read again when next asked. */
  private forgetRanked(): void {
    this.ranked = undefined;
    this.pending.clear();
  }

  /** A change at `rank` of `order` noted for when the residents by rank are next read, or, when the rank or the residents held are not of it, nothing held (read again then). */
  private noteRanked(rank: number | undefined, order: BindingOrder | undefined, note: (pending: PendingResidentChanges) => void): void {
    if (rank === undefined || !order) {
      this.forgetRanked();
      return;
    }
    const held = this.rankedIn(order);
    if (!held) return;
    note(this.pending);
    // On a cluster whose residents go unread, the changes are merged once they outnumber the residents:
    // what is kept stays in proportion to them.
    if (this.pending.size > held.ranks.length + PENDING_BEYOND_RESIDENTS) this.merged(held);
  }
}

/** Changes noted beyond a cluster's residents before they are merged unread (ClusterRoom.noteRanked). */
const PENDING_BEYOND_RESIDENTS = 64;

/** A cluster's residents by rank in one order (BindingOrder.generation). */
type RankedIn = RankedResidents & { readonly generation: number };

/**
 * Residents by rank in an order carried over to the order merged from it: the ranks it keeps rise with
 * the old ones, so they stay sorted; undefined when a resident's rank did not stand (sorted again then).
 */
function carriedOver(ranked: RankedResidents, generation: number, rankFromPrevious: Int32Array): RankedIn | undefined {
  const ranks = new Int32Array(ranked.ranks.length);
  for (let at = 0; at < ranks.length; at++) {
    const rank = rankFromPrevious[ranked.ranks[at]!]!;
    // A resident the order no longer holds (a binding gone or at another priority releases its
    // residency with no rank, which drops what is held, so not expected): read again.
    if (rank < 0) return undefined;
    ranks[at] = rank;
  }
  return { generation, ranks, replicas: ranked.replicas };
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
  /** Built by priorityOrder() when first asked, then merged with what changed since whenever asked again. */
  private order: BindingOrder | undefined;
  /** What the order does not hold yet: bindings come, gone or at another priority since it was built or merged. */
  private changes: OrderChanges | undefined;
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
      // A plain binding stays off the clusters' residents, as upsert keeps it.
      if (isPlainBinding(state.binding) && !this.isOrdered(state.key)) continue;
      for (const target of state.clusters) if (target.name === name && target.replicas > 0) room.admit(state, target.replicas, undefined, undefined);
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
    if (isPlainBinding(binding) && (!previous || isPlainBinding(previous.binding)) && !this.isOrdered(state.key)) {
      // A plain binding holds no room and is never a victim: it stays out of the priority order (which
      // it would only lengthen) and off the clusters' residents.
      this.bindings.set(state.key, state);
      return;
    }
    // The same binding at the same priority keeps its rank; anything else is placed in the order when next asked.
    const rank = previous?.priority === state.priority ? this.standingRank(state.key) : undefined;
    if (previous) this.forget(previous, rank);
    this.bindings.set(state.key, state);
    for (const target of state.clusters) {
      const cluster = this.rooms.get(target.name);
      if (!cluster || target.replicas === 0) continue;
      cluster.admit(state, target.replicas, rank, this.order);
    }
    if (rank !== undefined) {
      this.order!.replace(rank, state);
    } else if (this.order) {
      const changes = this.orderChanges();
      changes.added.set(state.key, state);
      if (this.order.rank.has(state.key)) changes.removed.add(state.key);
    }
  }

  remove(key: string): void {
    const previous = this.bindings.get(key);
    if (!previous) return;
    this.forget(previous, undefined);
    if (this.order && this.isOrdered(key)) {
      const changes = this.orderChanges();
      changes.added.delete(key);
      if (this.order.rank.has(key)) changes.removed.add(key);
    }
  }

  /**
   * Every binding by priority, then key hash, then key (victim-tie-order.ts steps through each priority's ranks), with each
   * key's rank, so that preemption orders its candidates by number rather than comparing keys. Built
   * once; the bindings added, removed or at another priority since are merged into it when next asked.
   */
  priorityOrder(): PriorityOrder {
    return this.currentOrder();
  }

  private currentOrder(): BindingOrder {
    if (!this.order) this.order = BindingOrder.of([...this.bindings.values()].filter((state) => !isPlainBinding(state.binding)));
    else if (this.changes) this.order = this.order.merged(this.changes);
    this.changes = undefined;
    return this.order;
  }

  /** Whether the binding is in the priority order, or will be when it is next asked. */
  private isOrdered(key: string): boolean {
    return this.changes?.added.has(key) || (this.order?.rank.has(key) === true && !this.changes?.removed.has(key));
  }

  /** The binding's rank in the order as built, if it still stands there. */
  private standingRank(key: string): number | undefined {
    return this.changes?.removed.has(key) || this.changes?.added.has(key) ? undefined : this.order?.rank.get(key);
  }

  private orderChanges(): OrderChanges {
    this.changes ??= { added: new Map(), removed: new Set() };
    return this.changes;
  }

  /** A cluster's residents by rank in priorityOrder(); preemption reads them for every decision. */
  rankedResidents(cluster: ClusterState): RankedResidents {
    const room = this.rooms.get(cluster.name);
    if (room !== cluster) throw new Error(`cluster ${cluster.name} is not part of this snapshot`);
    return room.rankedResidents(this.currentOrder());
  }

  /** A cluster's residents that may be victims, what they free of `resource` by priority (victim-amounts.ts). */
  victimAmounts(cluster: ClusterState, resource: string): VictimAmounts {
    const room = this.rooms.get(cluster.name);
    if (room !== cluster) throw new Error(`cluster ${cluster.name} is not part of this snapshot`);
    return room.victimAmounts(resource);
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
      const held = cluster?.residents.get(previous.key);
      if (!cluster || held === undefined) continue;
      cluster.release(previous, held, rank, this.order);
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
