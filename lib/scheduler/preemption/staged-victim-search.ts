import { selectVictims, type FeasibilityOracle, type VictimCandidate, type VictimSelection } from './victim-search';

/** An oracle that bounds victim counts and lists single completions (PlacementOracle). */
type BoundingOracle = FeasibilityOracle & Required<Pick<FeasibilityOracle, 'lowerBound' | 'completions'>>;

export interface StagedOracle extends BoundingOracle {
  /** How many victims, at least, any feasible set of all the candidates has (fewest-victims.ts). */
  fewestVictims(): number;
}

export interface StagedSearchOptions {
  /** As VictimSearchOptions.searchBudget: for the search from the lower bound, and for the full search. */
  readonly searchBudget: number;
  /**
   * Candidates the first stage searches (each next one searches four times as many), and the largest
   * share of the candidates a stage searches.
   */
  readonly stages?: { readonly first: number; readonly largestShare: number };
}

const FIRST_STAGE = 32;
const GROWTH = 4;
/** A stage searches at most this share of the candidates: past it, the search over all of them costs little more. */
const LARGEST_STAGE_SHARE = 1 / 4;
/** Oracle calls a stage may make: a prefix whose best set takes longer to prove is left to the searches over all. */
const STAGE_BUDGET = 2_000;

/**
 * The victim search (victim-search.ts) over candidates listed in search order (lowest priority first,
 * then the tie order), in three steps, so that what it costs follows where the best set lies in the
 * order and how tight the lower bound on the count is, rather than how many candidates there are.
 *
 * 1. Stages: the search on the first 32 candidates, then on four times as many while that is at most a
 *    quarter of them. A prefix's best set B, proven best among the prefix's sets, is the best of all
 *    when no set with a candidate past the prefix beats it. Such a set S has a victim at least as
 *    important as the first candidate left out, p. When no feasible set has fewer victims than B
 *    (`fewest`, below), S beats B only with as many victims; then S's highest priority is at least p's:
 *    higher than B's when B's highest is below p; and when it equals p, S's sum of priorities is at
 *    least that highest plus the lowest priorities of the rest, which is B's own sum when B's other
 *    victims are the lowest there are; S then ties B on the whole key and loses the tie-break, its most
 *    important victim being past all of B's.
 * 2. Upwards: over every candidate, from the last stage's set, the levels from `fewest` victims up
 *    (VictimSearchOptions.start): where the bound is the true count, the first level searched holds the
 *    answer and no level is searched only to be proven empty.
 * 3. When neither proves its answer within its budget: the full search, as if there were no stages,
 *    whose answer is the one the search gave before them.
 *
 * `fewest`: the oracle's count bound over every candidate (victim-count-bound.ts), its fewestVictims
 * (fewest-victims.ts), and 2 when no candidate is enough alone. So the answer is the full search's
 * wherever that one proves its answer; where the full search would run out of budget, a proven answer
 * of the first two steps may differ from its unproven one.
 */
export function selectVictimsInStages(
  candidates: readonly VictimCandidate[],
  oracle: StagedOracle,
  options: StagedSearchOptions,
): VictimSelection | null {
  const n = candidates.length;
  const counted = oracle.lowerBound([], n);
  if (counted === Number.POSITIVE_INFINITY) return null;
  let fewest: number | undefined;
  let best: readonly number[] | undefined;
  const staged = { searchBudget: Math.min(options.searchBudget, STAGE_BUDGET), inSearchOrder: true };
  const { first, largestShare } = options.stages ?? { first: FIRST_STAGE, largestShare: LARGEST_STAGE_SHARE };
  for (let stage = Math.max(1, first); stage <= n * largestShare && stage < n; stage *= GROWTH) {
    const selection = selectVictims(candidates.slice(0, stage), new PrefixOracle(oracle, stage), staged);
    if (selection === null) continue;
    if (!selection.exact) break;
    best = selection.victims;
    if (best.length > counted) fewest ??= Math.max(counted, oracle.fewestVictims());
    if (best.length === 2 && fewest !== undefined && fewest < 2 && noSingleVictim(oracle, n)) fewest = 2;
    if (best.length <= (fewest ?? counted) && beatsEveryLaterSet(candidates, best, stage)) return selection;
  }
  const search = { searchBudget: options.searchBudget, inSearchOrder: true };
  if (best !== undefined) {
    fewest ??= Math.max(counted, oracle.fewestVictims());
    const upwards = selectVictims(candidates, oracle, { ...search, start: { victims: best, fewest } });
    if (upwards?.exact) return upwards;
  }
  return selectVictims(candidates, oracle, search);
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
  constructor(
    private readonly oracle: BoundingOracle,
    private readonly size: number,
  ) {}

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
