import { amountOf, type ResourceList } from '../../resources';
import type { BindingState, ClusterState, PriorityOrder, SchedulingSnapshot } from '../snapshot';
import { firstAbove, firstAtOrAbove } from '../rank-search';
import { layUsage, PlacementOracle } from './placement-oracle';
import type { PreemptionPlan } from './plan-preemption';
import type { Requirement } from '../replica-strategy';
import { candidatePlacements } from './preemption-candidates';
import { withoutDominated } from './dominated-candidates';
import { selectVictimsInStages } from './staged-victim-search';
import { selectVictims } from './victim-search';
import { placeOf, preemptorStart, tieRun, type TieRun } from './victim-tie-order';
import { exactIntegers, fewestReaching, keepAmount, KEPT_AMOUNTS, lowestEnoughWith, type VictimAmounts } from './victim-amounts';


/**
 * Preemption for a requirement met on one cluster: `need` replicas on any one of the clusters. That is
 * one replica more, anywhere (an Aggregated or dynamically divided binding of one replica, or one that
 * keeps all but one), or the share of the one cluster short of it (a per-cluster requirement whose
 * other clusters hold theirs already: plan-preemption.ts passes that cluster alone). Some cluster must
 * hold them, and evicting a binding elsewhere adds nothing there; so a feasible set's victims on that
 * cluster are feasible alone, and the best set (binding priority and preemption
 * (000), "Preemption order": fewest victims, then the lower highest priority, the lower sum, the less
 * important most important victim) lies within one cluster. It is the best of each cluster's best, each
 * found among that cluster's residents alone, in the same order (priority, then the preemptor's own
 * order among equals, victim-tie-order.ts) as among all of them: the same answer as one search over
 * every cluster's candidates, wherever that one is proven, at the cost of one cluster's residents.
 *
 * Steps:
 * 1. A single victim: each cluster's residents from the lowest priority at which one of them might be
 *    enough alone (the largest amount of each resource the snapshot keeps per priority, victim-amounts.ts)
 *    up to that of the best single victim found so far, the first candidate enough alone on its cluster
 *    winning (one victim beats any set of more, and single victims compare by priority, then order).
 * 2. Otherwise, per cluster, a lower bound on the victims a feasible set there has, at each priority
 *    (from the largest amounts of that priority or lower, kept by the snapshot); clusters in order of that
 *    bound, each searched unless its bound shows it cannot beat the best set found so far (more victims,
 *    or as many whose highest priority is above that set's): the first by the staged search
 *    (staged-victim-search.ts), the others for sets no worse than the best so far only
 *    (VictimSearchOptions.within), so that a cluster that cannot beat it costs little. Each search
 *    leaves out the cluster's candidates that no best set holds (dominated-candidates.ts).
 *
 * Each cluster's search gets what the clusters searched before it left of `searchBudget` (counted as the
 * oracle's questions; the first cluster's staged search may spend its stages' and levels' own budgets
 * beyond it, as a single staged search does). Once it is spent no further cluster is searched, the best set found is used
 * and the plan says it is not exact, as for a single search.
 */
export function planOnOneCluster(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  snapshot: SchedulingSnapshot,
  searchBudget: number,
  room: (cluster: ClusterState) => ResourceList,
  need = 1,
): PreemptionPlan | null {
  const problem = new OneClusterProblem(preemptor, clusters, snapshot, room, need);
  if (problem.holdsAlready()) return null;
  const single = problem.bestSingleVictim();
  if (single) return { victims: [single], exact: true };
  return problem.bestSeveral(searchBudget);
}

/** A cluster's search: its best set (none when no set there is enough), whether proven, and the oracle's questions. */
interface ClusterSearch {
  readonly set: RankedSet | undefined;
  readonly exact: boolean;
  readonly questions: number;
}

/** Where a victim set stands among others: the key, then its victims, most important first, as (priority, place). */
interface RankedSet {
  readonly victims: readonly BindingState[];
  readonly count: number;
  readonly max: number;
  readonly sum: number;
  /** Most important first: priority, then place in the preemptor's order of that priority. */
  readonly importance: readonly (readonly [number, number])[];
}

/** A cluster's lower bounds: at each priority where it falls, the fewest victims of that priority or lower that could be enough. */
interface ClusterBound {
  readonly cluster: number;
  readonly priorities: number[];
  readonly fewest: number[];
  /** The lowest priority of its candidates (or lower). */
  readonly lowestPriority: number;
  /** Whether the bounds are sound (integer amounts with exact sums); when not, they rule nothing out. */
  readonly sound: boolean;
}

/** Above any index among a cluster's residents of one priority: place × PLACE_KEY + index is one number, exact below 2^53 for places below 2^32. */
const PLACE_KEY = 2 ** 21;

class OneClusterProblem {
  private readonly amounts: number[];
  private readonly slots: number;
  /** [cluster × slots + slot]: free room before any eviction. */
  private readonly free: Float64Array;
  private readonly order: PriorityOrder;
  private readonly columns: Float64Array[];
  private readonly below: number;
  private readonly own: number;
  private readonly seed: number;
  private readonly runs = new Map<number, TieRun>();
  private readonly resources: string[];
  /** [cluster × slots + slot]: what evictions must free of the resource for the cluster to hold `need` replicas. */
  private readonly gaps: Float64Array;
  /** Every request and room is an integer small enough that the bounds' sums are exact. */
  private readonly integral: boolean;
  /** workOutFirstPlaceEnough's largest amounts, [slot × KEPT_AMOUNTS + m]. */
  private readonly tieKept: Float64Array;
  /** workOutFirstPlaceEnough's residents, as place × PLACE_KEY + index, kept between its calls. */
  private placeKeys = new Float64Array(64);
  /** firstPlaceEnough's answers, by cluster, count and priority. */
  private readonly placesEnough = new Map<string, number>();

  constructor(
    private readonly preemptor: BindingState,
    private readonly clusters: readonly ClusterState[],
    private readonly snapshot: SchedulingSnapshot,
    private readonly room: (cluster: ClusterState) => ResourceList,
    private readonly need: number,
  ) {
    const resources = Object.keys(preemptor.request).filter((resource) => preemptor.request[resource]! > 0);
    this.resources = resources;
    this.amounts = resources.map((resource) => preemptor.request[resource]!);
    this.slots = resources.length;
    this.free = new Float64Array(clusters.length * this.slots);
    this.gaps = new Float64Array(clusters.length * this.slots);
    clusters.forEach((cluster, at) => {
      const list = room(cluster);
      for (let slot = 0; slot < this.slots; slot++) {
        this.free[at * this.slots + slot] = amountOf(list, resources[slot]!);
        this.gaps[at * this.slots + slot] = Math.max(0, need * this.amounts[slot]! - this.free[at * this.slots + slot]!);
      }
    });
    this.integral = exactIntegers(this.amounts) && exactIntegers(this.gaps);
    this.tieKept = new Float64Array(this.slots * KEPT_AMOUNTS);
    this.order = snapshot.priorityOrder();
    this.columns = resources.map((resource) => this.order.requests(resource));
    this.below = firstAtOrAbove(this.order.priorities, preemptor.priority);
    this.own = this.order.rank.get(preemptor.key) ?? -1;
    this.seed = preemptorStart(preemptor.key);
  }

  /** Some cluster holds what is needed with nobody evicted: there is nothing to preempt. */
  holdsAlready(): boolean {
    return this.clusters.some((_, at) => this.holdsWith(at, -1, 0));
  }

  /** The best single victim, or undefined when none is enough alone. */
  bestSingleVictim(): BindingState | undefined {
    const { priorities } = this.order;
    let best = -1;
    let bestPriority = Number.POSITIVE_INFINITY;
    let bestPlace = 0;
    for (let at = 0; at < this.clusters.length; at++) {
      const lowest = this.lowestEnoughAlone(at);
      if (lowest > bestPriority) continue;
      const { ranks, replicas } = this.snapshot.rankedResidents(this.clusters[at]!);
      for (let i = this.firstOfPriority(ranks, lowest); i < ranks.length; i++) {
        const rank = ranks[i]!;
        if (rank >= this.below || priorities[rank]! > bestPriority) break;
        if (!this.isCandidate(rank) || !this.holdsWith(at, rank, replicas[i]!)) continue;
        const place = this.placeOf(rank);
        if (priorities[rank]! < bestPriority || place < bestPlace) {
          best = rank;
          bestPriority = priorities[rank]!;
          bestPlace = place;
        }
      }
    }
    return best < 0 ? undefined : this.order.states[best];
  }

  /** Step 2: the best set of several victims over the clusters, or null when no cluster has one. */
  bestSeveral(searchBudget: number): PreemptionPlan | null {
    const bounds = this.clusters.map((_, at) => this.boundOn(at)).filter((bound) => lowest(bound) < Number.POSITIVE_INFINITY);
    bounds.sort((a, b) => compareNumbers(lowest(a), lowest(b)) || compareNumbers(fewestAt(a, lowest(a)), fewestAt(b, lowest(b))) || a.cluster - b.cluster);
    this.earliestFirst(bounds);
    let best: RankedSet | undefined;
    let exact = true;
    let left = searchBudget;
    for (const bound of bounds) {
      if (best && !mayBeat(bound, best)) break;
      if (best && bound.sound && !this.mayTie(bound, best)) continue;
      // Until a set is found each cluster is searched whatever is left, as a single search runs its greedy
      // on any budget, none below 0 (a first cluster's staged search may spend beyond what it was given).
      if (best && left <= 0) {
        exact = false;
        break;
      }
      const found = this.searchOn(bound, Math.max(0, left), best);
      left -= found.questions;
      if (!found.exact) exact = false;
      if (found.set && (!best || compareSets(found.set, best) < 0)) best = found.set;
    }
    return best ? { victims: best.victims, exact } : null;
  }

  /**
   * The clusters whose bounds tie with the first's, in the order of the first place their most important
   * victim might have (firstPlaceEnough): the best set is most often on the one where it is earliest, and
   * a best set found first leaves the others nothing to tie with, unread.
   */
  private earliestFirst(bounds: ClusterBound[]): void {
    const [first] = bounds;
    if (!first?.sound) return;
    const count = lowest(first);
    const priority = fewestAt(first, count);
    let tied = 1;
    while (tied < bounds.length && bounds[tied]!.sound && lowest(bounds[tied]!) === count && fewestAt(bounds[tied]!, count) === priority) tied++;
    if (tied === 1) return;
    const earliest = new Map(bounds.slice(0, tied).map((bound) => [bound, this.firstPlaceEnough(bound.cluster, count, priority)]));
    const ordered = bounds.slice(0, tied).sort((a, b) => compareNumbers(earliest.get(a)!, earliest.get(b)!) || a.cluster - b.cluster);
    bounds.splice(0, tied, ...ordered);
  }

  /**
   * The best set on one cluster, by the victim search over its candidates alone; once a set is found on
   * another, only sets no worse than it are looked for.
   */
  private searchOn(bound: ClusterBound, budget: number, best: RankedSet | undefined): ClusterSearch {
    if (!best && bound.sound) {
      // The fewest victims the bound allows are found, if at all, among the candidates up to the lowest
      // priority at which they might be enough: such a set is this cluster's best, since any other of
      // as many victims with one above that priority has a higher highest priority. Only the residents
      // up to it are laid out then.
      const fewest = lowest(bound);
      const within = fewestAt(bound, fewest);
      if (this.holdsAbove(bound.cluster, within)) {
        const capped = this.searchUpTo(bound, budget, undefined, within);
        if (capped.exact && capped.set?.count === fewest) return capped;
        // The capped search may have spent the whole budget: the one over every candidate then runs
        // its greedy alone, as a search with none left does.
        const all = this.searchUpTo(bound, Math.max(0, budget - capped.questions), undefined, Number.POSITIVE_INFINITY);
        const questions = capped.questions + all.questions;
        // Unproven, the search over every candidate may have found a worse set than the capped one.
        if (!all.exact && capped.set && (!all.set || compareSets(capped.set, all.set) < 0)) return { set: capped.set, exact: false, questions };
        return { ...all, questions };
      }
    }
    // A set of as many victims as the best so far and no worse has no victim above its highest
    // priority; one of fewer victims may have (when the bound allows fewer here).
    return this.searchUpTo(bound, budget, best, best && lowest(bound) >= best.count ? best.max : Number.POSITIVE_INFINITY);
  }

  /** Whether cluster `at` holds residents that may be victims above `priority` and below the preemptor's. */
  private holdsAbove(at: number, priority: number): boolean {
    const { priorities } = this.victimAmounts(at)[0]!;
    const above = firstAbove(priorities, priority);
    return above < priorities.length && priorities[above]! < this.preemptor.priority;
  }

  /** The best set on one cluster among its candidates up to priority `highest`, as searchOn. */
  private searchUpTo(bound: ClusterBound, budget: number, best: RankedSet | undefined, highest: number): ClusterSearch {
    const cluster = [this.clusters[bound.cluster]!];
    const at = bound.cluster;
    const all = candidatePlacements(cluster, this.snapshot, this.preemptor, highest);
    // Those in no best set are left out: the search proves its answer among the others.
    const usage = this.integral ? layUsage(all, this.resources, this.amounts, this.free.subarray(at * this.slots, (at + 1) * this.slots)) : undefined;
    const placements = usage?.small ? withoutDominated(all, this.gaps.subarray(at * this.slots, (at + 1) * this.slots), usage.usage) : all;
    // Several replicas on the one cluster: as a share of it, whose bounds (fewest-victims.ts) close its gaps.
    const requirement: Requirement = this.need === 1 ? { type: 'pooled', replicas: 1 } : { type: 'per-cluster', need: new Map([[cluster[0]!.name, this.need]]) };
    const oracle = new PlacementOracle(this.preemptor, cluster, placements, this.snapshot, requirement, this.room);
    const selection = best
      ? selectVictims(placements.candidates, oracle, {
          searchBudget: budget,
          inSearchOrder: true,
          within: {
            count: best.count,
            maxPriority: best.max,
            sumPriority: best.sum,
            lastMostImportant: this.lastBefore(placements.ranks, best.importance[0]!),
            fewest: lowest(bound),
          },
        })
      : selectVictimsInStages(placements.candidates, oracle, { searchBudget: budget });
    const exact = selection?.exact ?? true;
    if (!selection || selection.victims.length === 0) return { set: undefined, exact, questions: oracle.questions };
    const victims = selection.victims.map((index) => placements.candidates[index]!);
    const importance = selection.victims
      .map((index) => [this.order.priorities[placements.ranks[index]!]!, this.placeOf(placements.ranks[index]!)] as const)
      .sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    const sum = victims.reduce((total, victim) => total + victim.priority, 0);
    return { set: { victims, count: victims.length, max: importance[0]![0], sum, importance }, exact, questions: oracle.questions };
  }

  /**
   * The cluster's count bound at each priority below the preemptor's: the fewest amounts of that
   * priority or lower that close every gap, from the largest the snapshot keeps (victim-amounts.ts).
   * Sound for integer amounts whose sums stay exact; otherwise 2 at the lowest priority, which rules
   * nothing out.
   */
  private boundOn(at: number): ClusterBound {
    const held = this.victimAmounts(at);
    const { priorities } = held[0]!;
    const levels = { priorities: [] as number[], fewest: [] as number[] };
    for (let level = 0; level < priorities.length && priorities[level]! < this.preemptor.priority; level++) {
      let fewest = 0;
      for (let slot = 0; slot < this.slots; slot++) {
        fewest = Math.max(fewest, fewestReaching(held[slot]!.largest, level * KEPT_AMOUNTS, this.gaps[at * this.slots + slot]!));
      }
      if (fewest < (levels.fewest[levels.fewest.length - 1] ?? Number.POSITIVE_INFINITY)) {
        levels.priorities.push(priorities[level]!);
        levels.fewest.push(fewest);
      }
    }
    const lowestPriority = priorities[0] ?? Number.POSITIVE_INFINITY;
    const sound = this.integral && held.every((amounts) => amounts.exact);
    if (sound) return { cluster: at, ...levels, lowestPriority, sound };
    const any = lowestPriority < this.preemptor.priority;
    return { cluster: at, priorities: [Number.NEGATIVE_INFINITY], fewest: [any ? 2 : Number.POSITIVE_INFINITY], lowestPriority, sound };
  }

  /** The lowest priority at which a candidate on the cluster might be enough alone (lowestEnoughWith). */
  private lowestEnoughAlone(at: number): number {
    return lowestEnoughWith(this.victimAmounts(at), this.gaps, at * this.slots, this.integral, 1);
  }

  /** Per requested resource: what the cluster's residents that may be victims free, by priority (the same priorities for each). */
  private victimAmounts(at: number): VictimAmounts[] {
    return this.resources.map((resource) => this.snapshot.victimAmounts(this.clusters[at]!, resource));
  }

  /** The first index of `ranks` (ascending) whose priority is `priority` or higher: ranks rise with priority. */
  private firstOfPriority(ranks: Int32Array, priority: number): number {
    return firstAtOrAbove(ranks, firstAtOrAbove(this.order.priorities, priority));
  }

  /**
   * Whether the bound's cluster may hold a set of `best`'s key that comes before it, when no set there can
   * have a lower key: such a set's victims are all met no later than `best`'s most important one, so
   * their largest amounts (those of lower priority, as the snapshot keeps them, and those of that
   * priority met no later) must close the gaps.
   */
  private mayTie(bound: ClusterBound, best: RankedSet): boolean {
    const lowerSumPossible = best.sum > best.max + (best.count - 1) * bound.lowestPriority;
    if (lowest(bound) < best.count || fewestAt(bound, best.count) < best.max || lowerSumPossible) return true;
    const [priority, place] = best.importance[0]!;
    return this.firstPlaceEnough(bound.cluster, best.count, priority) <= place;
  }

  /**
   * The first place, in the preemptor's order of `priority`, such that `count` victims among the
   * cluster's candidates below that priority and those of it met no later might close its gaps, by the
   * largest amounts (+∞ when not even with all of them; −∞ when those below might alone, or when the
   * cluster holds too many to tell): no set of `count` victims there whose most important is of that
   * priority has it earlier. Kept per cluster, count and priority for the decision.
   */
  private firstPlaceEnough(at: number, count: number, priority: number): number {
    const key = `${at}/${count}/${priority}`;
    let place = this.placesEnough.get(key);
    if (place === undefined) {
      place = this.workOutFirstPlaceEnough(at, count, priority);
      this.placesEnough.set(key, place);
    }
    return place;
  }

  private workOutFirstPlaceEnough(at: number, count: number, priority: number): number {
    const held = this.victimAmounts(at);
    const below = firstAtOrAbove(held[0]!.priorities, priority) - 1;
    const kept = this.tieKept.fill(0);
    if (below >= 0) for (let slot = 0; slot < this.slots; slot++) kept.set(held[slot]!.largest.subarray(below * KEPT_AMOUNTS, (below + 1) * KEPT_AMOUNTS), slot * KEPT_AMOUNTS);
    if (this.closesGaps(at, kept, count)) return Number.NEGATIVE_INFINITY;
    // Whether `count` victims may be enough depends on the `count` largest amounts kept alone (all that
    // are kept, past KEPT_AMOUNTS): a resident freeing no more than the last of those of every resource
    // before the priority's changes nothing, and is passed over before its place is worked out.
    const deciding = Math.min(count, KEPT_AMOUNTS) - 1;
    const { priorities } = this.order;
    const { ranks, replicas } = this.snapshot.rankedResidents(this.clusters[at]!);
    // place × PLACE_KEY + index from `from`: sorted as numbers, in place order. A cluster holding more
    // residents than the key can index is left to the search (it may tie).
    const from = this.firstOfPriority(ranks, priority);
    if (ranks.length - from >= PLACE_KEY) return Number.NEGATIVE_INFINITY;
    if (this.placeKeys.length < ranks.length - from) this.placeKeys = new Float64Array(2 * (ranks.length - from));
    const keys = this.placeKeys;
    let listed = 0;
    let run: TieRun | undefined;
    for (let i = from; i < ranks.length && priorities[ranks[i]!] === priority && ranks[i]! < this.below; i++) {
      const rank = ranks[i]!;
      let changes = false;
      for (let slot = 0; slot < this.slots && !changes; slot++) changes = this.columns[slot]![rank]! * replicas[i]! > kept[slot * KEPT_AMOUNTS + deciding]!;
      if (!changes || !this.isCandidate(rank)) continue;
      run ??= this.tieRunOf(rank);
      keys[listed++] = placeOf(run, rank) * PLACE_KEY + (i - from);
    }
    const inOrder = keys.subarray(0, listed).sort();
    for (let next = 0; next < listed; next++) {
      const key = inOrder[next]!;
      const i = from + (key % PLACE_KEY);
      for (let slot = 0; slot < this.slots; slot++) keepAmount(kept, slot * KEPT_AMOUNTS, this.columns[slot]![ranks[i]!]! * replicas[i]!);
      if (this.closesGaps(at, kept, count)) return Math.floor(key / PLACE_KEY);
    }
    return Number.POSITIVE_INFINITY;
  }

  /** Whether `count` victims might close every gap of cluster `at`, by the largest amounts in `kept` ([slot × KEPT_AMOUNTS + m]). */
  private closesGaps(at: number, kept: Float64Array, count: number): boolean {
    for (let slot = 0; slot < this.slots; slot++) if (fewestReaching(kept, slot * KEPT_AMOUNTS, this.gaps[at * this.slots + slot]!) > count) return false;
    return true;
  }

  /** The last of `ranks` (in search order) that the preemptor meets no later than (priority, place): −1 when none. */
  private lastBefore(ranks: Int32Array, [priority, place]: readonly [number, number]): number {
    const { priorities } = this.order;
    let low = 0;
    let high = ranks.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const at = priorities[ranks[mid]!]!;
      if (at < priority || (at === priority && this.placeOf(ranks[mid]!) <= place)) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  private isCandidate(rank: number): boolean {
    return this.order.mayBeVictim[rank] === 1 && rank !== this.own;
  }

  /**
   * Whether cluster `at` holds `need` replicas with binding `rank` (−1: none) evicted from `replicas`
   * there: ⌊(room + freed) / request⌋ ≥ need for every requested resource, as the oracle counts it.
   */
  private holdsWith(at: number, rank: number, replicas: number): boolean {
    for (let slot = 0; slot < this.slots; slot++) {
      const amount = this.amounts[slot]!;
      const freed = rank < 0 ? 0 : this.columns[slot]![rank]! * replicas;
      const available = Math.max(this.free[at * this.slots + slot]! + freed, 0);
      if ((available - (available % amount)) / amount < this.need) return false;
    }
    return true;
  }

  /** Where the preemptor meets binding `rank` among those of its priority. */
  private placeOf(rank: number): number {
    return placeOf(this.tieRunOf(rank), rank);
  }

  /** The preemptor's order among the bindings of the priority of `rank`. */
  private tieRunOf(rank: number): TieRun {
    const priority = this.order.priorities[rank]!;
    let run = this.runs.get(priority);
    if (!run) {
      run = tieRun(this.order, rank, this.seed);
      this.runs.set(priority, run);
    }
    return run;
  }
}

/** The fewest victims any feasible set on the cluster has. */
function lowest(bound: ClusterBound): number {
  return bound.fewest[bound.fewest.length - 1] ?? Number.POSITIVE_INFINITY;
}

/** The lowest priority at which `count` victims might be enough on the cluster (+∞ when at none). */
function fewestAt(bound: ClusterBound, count: number): number {
  for (let level = 0; level < bound.fewest.length; level++) if (bound.fewest[level]! <= count) return bound.priorities[level]!;
  return Number.POSITIVE_INFINITY;
}

/** Whether a set on the bound's cluster can come before `best`: fewer victims, or as many whose highest priority is no higher. */
function mayBeat(bound: ClusterBound, best: RankedSet): boolean {
  return lowest(bound) < best.count || fewestAt(bound, best.count) <= best.max;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareSets(a: RankedSet, b: RankedSet): number {
  if (a.count !== b.count) return a.count - b.count;
  if (a.max !== b.max) return a.max - b.max;
  if (a.sum !== b.sum) return a.sum - b.sum;
  for (let i = 0; i < a.importance.length; i++) {
    const [priority, place] = a.importance[i]!;
    const [otherPriority, otherPlace] = b.importance[i]!;
    if (priority !== otherPriority) return priority - otherPriority;
    if (place !== otherPlace) return place - otherPlace;
  }
  return 0;
}
