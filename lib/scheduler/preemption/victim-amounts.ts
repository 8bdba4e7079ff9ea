import type { ResourceList } from '../../resources';
import { firstAtOrAbove } from '../rank-search';

/** Largest amounts kept per priority; past them each further victim counts as the smallest kept. */
export const KEPT_AMOUNTS = 4;

/**
 * What the residents of one cluster that may be victims free of one resource, by priority: at each
 * priority they hold (ascending), the KEPT_AMOUNTS largest amounts (request × replicas there) of those
 * of that priority or lower. A preemptor's bounds on a cluster (one-cluster-search.ts) read it instead
 * of the residents, so they cost the priorities a cluster holds, not its residents.
 *
 * It counts every resident that may be victim, the preemptor's own placement too: an amount more only
 * lowers the bounds read from it, which stay bounds.
 */
export interface VictimAmounts {
  readonly priorities: Float64Array;
  /** [level × KEPT_AMOUNTS + m]: the m-th largest amount of priority `priorities[level]` or lower, 0 past them. */
  readonly largest: Float64Array;
  /** Every amount is an integer and their sum stays below 2^52, so sums of them are exact. */
  readonly exact: boolean;
}

/** Past this, doubles no longer hold every sum of amounts exactly (nor every quotient below it). */
export const EXACT_LIMIT = 2 ** 52;

/** Every value an integer no larger than EXACT_LIMIT: requests and gaps the bounds compare exactly. */
export function exactIntegers(values: Iterable<number>): boolean {
  for (const value of values) if (!Number.isInteger(value) || Math.abs(value) > EXACT_LIMIT) return false;
  return true;
}

/** From here a sum of integers held as a double may have been rounded. */
const ROUNDING_FROM = 2 ** 53;

/** What the residents of one priority free of one resource: every amount but 0, ascending. */
type AmountsByPriority = Map<number, number[]>;

/** Of one resource: its amounts by priority, and what says whether sums of them are exact. */
interface ResourceAmounts {
  readonly byPriority: AmountsByPriority;
  /** Amounts that are not integers. */
  fractional: number;
  /** The sum of the integer amounts' sizes: exact while below 2^53. */
  total: number;
  /** The total once reached 2^53, past which a sum of integers may round: it may since have lost what it counts. */
  overflowed: boolean;
  cached: VictimAmounts | undefined;
}

/**
 * A cluster's VictimAmounts of every resource, kept up to date as residents that may be victims come
 * and go (add, remove: the cost of the resident's priority there), so that the bounds of a decision
 * after a placement or an eviction do not read the cluster's residents again. Each resource's
 * VictimAmounts is worked out from the kept amounts when first asked after a change, at the cost of
 * the priorities the cluster holds.
 */
export class VictimAmountsLedger {
  /** How many residents that may be victims hold each priority: every one of them is a level. */
  private readonly residentsAt = new Map<number, number>();
  private readonly resources = new Map<string, ResourceAmounts>();
  private levels: Float64Array | undefined;

  /** A resident that may be victim, of `replicas` replicas of `request` at `priority`. */
  add(priority: number, request: ResourceList, replicas: number): void {
    const residents = this.residentsAt.get(priority) ?? 0;
    this.residentsAt.set(priority, residents + 1);
    if (residents === 0) this.levelsChanged();
    for (const resource of Object.keys(request)) {
      const amount = request[resource]! * replicas;
      if (amount === 0) continue;
      const kept = this.amountsOf(resource);
      let amounts = kept.byPriority.get(priority);
      if (!amounts) kept.byPriority.set(priority, (amounts = []));
      amounts.splice(firstAtOrAbove(amounts, amount), 0, amount);
      if (Number.isInteger(amount)) {
        kept.total += Math.abs(amount);
        if (kept.total >= ROUNDING_FROM) kept.overflowed = true;
      } else {
        kept.fractional += 1;
      }
      kept.cached = undefined;
    }
  }

  /** The resident `add` counted leaves: the same priority, request and replicas. */
  remove(priority: number, request: ResourceList, replicas: number): void {
    const residents = this.residentsAt.get(priority)!;
    if (residents === 1) {
      this.residentsAt.delete(priority);
      this.levelsChanged();
    } else {
      this.residentsAt.set(priority, residents - 1);
    }
    for (const resource of Object.keys(request)) {
      const amount = request[resource]! * replicas;
      if (amount === 0) continue;
      const kept = this.resources.get(resource)!;
      const amounts = kept.byPriority.get(priority)!;
      const at = firstAtOrAbove(amounts, amount);
      if (amounts[at] !== amount) throw new Error(`victim amounts: ${amount} of ${resource} at priority ${priority} was never added`);
      amounts.splice(at, 1);
      if (amounts.length === 0) kept.byPriority.delete(priority);
      if (Number.isInteger(amount)) kept.total -= Math.abs(amount);
      else kept.fractional -= 1;
      kept.cached = undefined;
    }
  }

  /** What the residents that may be victims free of `resource`, by priority. */
  amounts(resource: string): VictimAmounts {
    const kept = this.amountsOf(resource);
    kept.cached ??= this.workedOut(kept);
    return kept.cached;
  }

  private workedOut(kept: ResourceAmounts): VictimAmounts {
    const { byPriority, fractional } = kept;
    if (kept.overflowed) recount(kept);
    const priorities = this.priorities();
    const largest = new Float64Array(priorities.length * KEPT_AMOUNTS);
    const largestSoFar = new Float64Array(KEPT_AMOUNTS);
    for (let level = 0; level < priorities.length; level++) {
      const amounts = byPriority.get(priorities[level]!);
      // Only a priority's own largest few can be among the largest of it and the ones below.
      if (amounts) for (let m = amounts.length - 1; m >= Math.max(0, amounts.length - KEPT_AMOUNTS); m--) keepAmount(largestSoFar, 0, amounts[m]!);
      largest.set(largestSoFar, level * KEPT_AMOUNTS);
    }
    return { priorities, largest, exact: fractional === 0 && !kept.overflowed && kept.total <= EXACT_LIMIT };
  }

  /** A priority came or went: every resource has a level more or fewer. */
  private levelsChanged(): void {
    this.levels = undefined;
    for (const kept of this.resources.values()) kept.cached = undefined;
  }

  private priorities(): Float64Array {
    this.levels ??= Float64Array.from(this.residentsAt.keys()).sort();
    return this.levels;
  }

  private amountsOf(resource: string): ResourceAmounts {
    let kept = this.resources.get(resource);
    if (!kept) this.resources.set(resource, (kept = { byPriority: new Map(), fractional: 0, total: 0, overflowed: false, cached: undefined }));
    return kept;
  }
}

/**
 * The total counted again from the amounts, once it reached 2^53 and may have lost part of what it
 * counts: exact again when what is left is below it (a rare case; the amounts are read once).
 */
function recount(kept: ResourceAmounts): void {
  let total = 0;
  kept.byPriority.forEach((amounts) => {
    for (const amount of amounts) if (Number.isInteger(amount)) total += Math.abs(amount);
  });
  kept.total = total;
  kept.overflowed = total >= ROUNDING_FROM;
}

/** Keeps `amount` among the largest amounts (descending) at `kept[base, base + KEPT_AMOUNTS)` if it is one of them. */
export function keepAmount(kept: Float64Array, base: number, amount: number): void {
  if (amount <= kept[base + KEPT_AMOUNTS - 1]!) return;
  let at = base + KEPT_AMOUNTS - 1;
  while (at > base && kept[at - 1]! < amount) {
    kept[at] = kept[at - 1]!;
    at--;
  }
  kept[at] = amount;
}

/**
 * The fewest amounts, given the largest kept at `kept[base, base + KEPT_AMOUNTS)`, that can sum to
 * `gap`: m of them free at most the m largest, and past those kept each no more than the smallest kept
 * (+∞ when even all of them cannot).
 */
export function fewestReaching(kept: ArrayLike<number>, base: number, gap: number): number {
  if (gap <= 0) return 0;
  let sum = 0;
  for (let m = 0; m < KEPT_AMOUNTS; m++) {
    sum += kept[base + m]!;
    if (sum >= gap) return m + 1;
  }
  const smallest = kept[base + KEPT_AMOUNTS - 1]!;
  return smallest > 0 ? KEPT_AMOUNTS + Math.ceil((gap - sum) / smallest) : Number.POSITIVE_INFINITY;
}

/**
 * The lowest priority at which `victims` residents of a cluster might close its gaps, by the largest
 * amounts kept of each requested resource (`held`, [slot]): where as many of the largest reach
 * `gaps[offset + slot]` for every slot. +∞ when they do at no priority; −∞ when the amounts are not
 * exact, or the caller's gaps are not (`integral` false): then nothing is ruled out.
 */
export function lowestEnoughWith(held: readonly VictimAmounts[], gaps: ArrayLike<number>, offset: number, integral: boolean, victims: number): number {
  if (!integral || !held.every((amounts) => amounts.exact)) return Number.NEGATIVE_INFINITY;
  const { priorities } = held[0]!;
  for (let level = 0; level < priorities.length; level++) {
    let enough = true;
    for (let slot = 0; slot < held.length && enough; slot++) enough = fewestReaching(held[slot]!.largest, level * KEPT_AMOUNTS, gaps[offset + slot]!) <= victims;
    if (enough) return priorities[level]!;
  }
  return Number.POSITIVE_INFINITY;
}
