/**
 * Victim search for binding preemption.
 *
 * Rule (spec binding priority and preemption (000), "Preemption order"): the scheduler minimises the
 * number of preempted bindings, even if that means preempting a higher-priority binding
 * while lower-priority ones keep running. Ties go to the lower highest victim priority,
 * then to the lower sum of victim priorities. Remaining ties, so that the answer is
 * deterministic, compare the victims most important first (priority, then key, then index;
 * or, for candidates listed in search order, priority, then their place in the list) and go
 * to the set whose first differing victim is the less important: the order in which the
 * exact search meets the sets, so that ties cost it nothing to settle.
 *
 * The module knows nothing about Kubernetes objects: the caller describes candidates by
 * key and priority and answers feasibility questions through an incremental oracle.
 */

export interface VictimCandidate {
  readonly key: string;
  readonly priority: number;
}

/** Incremental feasibility oracle: the caller owns the capacity bookkeeping. */
export interface FeasibilityOracle {
  /** Pretend candidate[index] is removed (its resources freed). */
  evict(index: number): void;
  /** Undo evict. */
  restore(index: number): void;
  /** Would the preemptor fit given the currently evicted set? Must be monotone in that set. */
  feasible(): boolean;
  /**
   * Optional: every feasible set made of `evicted` and candidates with indexes below `below` has
   * at least this many candidates besides `evicted` (whatever is evicted in the oracle now). The
   * exact search skips the branches it rules out; it restricts `below` only when the candidates
   * are in search order (VictimSearchOptions.inSearchOrder), where indexes are positions.
   */
  lowerBound?(evicted: readonly number[], below: number): number;
  /**
   * Optional: the candidates with indexes below `below`, ascending, that might make `evicted`
   * feasible by themselves alone (no other one does). The search looks for a single victim
   * among the completions of nothing before anything else, and, when indexes are positions,
   * checks only completions as the last victim of a set.
   */
  completions?(evicted: readonly number[], below: number): ArrayLike<number>;
  /**
   * Optional, for candidates listed in search order (indexes are positions): would the preemptor fit
   * with the candidates evicted now and, besides them, the first `count` (none of which is evicted
   * now)? The exact search then asks about its optimistic completions without evicting them one by one,
   * so that a question costs the same however many candidates there are.
   */
  feasibleWithFirst?(count: number): boolean;
  /**
   * Optional, for candidates listed in search order (indexes are positions): earlier candidates known
   * to dominate candidate `index`, ascending: any of them in its place keeps a feasible set feasible
   * (it frees at least as much of whatever the requirement needs). A set holding `index` but not one of
   * them is beaten by that swap (as many victims, no higher priority or sum, an earlier victim), so the
   * exact search leaves such sets out. Null when more than DOMINATORS_LISTED are known; an empty list
   * when none are (always sound).
   */
  dominators?(index: number): ArrayLike<number> | null;
}

/** FeasibilityOracle.dominators lists at most this many. */
export const DOMINATORS_LISTED = 16;

export interface VictimSelection {
  /** Candidate indexes, sorted ascending. */
  readonly victims: number[];
  /** True when the search proved optimality. */
  readonly exact: boolean;
}

export interface VictimSearchOptions {
  /**
   * Bound on the total number of oracle questions: feasible(), feasibleWithFirst(), lowerBound() and completions()
   * calls. The greedy upper bound's n + 1 calls always run (and count); the exact search
   * stops when the budget is spent.
   */
  readonly searchBudget?: number;
  /**
   * The candidates are listed by priority already, and their order among equal priorities is the
   * tie order (the scheduler's is the preemptor's own, victim-tie-order.ts); the search then takes
   * their order as it is instead of sorting them by priority, then key (compareVictimCandidates).
   * Not checked, nor are the priorities checked to be finite (as they are when sorting): the
   * scheduler's come from a sorted priority order, and reading thousands of candidates would cost
   * more than the search.
   */
  readonly inSearchOrder?: boolean;
  /**
   * Only sets of exactly this many victims (at least 1), for a caller that knows no feasible set has
   * fewer: the best of them, exact when the search completed (no greedy, no exchange step, no smaller
   * set proven infeasible); null when no set of that many is feasible; nothing and exact false when
   * the budget ran out before one was found.
   */
  readonly onlyCount?: number;
  /**
   * The key of a set found elsewhere (another cluster's best, one-cluster-search.ts): only sets whose key
   * is no greater are looked for, and the answer is the best of them (one of equal key included, for the
   * caller's tie-break), or null when there is none. No greedy and no exchange step: the levels below its
   * count, then its count, with every branch whose key would pass it left out. When the budget runs out
   * first: the best found so far, or nothing, and exact false. With it, onlyCount is not read.
   */
  readonly within?: VictimWithin;
}

/** VictimSearchOptions.within: a key, and how far a set of that very key may reach. */
export interface VictimWithin extends VictimKey {
  /**
   * Candidates in search order only: the last position a set of equal key may have as its most
   * important victim (the other set's most important victim, or the last candidate before it), so
   * that sets of equal key the other set precedes are left out as well.
   */
  readonly lastMostImportant?: number;
  /** No feasible set has fewer victims than this (the levels below it are not searched). */
  readonly fewest?: number;
}

export interface VictimKey {
  readonly count: number;
  /** -Infinity for an empty selection. */
  readonly maxPriority: number;
  readonly sumPriority: number;
}

export const DEFAULT_SEARCH_BUDGET = 20_000;
const BRUTE_FORCE_LIMIT = 20;

export function victimKey(candidates: readonly VictimCandidate[], victims: readonly number[]): VictimKey {
  let maxPriority = Number.NEGATIVE_INFINITY;
  let sumPriority = 0;
  for (const index of victims) {
    const { priority } = candidateAt(candidates, index);
    if (priority > maxPriority) maxPriority = priority;
    sumPriority += priority;
  }
  return { count: victims.length, maxPriority, sumPriority };
}

/** Negative when `a` is the better (preferred) selection, per binding priority and preemption (000). */
export function compareVictimKeys(a: VictimKey, b: VictimKey): number {
  return (
    compareNumbers(a.count, b.count) ||
    compareNumbers(a.maxPriority, b.maxPriority) ||
    compareNumbers(a.sumPriority, b.sumPriority)
  );
}

/**
 * Step 1 alone: the Kubernetes-style reprieve greedy (default preemption's
 * selectVictimsOnNode). Evict everything, then give each candidate back, most important
 * first, keeping every reprieve that stays feasible. The result is inclusion-minimal.
 */
export function greedyReprieveVictims(
  candidates: readonly VictimCandidate[],
  oracle: FeasibilityOracle,
): number[] | null {
  const tracked = new TrackedOracle(oracle, candidates.length, Number.POSITIVE_INFINITY);
  try {
    return runGreedy(searchOrder(candidates, false), tracked);
  } finally {
    tracked.restoreAll();
  }
}

/**
 * The minimum-key victim set: a single victim when one is enough (with an oracle that lists
 * completions), otherwise greedy reprieve for an upper bound, an exchange step that lowers it,
 * then an exact branch-and-bound search, all within `searchBudget` oracle calls. The
 * result is never worse than the greedy; `exact` is false when the budget ran out first.
 * The oracle is left with nothing evicted.
 */
export function selectVictims(
  candidates: readonly VictimCandidate[],
  oracle: FeasibilityOracle,
  options?: VictimSearchOptions,
): VictimSelection | null {
  const budget = options?.searchBudget ?? DEFAULT_SEARCH_BUDGET;
  if (!(budget >= 0)) throw new RangeError(`searchBudget must be >= 0, got ${budget}`);
  const sorted = options?.inSearchOrder ?? false;
  const order = searchOrder(candidates, sorted);
  const tracked = new TrackedOracle(oracle, candidates.length, budget);
  try {
    // The greedy's n + 1 calls always run: the scan for a single victim leaves them to it.
    const within = options?.within;
    if (within !== undefined) return searchWithin(candidates, order, tracked, within, sorted);
    const onlyCount = options?.onlyCount;
    if (onlyCount !== undefined && !(onlyCount === 1 && tracked.hasCompletions)) return searchCount(candidates, order, tracked, onlyCount, sorted);
    const single = singleVictim(candidates, tracked, budget - order.length - 1, sorted);
    if (single.victims) return { victims: single.victims, exact: true };
    if (onlyCount === 1) return single.settled ? null : searchCount(candidates, order, tracked, onlyCount, sorted);
    const greedy = runGreedy(order, tracked);
    if (greedy === null) return null;
    if (greedy.length === 0) return { victims: [], exact: true };
    const search = new ExactSearch(candidates, order, tracked, greedy, single.settled ? 2 : 1, sorted);
    const exact = search.run();
    return { victims: search.bestVictims, exact };
  } finally {
    tracked.restoreAll();
  }
}

/** VictimSearchOptions.onlyCount: the search of one level, from every candidate evicted. */
function searchCount(candidates: readonly VictimCandidate[], order: Int32Array, tracked: TrackedOracle, count: number, sorted: boolean): VictimSelection | null {
  if (!(count >= 1)) throw new RangeError(`onlyCount must be >= 1, got ${count}`);
  if (count > order.length) return null;
  tracked.evictAll();
  if (!tracked.feasible()) return null;
  const everyone = Array.from(order).sort(compareNumbers);
  // The search starts from every candidate evicted, and a level finds only sets better than its start.
  if (count === order.length) return { victims: everyone, exact: true };
  const search = new ExactSearch(candidates, order, tracked, everyone, 1, sorted);
  const found = search.runLevel(count);
  if (found === undefined) return { victims: [], exact: false };
  return found ? { victims: search.bestVictims, exact: true } : null;
}

/** VictimSearchOptions.within: the exact search from a key found elsewhere instead of the greedy's set. */
function searchWithin(candidates: readonly VictimCandidate[], order: Int32Array, tracked: TrackedOracle, key: VictimWithin, sorted: boolean): VictimSelection | null {
  if (!(key.count >= 1)) throw new RangeError(`within.count must be >= 1, got ${key.count}`);
  tracked.evictAll();
  if (!tracked.feasible()) return null;
  const search = new ExactSearch(candidates, order, tracked, key, Math.max(1, key.fewest ?? 1), sorted);
  const exact = search.run();
  if (search.bestVictims.length > 0) return { victims: search.bestVictims, exact };
  return exact ? null : { victims: [], exact: false };
}

/** Enumerates every subset (Gray-code order). For tests and benchmarks only. */
export function bruteForceVictims(
  candidates: readonly VictimCandidate[],
  oracle: FeasibilityOracle,
): number[] | null {
  const n = candidates.length;
  if (n > BRUTE_FORCE_LIMIT) {
    throw new RangeError(`bruteForceVictims enumerates 2^n subsets; refusing n = ${n} > ${BRUTE_FORCE_LIMIT}`);
  }
  const tracked = new TrackedOracle(oracle, n, Number.POSITIVE_INFINITY);
  try {
    if (tracked.feasible()) return [];
    let best: number[] | null = null;
    let mask = 0;
    let count = 0;
    for (let step = 1; step < 1 << n; step++) {
      const bit = 31 - Math.clz32(step & -step);
      mask ^= 1 << bit;
      if (mask & (1 << bit)) {
        tracked.evict(bit);
        count++;
      } else {
        tracked.restore(bit);
        count--;
      }
      if ((best !== null && count > best.length) || !tracked.feasible()) continue;
      const victims = bitsOf(mask, n);
      if (best === null || compareVictimSets(candidates, victims, best) < 0) best = victims;
    }
    return best;
  } finally {
    tracked.restoreAll();
  }
}

class BudgetExhausted extends Error {}

/** Counts calls, enforces the budget, and remembers what to restore. */
class TrackedOracle {
  calls = 0;
  readonly hasLowerBound: boolean;
  readonly hasCompletions: boolean;
  readonly hasFeasibleWithFirst: boolean;
  readonly hasDominators: boolean;
  private readonly oracle: FeasibilityOracle;
  private readonly evicted: Uint8Array;
  private readonly budget: number;

  constructor(oracle: FeasibilityOracle, size: number, budget: number) {
    this.oracle = oracle;
    this.evicted = new Uint8Array(size);
    this.budget = budget;
    this.hasLowerBound = oracle.lowerBound !== undefined;
    this.hasCompletions = oracle.completions !== undefined;
    this.hasFeasibleWithFirst = oracle.feasibleWithFirst !== undefined;
    this.hasDominators = oracle.dominators !== undefined;
  }

  /** See FeasibilityOracle.dominators; not a question, not counted. */
  dominators(index: number): ArrayLike<number> | null {
    return this.oracle.dominators!(index);
  }

  evict(index: number): void {
    this.evicted[index] = 1;
    this.oracle.evict(index);
  }

  restore(index: number): void {
    this.evicted[index] = 0;
    this.oracle.restore(index);
  }

  feasible(): boolean {
    this.calls++;
    return this.oracle.feasible();
  }

  budgetedFeasible(): boolean {
    if (this.calls >= this.budget) throw new BudgetExhausted();
    return this.feasible();
  }

  /** See FeasibilityOracle.feasibleWithFirst; only when the oracle has it. */
  budgetedFeasibleWithFirst(count: number): boolean {
    if (this.calls >= this.budget) throw new BudgetExhausted();
    this.calls++;
    return this.oracle.feasibleWithFirst!(count);
  }

  /** Undefined, and not counted, when the oracle cannot tell. */
  budgetedCompletions(evicted: readonly number[], below: number): ArrayLike<number> | undefined {
    if (!this.hasCompletions) return undefined;
    if (this.calls >= this.budget) throw new BudgetExhausted();
    this.calls++;
    return this.oracle.completions!(evicted, below);
  }

  /** 0 without a bound from the oracle; not counted then. */
  budgetedLowerBound(evicted: readonly number[], below: number): number {
    if (!this.hasLowerBound) return 0;
    if (this.calls >= this.budget) throw new BudgetExhausted();
    this.calls++;
    return this.oracle.lowerBound!(evicted, below);
  }

  evictAll(): void {
    for (let index = 0; index < this.evicted.length; index++) {
      if (this.evicted[index] === 0) this.evict(index);
    }
  }

  restoreAll(): void {
    for (let index = 0; index < this.evicted.length; index++) {
      if (this.evicted[index] === 1) this.restore(index);
    }
  }
}

/**
 * Candidate indexes by priority ascending, then key, then index. Both the greedy (walking it
 * backwards) and the exact search rely on this order; see ExactSearch for why.
 */
function searchOrder(candidates: readonly VictimCandidate[], inSearchOrder: boolean): Int32Array {
  const order = new Int32Array(candidates.length);
  for (let index = 0; index < order.length; index++) order[index] = index;
  if (inSearchOrder) return order;
  for (const candidate of candidates) {
    if (!Number.isFinite(candidate.priority)) throw new RangeError(`candidate ${candidate.key} has non-finite priority ${candidate.priority}`);
  }
  return order.sort((a, b) => compareCandidates(candidates, a, b));
}

interface SingleVictimScan {
  /** Nothing, or the one victim that is best; undefined when it takes more or was not settled. */
  readonly victims: number[] | undefined;
  /** No single victim is enough (so the search need not look at sets of one). */
  readonly settled: boolean;
}

/**
 * One victim is the commonest answer, and the cheapest to prove best: among sets of one, the
 * first in search order that is enough. Only the oracle's completions of the empty set are
 * checked; without them the scan is left to the exact search. Stops, unsettled, before making
 * more than `limit` calls.
 */
function singleVictim(
  candidates: readonly VictimCandidate[],
  oracle: TrackedOracle,
  limit: number,
  indexesArePositions: boolean,
): SingleVictimScan {
  const unsettled = { victims: undefined, settled: false };
  if (!oracle.hasCompletions || limit < 2) return unsettled;
  if (oracle.feasible()) return { victims: [], settled: true };
  const completions = oracle.budgetedCompletions([], candidates.length)!;
  const singles = indexesArePositions ? completions : Array.from(completions).sort((a, b) => compareCandidates(candidates, a, b));
  for (let m = 0; m < singles.length; m++) {
    const index = singles[m]!;
    if (oracle.calls + 1 > limit) return unsettled;
    oracle.evict(index);
    const feasible = oracle.feasible();
    oracle.restore(index);
    if (feasible) return { victims: [index], settled: true };
  }
  return { victims: undefined, settled: true };
}

/** Leaves the returned victims evicted in `oracle`. */
function runGreedy(order: Int32Array, oracle: TrackedOracle): number[] | null {
  oracle.evictAll();
  if (!oracle.feasible()) return null;
  const victims: number[] = [];
  // Reprieve the most important first; among equal priorities the larger key is reprieved
  // first, so the greedy also leans toward the less important of tied sets.
  for (let position = order.length - 1; position >= 0; position--) {
    const index = order[position]!;
    oracle.restore(index);
    if (!oracle.feasible()) {
      oracle.evict(index);
      victims.push(index);
    }
  }
  return victims.sort(compareNumbers);
}

/**
 * Branch and bound over victim sets of one size at a time, in sorted-position space
 * (position p holds the p-th candidate of searchOrder).
 *
 * Levels: the greedy, improved by the exchange step, gives count c. By monotonicity any
 * feasible set of size < k extends to a feasible set of size k, so levels are searched
 * downwards from c - 1 until one has no feasible set, which proves the count optimal; this
 * also finds fewer victims early when the budget is short. A level search minimises the
 * rest of the key once it has found a set, and level c itself is searched only to improve
 * the starting set's tie-break.
 *
 * Within a level a set {q1 > q2 > … > qk} is built highest position first, so the root
 * choice q1 fixes the maximum priority; children are tried in ascending order, which meets
 * the sets of a level in the final tie-break's order. Node state invariant: the chosen set
 * S plus every free position below the last choice is evicted (the optimistic completion,
 * known feasible); with an oracle that answers for S plus the first positions at once
 * (FeasibilityOracle.feasibleWithFirst), only S is evicted and the free positions are a
 * count. Pruning:
 * - the oracle's bound: S needs at least lowerBound(S) more victims;
 * - the key: once the best has k victims, a child q can reach at best (k, max, sum(S) +
 *   prio(q) + the r - 1 lowest priorities), r being the victims still to choose, and when
 *   that equals the best key only sets ordered after it by the tie-break if S ∪ {q} already
 *   is; both rise with q, so the admissible children are a prefix;
 * - optimistic completion: S ∪ positions[0..q] is monotone in q, so a binary search finds
 *   the first child whose subtree can contain a feasible set at all;
 * - leaves: among S ∪ {q} the key and the tie-break rise with q, so the first feasible leaf
 *   is the node's best;
 * - dominance (FeasibilityOracle.dominators): a set that leaves out an earlier candidate dominating
 *   one of its victims is beaten by the swap, so a child is taken only when its dominators and those of
 *   S still fit in the victims left to choose, and no child passes over one of them (the leaves
 *   likewise: the first feasible leaf that holds them).
 */
class ExactSearch {
  private readonly candidates: readonly VictimCandidate[];
  private readonly order: Int32Array;
  private readonly positionOf: Int32Array;
  private readonly oracle: TrackedOracle;
  private readonly priorities: Float64Array;
  /** lowestSum[m]: sum of the m lowest priorities. */
  private readonly lowestSum: Float64Array;
  /** Chosen positions, highest (the maximum priority) first. */
  private readonly path: Int32Array;
  /** The chosen candidates' indexes, as the oracle's bound takes them. */
  private readonly chosen: number[] = [];
  /** Free positions [0, prefix) are evicted (with a counted prefix, counted by the oracle instead). */
  private prefix = 0;
  private level = 0;
  private foundAtLevel = false;
  /** No smaller set is enough (sets of one were ruled out before the search). */
  private readonly lowestLevel: number;
  /** Candidate indexes are positions, so the oracle's bound can be told which candidates are left. */
  private readonly indexesArePositions: boolean;
  /** The free prefix is not evicted in the oracle, which answers for it (FeasibilityOracle.feasibleWithFirst). */
  private readonly countedPrefix: boolean;
  /** Sets leaving out a dominator of a victim are skipped (FeasibilityOracle.dominators). */
  private readonly dominance: boolean;
  /** requiredBelow's marks: a position is counted once per node. */
  private readonly requiredMark: Int32Array;
  private requiredStamp = 0;

  bestVictims: number[];
  private bestCount: number;
  private bestMax: number;
  private bestSum: number;
  /** The best set's positions, highest first. */
  private bestPath: Int32Array;
  /** The best key is one found elsewhere (VictimSearchOptions.within), with no set here yet: a set of equal key is taken. */
  private standIn: boolean;
  /** While standing in: the last position a set of equal key may have as its most important victim. */
  private readonly lastMostImportant: number;

  constructor(
    candidates: readonly VictimCandidate[],
    order: Int32Array,
    oracle: TrackedOracle,
    start: number[] | VictimWithin,
    lowestLevel: number,
    indexesArePositions: boolean,
  ) {
    const n = order.length;
    this.lowestLevel = lowestLevel;
    this.indexesArePositions = indexesArePositions;
    this.countedPrefix = indexesArePositions && oracle.hasFeasibleWithFirst;
    this.dominance = indexesArePositions && oracle.hasDominators;
    this.requiredMark = new Int32Array(this.dominance ? order.length : 0);
    this.candidates = candidates;
    this.order = order;
    this.oracle = oracle;
    this.positionOf = new Int32Array(n);
    this.priorities = new Float64Array(n);
    this.lowestSum = new Float64Array(n + 1);
    for (let position = 0; position < n; position++) {
      this.positionOf[order[position]!] = position;
      const priority = candidateAt(candidates, order[position]!).priority;
      this.priorities[position] = priority;
      this.lowestSum[position + 1] = this.lowestSum[position]! + priority;
    }
    this.path = new Int32Array(n);
    this.standIn = !Array.isArray(start);
    this.lastMostImportant = (!Array.isArray(start) && indexesArePositions ? start.lastMostImportant : undefined) ?? n - 1;
    this.bestVictims = Array.isArray(start) ? start : [];
    const key = Array.isArray(start) ? victimKey(candidates, start) : start;
    this.bestCount = key.count;
    this.bestMax = key.maxPriority;
    this.bestSum = key.sumPriority;
    this.bestPath = this.pathOf(this.bestVictims);
  }

  /** True when the search completed, i.e. bestVictims is proven optimal. */
  run(): boolean {
    try {
      if (!this.standIn) this.improveBySwaps();
      const startCount = this.bestCount;
      for (let size = startCount - 1; size >= this.lowestLevel; size--) {
        if (!this.searchLevel(size)) break;
      }
      if (this.bestCount === startCount) this.searchLevel(startCount);
      return true;
    } catch (error) {
      if (error instanceof BudgetExhausted) return false;
      throw error;
    }
  }

  /** Searches one level alone: whether it holds a feasible set, undefined when the budget ran out first. */
  runLevel(size: number): boolean | undefined {
    try {
      return this.searchLevel(size);
    } catch (error) {
      if (error instanceof BudgetExhausted) return undefined;
      throw error;
    }
  }

  /**
   * Exchange step before the exact search: evict one running candidate and reprieve the
   * victims again, most important first; keep the first change that improves the key and
   * repeat. Cheap (one call per victim per try), it reaches the spec's "one higher-priority
   * victim instead of several lower ones" answers (binding priority and preemption (000)) when the
   * budget cannot finish the exact search, and a lower bound prunes the search harder.
   * Oracle state: exactly bestVictims evicted, on entry and exit.
   */
  private improveBySwaps(): void {
    let improved = true;
    // One victim cannot get fewer; its tie-break is left to the level-1 search.
    while (improved && this.bestCount > 1) {
      improved = false;
      const isVictim = new Uint8Array(this.order.length);
      for (const index of this.bestVictims) isVictim[index] = 1;
      const byImportance = this.bestVictims.slice().sort((a, b) => this.positionOf[b]! - this.positionOf[a]!);
      for (let position = 0; position < this.order.length && !improved; position++) {
        const extra = this.order[position]!;
        if (isVictim[extra] === 0) improved = this.trySwap(extra, byImportance);
      }
    }
  }

  private trySwap(extra: number, byImportance: readonly number[]): boolean {
    this.oracle.evict(extra);
    const reprieved: number[] = [];
    for (const index of byImportance) {
      this.oracle.restore(index);
      if (this.oracle.budgetedFeasible()) reprieved.push(index);
      else this.oracle.evict(index);
    }
    if (reprieved.length > 0) {
      const victims = [extra, ...byImportance.filter((index) => !reprieved.includes(index))].sort(compareNumbers);
      if (this.improve(victims)) return true;
    }
    for (const index of reprieved) this.oracle.evict(index);
    this.oracle.restore(extra);
    return false;
  }

  private searchLevel(size: number): boolean {
    this.level = size;
    this.foundAtLevel = false;
    if (this.countedPrefix) this.oracle.restoreAll();
    else this.oracle.evictAll();
    this.prefix = this.order.length;
    this.expand(0, 0, this.order.length, size);
    return this.foundAtLevel;
  }

  /**
   * Chooses `remaining` more positions below `end`. On entry and exit S ∪ positions[0, end)
   * is feasible and evicted (with a counted prefix, S is evicted and the rest counted), and the
   * free prefix ends at `end`.
   */
  private expand(depth: number, sum: number, end: number, remaining: number): void {
    const required = this.requiredBelow(depth, end);
    if (required.count > remaining) return;
    // With nothing chosen yet the bound cannot pass a count the search already holds.
    if ((depth > 0 || remaining < this.bestCount) && this.oracle.budgetedLowerBound(this.chosen, this.indexesArePositions ? end : this.order.length) > remaining) return;
    const last = this.lastAdmissible(depth, sum, end, remaining);
    // A dominator of a chosen victim below `end` left out past a child would lose the set: none is passed.
    const first = this.firstOpen(Math.max(remaining - 1, required.highest), last, end);
    if (first <= last) {
      if (remaining === 1) this.scanLeaves(depth, first, last, required);
      else this.scanChildren(depth, sum, first, last, remaining, required);
    }
    this.movePrefix(end);
  }

  /**
   * The dominators of the chosen victims (FeasibilityOracle.dominators) not chosen: the victims still
   * to choose must hold them all. They are those below the last choice, `end`: none is ever passed over,
   * so those above it are chosen.
   */
  private requiredBelow(depth: number, end: number): Required {
    if (!this.dominance || depth === 0) return NONE_REQUIRED;
    const stamp = ++this.requiredStamp;
    let count = 0;
    let highest = -1;
    for (let level = 0; level < depth; level++) {
      const dominators = this.oracle.dominators(this.order[this.path[level]!]!);
      if (dominators === null) continue;
      for (let at = 0; at < dominators.length; at++) {
        const position = this.positionOf[dominators[at]!]!;
        if (position >= end || this.requiredMark[position] === stamp) continue;
        this.requiredMark[position] = stamp;
        count++;
        if (position > highest) highest = position;
      }
    }
    return { count, highest };
  }

  /** Whether a set may hold q with `remaining` victims left to choose (q one of them) and `required` to hold. */
  private mayChoose(q: number, remaining: number, required: Required): boolean {
    if (!this.dominance) return true;
    const dominators = this.oracle.dominators(this.order[q]!);
    const own = dominators === null ? DOMINATORS_LISTED + 1 : dominators.length;
    return own <= remaining - 1 && required.count - (q === required.highest ? 1 : 0) <= remaining - 1;
  }

  private scanChildren(depth: number, sum: number, first: number, last: number, remaining: number, required: Required): void {
    for (let q = first; q <= last && this.admits(depth, sum, q, remaining); q++) {
      if (!this.mayChoose(q, remaining, required)) continue;
      this.movePrefix(q + 1);
      this.path[depth] = q;
      this.chosen.push(this.order[q]!);
      // q stays evicted as a chosen victim (with a counted prefix, it is evicted as one); the child's free prefix is [0, q).
      if (this.countedPrefix) this.oracle.evict(this.order[q]!);
      this.prefix = q;
      this.expand(depth + 1, sum + this.priorities[q]!, q, remaining - 1);
      if (this.countedPrefix) this.oracle.restore(this.order[q]!);
      this.prefix = q + 1;
      this.chosen.pop();
    }
  }

  private scanLeaves(depth: number, first: number, last: number, required: Required): void {
    this.movePrefix(0);
    // Positions are indexes here: the oracle's completions of S are the only leaves worth a check.
    const completions = this.indexesArePositions ? this.oracle.budgetedCompletions(this.chosen, last + 1) : undefined;
    if (completions) {
      for (let m = 0; m < completions.length; m++) {
        const q = completions[m]!;
        if (q >= first && this.mayChoose(q, 1, required) && this.tryLeaf(depth, q)) return;
      }
    } else {
      for (let q = first; q <= last; q++) if (this.mayChoose(q, 1, required) && this.tryLeaf(depth, q)) return;
    }
  }

  /**
   * Records S ∪ {q} when it is feasible; true then, and the scan stops there. Every leaf up to
   * `last` admits: the best set changes only here.
   */
  private tryLeaf(depth: number, q: number): boolean {
    const index = this.order[q]!;
    this.oracle.evict(index);
    const feasible = this.oracle.budgetedFeasible();
    this.oracle.restore(index);
    if (feasible) this.record(depth, q);
    return feasible;
  }

  /** Can a child at position q still lead to a set better than the best? */
  private admits(depth: number, sum: number, q: number, remaining: number): boolean {
    if (this.bestCount > this.level) return true;
    const max = this.priorities[depth === 0 ? q : this.path[0]!]!;
    if (max !== this.bestMax) return max < this.bestMax;
    const reachable = sum + this.priorities[q]! + this.lowestSum[remaining - 1]!;
    if (reachable !== this.bestSum) return reachable < this.bestSum;
    return this.mayPrecedeBest(depth, q);
  }

  /**
   * Can a set whose highest positions are the path to `depth` and then q come before the best
   * set in the tie-break? Sets compare by their positions, highest first.
   */
  private mayPrecedeBest(depth: number, q: number): boolean {
    // A set of equal key found elsewhere: only its most important victim's place is known here.
    if (this.standIn) return depth > 0 || q <= this.lastMostImportant;
    for (let step = 0; step < depth; step++) {
      const difference = this.path[step]! - this.bestPath[step]!;
      if (difference !== 0) return difference < 0;
    }
    return q <= this.bestPath[depth]!;
  }

  /** Last child position in [remaining - 1, end) that admits (a prefix), or remaining - 2. */
  private lastAdmissible(depth: number, sum: number, end: number, remaining: number): number {
    let low = remaining - 1;
    let high = end;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.admits(depth, sum, mid, remaining)) low = mid + 1;
      else high = mid;
    }
    return low - 1;
  }

  /**
   * First q in [low, high] with S ∪ positions[0..q] feasible, or high + 1. Children below
   * it cannot contain a feasible set (monotonicity); q = end - 1 is known feasible.
   */
  private firstOpen(low: number, high: number, end: number): number {
    let limit = high + 1;
    while (low < limit) {
      const mid = (low + limit) >>> 1;
      if (mid === end - 1 || this.prefixFeasible(mid + 1)) limit = mid;
      else low = mid + 1;
    }
    return low;
  }

  private prefixFeasible(size: number): boolean {
    this.movePrefix(size);
    return this.countedPrefix ? this.oracle.budgetedFeasibleWithFirst(size) : this.oracle.budgetedFeasible();
  }

  private movePrefix(target: number): void {
    if (this.countedPrefix) {
      this.prefix = target;
      return;
    }
    while (this.prefix < target) this.oracle.evict(this.order[this.prefix++]!);
    while (this.prefix > target) this.oracle.restore(this.order[--this.prefix]!);
  }

  private record(depth: number, leaf: number): void {
    const victims: number[] = [this.order[leaf]!];
    for (let level = 0; level < depth; level++) victims.push(this.order[this.path[level]!]!);
    if (this.improve(victims.sort(compareNumbers))) this.foundAtLevel = true;
  }

  /** Adopts `victims` (sorted indexes) if it beats the best. */
  private improve(victims: number[]): boolean {
    const key = victimKey(this.candidates, victims);
    if (this.standIn) {
      const order = compareVictimKeys(key, { count: this.bestCount, maxPriority: this.bestMax, sumPriority: this.bestSum });
      if (order > 0 || (order === 0 && this.positionOf[victims[victims.length - 1]!]! > this.lastMostImportant)) return false;
      this.standIn = false;
    } else if (compareVictimSets(this.candidates, victims, this.bestVictims, this.indexesArePositions) >= 0) return false;
    this.bestVictims = victims;
    this.bestCount = key.count;
    this.bestMax = key.maxPriority;
    this.bestSum = key.sumPriority;
    this.bestPath = this.pathOf(victims);
    return true;
  }

  private pathOf(victims: readonly number[]): Int32Array {
    return Int32Array.from(victims, (index) => this.positionOf[index]!).sort().reverse();
  }
}

/** Of a node: how many positions the victims still to choose must hold (FeasibilityOracle.dominators), and the highest, −1 for none. */
interface Required {
  readonly count: number;
  readonly highest: number;
}

const NONE_REQUIRED: Required = { count: 0, highest: -1 };

/**
 * Total order on victim sets (sorted index lists): the key, then the victims compared most
 * important first, the set with the less important one at the first difference first.
 */
export function compareVictimSets(
  candidates: readonly VictimCandidate[],
  a: readonly number[],
  b: readonly number[],
  indexesArePositions = false,
): number {
  const compare = (x: number, y: number) => (indexesArePositions ? compareByPosition(candidates, x, y) : compareCandidates(candidates, x, y));
  const mostImportantFirst = (victims: readonly number[]) => victims.slice().sort((x, y) => compare(y, x));
  return (
    compareVictimKeys(victimKey(candidates, a), victimKey(candidates, b)) ||
    compareLists(mostImportantFirst(a), mostImportantFirst(b), compare)
  );
}

/** The search order: priority, then key (code units, whatever the locale). */
export function compareVictimCandidates(a: VictimCandidate, b: VictimCandidate): number {
  return compareNumbers(a.priority, b.priority) || compareStrings(a.key, b.key);
}

/** The search order of candidates listed in it (VictimSearchOptions.inSearchOrder): priority, then index. */
function compareByPosition(candidates: readonly VictimCandidate[], a: number, b: number): number {
  return compareNumbers(candidateAt(candidates, a).priority, candidateAt(candidates, b).priority) || a - b;
}

/** The search order of candidates by index: compareVictimCandidates, then index. */
function compareCandidates(candidates: readonly VictimCandidate[], a: number, b: number): number {
  return compareVictimCandidates(candidateAt(candidates, a), candidateAt(candidates, b)) || a - b;
}

function compareLists<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number): number {
  const shared = Math.min(a.length, b.length);
  for (let i = 0; i < shared; i++) {
    const order = compare(a[i]!, b[i]!);
    if (order !== 0) return order;
  }
  return a.length - b.length;
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Code-unit order, independent of locale. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function bitsOf(mask: number, width: number): number[] {
  const bits: number[] = [];
  for (let bit = 0; bit < width; bit++) if (mask & (1 << bit)) bits.push(bit);
  return bits;
}

function candidateAt(candidates: readonly VictimCandidate[], index: number): VictimCandidate {
  const candidate = candidates[index];
  if (candidate === undefined) throw new RangeError(`no candidate at index ${index}`);
  return candidate;
}
