import { compareVictimSets, selectVictims, victimKey, type FeasibilityOracle, type VictimCandidate, type VictimSelection } from './victim-search';

/** An oracle that bounds victim counts and lists single completions (PlacementOracle). */
type BoundingOracle = FeasibilityOracle & Required<Pick<FeasibilityOracle, 'lowerBound' | 'completions'>>;

export interface StagedOracle extends BoundingOracle {
  /** Questions answered so far (every feasible, feasibleWithFirst, lowerBound and completions call). */
  readonly questions: number;
  /** How many victims, at least, any feasible set of all the candidates has (fewest-victims.ts). */
  fewestVictims(): number;
}

export interface StagedSearchOptions {
  /** As VictimSearchOptions.searchBudget, for the full search (a stage has a smaller one). */
  readonly searchBudget: number;
  /**
   * Candidates the first stage searches (each next one searches four times as many), and the largest
   * share of the candidates a stage searches.
   */
  readonly stages?: { readonly first: number; readonly largestShare: number };
  /** Victims any feasible set has at least, as the caller knows it (0 when it knows nothing). */
  readonly fewest?: number;
}

const FIRST_STAGE = 32;
const GROWTH = 4;
/** The last stage searches this share of the candidates: past it, the full search costs little more. */
const LARGEST_STAGE_SHARE = 1 / 4;
/** Oracle calls a stage may make: a prefix whose best set takes longer to find is left to the full search. */
const STAGE_BUDGET = 2_000;
/**
 * Oracle calls the searches after the stages may make (the best of B's count, or the levels from
 * `fewest` up) before the full search (greedy, exchange step, levels down from the greedy's count)
 * decides instead, with its whole budget.
 */
const LEVEL_BUDGET = 4_000;
/** Levels searched from `fewest` up: each starts from every candidate evicted, which costs their number. */
const LEVELS = 4;

/**
 * The victim search (victim-search.ts) over candidates listed in search order (lowest priority first,
 * then the tie order), first on a prefix of them, so that what it costs follows where the best set lies
 * in the order rather than how many candidates there are.
 *
 * `fewest` is a lower bound on the victims of any feasible set: the oracle's count bound over every
 * candidate (victim-count-bound.ts), its fewestVictims (fewest-victims.ts), the caller's own
 * (StagedSearchOptions.fewest), and 2 once no candidate is found enough alone. A stage searches the first 32 candidates, then four times as many, the last a
 * quarter of them, for the best set of exactly `fewest` victims among them (VictimSearchOptions.
 * onlyCount: no greedy, no exchange step, no smaller level proven empty). Such a set B, when there is
 * one, has the fewest victims of all; it is the best of all when no set with a candidate past the prefix
 * beats it. Such a set S has as many victims and one at least as important as the first candidate left
 * out, p: so S's highest priority is at least p's, higher than B's when B's highest is below p; and
 * when it equals p, S's sum of priorities is at least that highest plus the lowest priorities of the
 * rest, which is B's own sum when B's other victims are the lowest there are; S then ties B on the
 * whole key and loses the tie-break, its most important victim being past all of B's.
 *
 * When a stage's B is not proven (that of the last stage that found one), a set that beats it has no
 * victim above B's highest priority: the candidates up to the last of that priority are searched for
 * sets no worse than B. When no stage holds a set of `fewest`, every candidate is searched for sets of
 * `fewest`, then one more, up to LEVELS levels: the first level that holds a set holds the best. Either
 * may make LEVEL_BUDGET oracle calls (a level search proves its answer at a cost that follows the
 * candidates a set needs; the full search first runs the greedy and the exchange step over every
 * candidate).
 *
 * When none of this proves its answer (or a stage runs out of its budget), the full search decides, as
 * if there were no stages, with its whole budget; if it does not prove its own either, a stage's set of
 * the fewest victims is kept when it comes first. So the answer is the full search's wherever that one
 * proves its answer; where the full search would run out of budget, an answer found before it may be
 * better than its unproven one.
 */
export function selectVictimsInStages(
  candidates: readonly VictimCandidate[],
  oracle: StagedOracle,
  options: StagedSearchOptions,
): VictimSelection | null {
  const n = candidates.length;
  let fewest = Math.max(oracle.lowerBound([], n), oracle.fewestVictims(), options.fewest ?? 0);
  if (fewest === Number.POSITIVE_INFINITY) return null;
  const { first, largestShare } = options.stages ?? { first: FIRST_STAGE, largestShare: LARGEST_STAGE_SHARE };
  let singleRuledOut = false;
  /** The best set of the last stage that found one, not proven the best of all: `fewest` victims, so the count of the best. */
  let ofFewest: VictimSelection | undefined;
  let brokeOnBudget = false;
  const largest = Math.min(n - 1, Math.floor(n * largestShare));
  // Without a bound (0), nothing may be needed at all: the full search tells.
  for (let stage = Math.min(Math.max(1, first), largest); fewest > 0 && stage >= 1; ) {
    const selection = selectVictims(candidates.slice(0, stage), new PrefixOracle(oracle, stage), {
      searchBudget: Math.min(options.searchBudget, STAGE_BUDGET),
      inSearchOrder: true,
      onlyCount: fewest,
    });
    if (selection === null && fewest === 1 && !singleRuledOut) {
      // No single victim in the prefix: the same prefix again for two, if none is enough alone at all.
      singleRuledOut = true;
      if (noSingleVictim(oracle, n)) fewest = 2;
      if (fewest === 2) continue;
    }
    if (selection !== null && !selection.exact) {
      brokeOnBudget = true;
      break;
    }
    if (selection !== null) {
      if (beatsEveryLaterSet(candidates, selection.victims, stage)) return selection;
      ofFewest = selection;
    }
    stage = stage === largest ? 0 : Math.min(stage * GROWTH, largest);
  }
  const levelBudget = Math.min(options.searchBudget, LEVEL_BUDGET);
  let unproven: VictimSelection | undefined;
  if (ofFewest) {
    const best = bestOfItsCount(candidates, oracle, ofFewest.victims, levelBudget);
    if (best.exact) return best;
    unproven = best;
  } else if (fewest > 0 && !brokeOnBudget) {
    const lowest = lowestLevelOfAll(candidates, oracle, fewest, levelBudget);
    if (lowest) return lowest;
  }
  const full = selectVictims(candidates, oracle, { searchBudget: options.searchBudget, inSearchOrder: true });
  // Unproven, the full search's set may have more victims than the proven fewest of a stage's.
  if (unproven && full && !full.exact && compareVictimSets(candidates, unproven.victims, full.victims, true) < 0) return unproven;
  return full;
}

/**
 * The best set of all, searched level by level from `fewest` up over every candidate: the first level
 * that holds a set holds the best, since no set has fewer victims. Undefined when `budget` runs out
 * before a level's best is proven.
 */
function lowestLevelOfAll(candidates: readonly VictimCandidate[], oracle: StagedOracle, fewest: number, budget: number): VictimSelection | undefined {
  const start = oracle.questions;
  // Each level starts from every candidate evicted; when even that is not enough, no level holds a set.
  if (!everyoneEnough(oracle, candidates.length)) return undefined;
  for (let count = fewest; count < fewest + LEVELS && count <= candidates.length; count++) {
    const left = budget - (oracle.questions - start);
    if (left <= 0) return undefined;
    const level = selectVictims(candidates, oracle, { searchBudget: left, inSearchOrder: true, onlyCount: count });
    if (level !== null) return level.exact ? level : undefined;
  }
  return undefined;
}

/**
 * The best set of all when `found` (ascending positions) has the fewest victims any feasible set can
 * have: one that beats it has as many victims and none above its highest priority, so only the
 * candidates up to the last of that priority are searched, and among them only sets whose key is no
 * greater (VictimSearchOptions.within), those of equal key only if their most important victim is not
 * past its own, which `found` itself is one of. Not exact when the budget ran out first.
 */
function bestOfItsCount(candidates: readonly VictimCandidate[], oracle: StagedOracle, found: readonly number[], searchBudget: number): VictimSelection {
  const key = victimKey(candidates, found);
  let end = found[found.length - 1]! + 1;
  while (end < candidates.length && candidates[end]!.priority === key.maxPriority) end++;
  const selection = selectVictims(candidates.slice(0, end), new PrefixOracle(oracle, end), {
    searchBudget,
    inSearchOrder: true,
    within: { ...key, lastMostImportant: found[found.length - 1]!, fewest: key.count },
  });
  // `found` is among the sets searched: nothing, only when the budget ran out first.
  return selection !== null && selection.victims.length > 0 ? selection : { victims: [...found], exact: false };
}

/** Whether evicting every candidate is enough. */
function everyoneEnough(oracle: FeasibilityOracle, n: number): boolean {
  for (let index = 0; index < n; index++) oracle.evict(index);
  const enough = oracle.feasible();
  for (let index = 0; index < n; index++) oracle.restore(index);
  return enough;
}

/**
 * No set with as many victims as `victims` (ascending positions, all below `stage`) and a candidate at
 * `stage` or past it comes before it (see selectVictimsInStages).
 */
function beatsEveryLaterSet(candidates: readonly VictimCandidate[], victims: readonly number[], stage: number): boolean {
  if (victims.length === 0) return true;
  const highest = candidates[victims[victims.length - 1]!]!.priority;
  if (highest < candidates[stage]!.priority) return true;
  let sum = 0;
  for (const index of victims) sum += candidates[index]!.priority;
  let lowest = highest;
  for (let position = 0; position < victims.length - 1; position++) lowest += candidates[position]!.priority;
  return sum === lowest;
}

/** No candidate is enough alone: only the oracle's completions of nothing may be, each asked once. */
function noSingleVictim(oracle: BoundingOracle, n: number): boolean {
  const completions = oracle.completions([], n);
  for (let m = 0; m < completions.length; m++) {
    oracle.evict(completions[m]!);
    const feasible = oracle.feasible();
    oracle.restore(completions[m]!);
    if (feasible) return false;
  }
  return true;
}

/** The first `size` candidates of an oracle's: the same indexes, bounds and completions among them alone. */
class PrefixOracle implements BoundingOracle {
  /** The oracle's own, when it has one: the first candidates of a prefix are the oracle's first. */
  readonly feasibleWithFirst: ((count: number) => boolean) | undefined;
  /** The oracle's own: a candidate's dominators come before it, so within any prefix that holds it. */
  readonly dominators: ((index: number) => ArrayLike<number> | null) | undefined;

  constructor(
    private readonly oracle: BoundingOracle,
    private readonly size: number,
  ) {
    this.feasibleWithFirst = oracle.feasibleWithFirst?.bind(oracle);
    this.dominators = oracle.dominators?.bind(oracle);
  }

  evict(index: number): void {
    this.oracle.evict(index);
  }

  restore(index: number): void {
    this.oracle.restore(index);
  }

  feasible(): boolean {
    return this.oracle.feasible();
  }

  lowerBound(evicted: readonly number[], below: number): number {
    return this.oracle.lowerBound(evicted, Math.min(below, this.size));
  }

  completions(evicted: readonly number[], below: number): ArrayLike<number> {
    return this.oracle.completions(evicted, Math.min(below, this.size));
  }
}
