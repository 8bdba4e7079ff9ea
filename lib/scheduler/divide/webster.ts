/**
 * Webster / Sainte-Laguë highest-averages apportionment, as Karmada's scheduler uses it for both static and dynamic
 * weights (pkg/util/helper/webstermethod.go, AllocateWebsterSeats).
 *
 * Karmada hands out seats one at a time from a heap: the next seat goes to the party with the largest
 * votes / (2·seats + 1); on equal priority the party holding FEWER seats wins (deliberately favouring the smaller
 * cluster, for HA), and on equal seats the lexicographically smaller name wins. With equal priority and equal seats
 * the votes are equal too, so weight itself never breaks a tie. Karmada's scheduler flips that name order to
 * descending for some workloads, by a hash of their UID (tie-order.ts); the caller says which order applies.
 *
 * Seat-by-seat is O(total · log n). Because each party's successive "slots" (its k-th potential seat, priority
 * votes / (2k + 1)) strictly decrease in that order, the heap simply merges the parties' slot sequences, so the
 * result is exactly the `total` best slots under one strict total order. We find them directly: all slots above a
 * threshold that is provably too high are certainly in; all slots above one provably too low bound the rest; fewer
 * than 2n slots lie between, and sorting those settles the remainder. Priorities are compared by exact integer
 * cross-multiplication (Karmada compares float64 quotients, which agrees except where float rounding would merge
 * two distinct quotients of huge weights).
 */
import { assertCount, assertUniqueNames, assertWeight, byName, type TargetCluster } from './division';
import type { TieOrder } from './tie-order';

export interface ApportionWeight {
  readonly name: string;
  readonly weight: number;
}

interface Party {
  readonly name: string;
  readonly votes: bigint;
}

/** A party's potential seat number `seats + 1`, whose Webster priority is votes / (2·seats + 1). */
interface Slot extends Party {
  readonly seats: number;
}

/**
 * Returns each party with a positive weight and at least one seat, sorted by name. The seats sum to `total`
 * whenever some weight is positive; with none, nothing can be apportioned and the result is empty.
 * Weights must be safe integers (Karmada's weights are int64); zero and negative weights get nothing.
 * `ties` orders parties of equal priority and equal seats (ascending, as Karmada without a UID, by default).
 */
export function websterApportion(total: number, weights: readonly ApportionWeight[], ties: TieOrder = 'name-ascending'): TargetCluster[] {
  assertCount('total', total);
  assertUniqueNames(weights);
  for (const { name, weight } of weights) assertWeight(name, weight);
  const parties = weights.filter((w) => w.weight > 0).map((w) => ({ name: w.name, votes: BigInt(w.weight) }));
  if (total === 0 || parties.length === 0) return [];

  const voteSum = parties.reduce((sum, party) => sum + party.votes, 0n);
  const n = BigInt(parties.length);
  const seats2 = 2n * BigInt(total);
  // Party i has between q/2 - 1/2 and q/2 + 1/2 slots above the threshold voteSum / m, where q = votes_i·m / voteSum,
  // so with m = 2·total ∓ n the count over all parties is at most / at least `total`.
  const sure = parties.map((party) => slotsAbove(party.votes, voteSum, seats2 - n));
  const reach = parties.map((party) => slotsAbove(party.votes, voteSum, seats2 + n));

  const seats = new Map(parties.map((party, i) => [party.name, sure[i]!]));
  // Built field by field: an object spread per slot costs more than all the rest of the apportionment.
  const undecided: Slot[] = [];
  parties.forEach(({ name, votes }, i) => {
    for (let held = sure[i]!; held < reach[i]!; held++) undecided.push({ name, votes, seats: held });
  });
  const open = total - sure.reduce((sum, count) => sum + count, 0);
  for (const slot of undecided.sort(slotOrder(ties)).slice(0, open)) {
    seats.set(slot.name, slot.seats + 1);
  }

  return [...seats]
    .filter(([, replicas]) => replicas > 0)
    .map(([name, replicas]) => ({ name, replicas }))
    .sort(byName);
}

/**
 * How many of a party's slots have priority strictly above voteSum / m: those with 2k + 1 < votes·m / voteSum.
 * The number of odd integers below a positive q is ⌊⌈q⌉ / 2⌋.
 */
function slotsAbove(votes: bigint, voteSum: bigint, m: bigint): number {
  if (m <= 0n) return 0;
  const ceilQ = (votes * m + voteSum - 1n) / voteSum;
  return Number(ceilQ / 2n);
}

/** Karmada's seat order: higher priority first, then fewer seats already held, then name in the tie order. */
function slotOrder(ties: TieOrder): (a: Slot, b: Slot) => number {
  const direction = ties === 'name-ascending' ? 1 : -1;
  return (a, b) => {
    // 2·seats + 1 in bigint: seats may approach 2^53, where doubling as a number would round.
    const left = a.votes * (2n * BigInt(b.seats) + 1n);
    const right = b.votes * (2n * BigInt(a.seats) + 1n);
    if (left !== right) return left > right ? -1 : 1;
    if (a.seats !== b.seats) return a.seats - b.seats;
    return direction * byName(a, b);
  };
}
