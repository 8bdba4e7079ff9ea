import type { PriorityOrder, RankedResidents } from '../snapshot';

/** Largest amounts kept per priority; past them each further victim counts as the smallest kept. */
export const KEPT_AMOUNTS = 4;

/**
 * What the residents of one cluster that may be victims free of one resource, by priority: at each
 * priority they hold (ascending), the KEPT_AMOUNTS largest amounts (request × replicas there) of those
 * of that priority or lower. A preemptor's bounds on a cluster (one-cluster-search.ts) read it instead
 * of the residents, so they cost the priorities a cluster holds, not its residents. Kept by the snapshot
 * per cluster and resource until the cluster's residents change.
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

export function victimAmountsOf({ ranks, replicas }: RankedResidents, order: PriorityOrder, resource: string): VictimAmounts {
  const { priorities, mayBeVictim } = order;
  const requests = order.requests(resource);
  const levels: number[] = [];
  const largest: number[] = [];
  const kept = new Float64Array(KEPT_AMOUNTS);
  let total = 0;
  let integral = true;
  for (let i = 0; i < ranks.length; i++) {
    const rank = ranks[i]!;
    if (mayBeVictim[rank] !== 1) continue;
    const amount = requests[rank]! * replicas[i]!;
    if (!Number.isInteger(amount)) integral = false;
    total += Math.abs(amount);
    keepAmount(kept, 0, amount);
    const priority = priorities[rank]!;
    if (levels[levels.length - 1] !== priority) {
      levels.push(priority);
      largest.length += KEPT_AMOUNTS;
    }
    for (let m = 0; m < KEPT_AMOUNTS; m++) largest[largest.length - KEPT_AMOUNTS + m] = kept[m]!;
  }
  return { priorities: Float64Array.from(levels), largest: Float64Array.from(largest), exact: integral && total <= EXACT_LIMIT };
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
