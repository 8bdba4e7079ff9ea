/**
 * Mirrors Karmada's Webster (Sainte-Laguë) seat allocation, pkg/util/helper/webstermethod.go (AllocateWebsterSeats)
 * as called by Dispenser.AllocateByWeight in pkg/util/helper/binding.go: seats go one at a time to the largest
 * votes / (2·seats + 1); ties go to the party with fewer seats, then to the smaller name.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { websterApportion, type ApportionWeight } from '../../../../lib/scheduler/divide/webster';
import { clusterName, permutation } from './support';

interface Party {
  readonly name: string;
  readonly votes: number;
  seats: number;
}

/** Karmada's heap order, transcribed literally (float64 priorities, as Karmada computes them). */
function karmadaGoesFirst(a: Party, b: Party): boolean {
  const aPriority = a.votes / (2 * a.seats + 1);
  const bPriority = b.votes / (2 * b.seats + 1);
  if (aPriority !== bPriority) return aPriority > bPriority;
  if (a.seats !== b.seats) return a.seats < b.seats;
  return a.name < b.name;
}

/** Seat-by-seat reference: O(total × n), only usable for small totals. */
function websterSeatBySeat(total: number, weights: readonly ApportionWeight[]) {
  const parties: Party[] = weights.filter((w) => w.weight > 0).map((w) => ({ name: w.name, votes: w.weight, seats: 0 }));
  if (parties.length === 0) return [];
  for (let seat = 0; seat < total; seat++) {
    const winner = parties.reduce((best, party) => (karmadaGoesFirst(party, best) ? party : best));
    winner.seats++;
  }
  return parties
    .filter((party) => party.seats > 0)
    .map((party) => ({ name: party.name, replicas: party.seats }))
    .sort((a, b) => (a.name < b.name ? -1 : 1));
}

/**
 * Exact "no better seat left out" check for weights too large for float64 ties: no party's next seat may come
 * before any party's last seat in Karmada's order. Together with the sum, this characterises the allocation.
 */
function isWebsterOptimal(total: number, weights: readonly ApportionWeight[], seatsOf: Map<string, number>): boolean {
  const positive = weights.filter((w) => w.weight > 0);
  const before = (a: ApportionWeight, aSeats: number, b: ApportionWeight, bSeats: number): boolean => {
    const left = BigInt(a.weight) * (2n * BigInt(bSeats) + 1n);
    const right = BigInt(b.weight) * (2n * BigInt(aSeats) + 1n);
    if (left !== right) return left > right;
    if (aSeats !== bSeats) return aSeats < bSeats;
    return a.name < b.name;
  };
  const sum = [...seatsOf.values()].reduce((s, v) => s + v, 0);
  if (sum !== total) return false;
  return positive.every((holder) => {
    const held = seatsOf.get(holder.name) ?? 0;
    if (held === 0) return true;
    return positive.every(
      (challenger) =>
        challenger === holder || !before(challenger, seatsOf.get(challenger.name) ?? 0, holder, held - 1),
    );
  });
}

const weightList = (maxWeight: number) =>
  fc.uniqueArray(fc.record({ name: clusterName, weight: fc.integer({ min: -2, max: maxWeight }) }), {
    selector: (w) => w.name,
    maxLength: 8,
  });

const w = (spec: Record<string, number>): ApportionWeight[] =>
  Object.entries(spec).map(([name, weight]) => ({ name, weight }));

describe('websterApportion', () => {
  it.each([
    // Karmada's StaticWeight doc table: 9 at 1:2 → 3:6, 9 at 1:3 → 2:7 (the latter needs the fewer-seats tie-break).
    { total: 3, weights: w({ a: 1, b: 2 }), want: { a: 1, b: 2 } },
    { total: 4, weights: w({ a: 1, b: 2 }), want: { a: 1, b: 3 } },
    { total: 5, weights: w({ a: 1, b: 2 }), want: { a: 2, b: 3 } },
    { total: 9, weights: w({ a: 1, b: 2 }), want: { a: 3, b: 6 } },
    { total: 9, weights: w({ a: 1, b: 3 }), want: { a: 2, b: 7 } },
    // Karmada's assignment_test: static 3:2:1 with 12, 13, 14 replicas.
    { total: 12, weights: w({ m1: 3, m2: 2, m3: 1 }), want: { m1: 6, m2: 4, m3: 2 } },
    { total: 13, weights: w({ m1: 3, m2: 2, m3: 1 }), want: { m1: 7, m2: 4, m3: 2 } },
    { total: 14, weights: w({ m1: 3, m2: 2, m3: 1 }), want: { m1: 7, m2: 5, m3: 2 } },
    // Wikipedia's Sainte-Laguë example, used by Karmada's webstermethod_test.
    { total: 8, weights: w({ A: 100000, B: 80000, C: 30000, D: 20000 }), want: { A: 3, B: 3, C: 1, D: 1 } },
    { total: 4, weights: w({ Alpha: 1200, Beta: 900, Gamma: 400 }), want: { Alpha: 2, Beta: 1, Gamma: 1 } },
    // Equal priority 3/3 = 1/1: the party holding fewer seats (the lighter one) wins, not the heavier one.
    { total: 2, weights: w({ a: 1, b: 3 }), want: { a: 1, b: 1 } },
    // Equal priority and seats: the smaller name wins.
    { total: 1, weights: w({ b: 1, a: 1 }), want: { a: 1 } },
    { total: 3, weights: w({ c: 5, a: 5, b: 5 }), want: { a: 1, b: 1, c: 1 } },
    { total: 4, weights: w({ c: 5, a: 5, b: 5 }), want: { a: 2, b: 1, c: 1 } },
    // Zero and negative weights get nothing; no positive weight means nothing to apportion.
    { total: 5, weights: w({ a: 0, b: -3, c: 2 }), want: { c: 5 } },
    { total: 5, weights: w({ a: 0, b: -1 }), want: {} },
    { total: 5, weights: [], want: {} },
    { total: 0, weights: w({ a: 1, b: 2 }), want: {} },
  ])('$total seats at $weights.length weights → $want', ({ total, weights, want }) => {
    expect(websterApportion(total, weights)).toEqual(
      Object.entries(want).map(([name, replicas]) => ({ name, replicas })),
    );
  });

  it.each([
    { total: -1, weights: w({ a: 1 }) },
    { total: 1.5, weights: w({ a: 1 }) },
    { total: 1, weights: w({ a: 0.5 }) },
    { total: 1, weights: w({ a: Number.NaN }) },
    { total: 1, weights: [...w({ a: 1 }), ...w({ a: 2 })] },
  ])('rejects malformed input %#', ({ total, weights }) => {
    expect(() => websterApportion(total, weights)).toThrow(RangeError);
  });

  it('equals the seat-by-seat reference', () => {
    fc.assert(
      fc.property(fc.nat({ max: 300 }), weightList(60), (total, weights) => {
        expect(websterApportion(total, weights)).toEqual(websterSeatBySeat(total, weights));
      }),
      { numRuns: 1000 },
    );
  });

  it('equals the seat-by-seat reference with wide weights', () => {
    fc.assert(
      fc.property(fc.nat({ max: 200 }), weightList(10_000), (total, weights) => {
        expect(websterApportion(total, weights)).toEqual(websterSeatBySeat(total, weights));
      }),
    );
  });

  it('stays exact for totals and weights far beyond float64-safe products', () => {
    const big = fc.uniqueArray(
      fc.record({ name: clusterName, weight: fc.oneof(fc.integer({ min: 1, max: 2 ** 31 }), fc.constant(2 ** 31)) }),
      { selector: (x) => x.name, minLength: 1, maxLength: 8 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), big, (total, weights) => {
        const seats = new Map(websterApportion(total, weights).map((t) => [t.name, t.replicas]));
        expect(isWebsterOptimal(total, weights, seats)).toBe(true);
      }),
    );
  });

  it('does not depend on the order of the weights', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 1000 }),
        weightList(50).chain((weights) => fc.tuple(fc.constant(weights), permutation(weights))),
        (total, [weights, shuffled]) => {
          expect(websterApportion(total, shuffled)).toEqual(websterApportion(total, weights));
        },
      ),
    );
  });

  // Completing at all shows it does not go seat by seat; speed is measured by the benchmarks, not here.
  it('apportions a billion seats over a thousand clusters exactly', () => {
    const weights = Array.from({ length: 1000 }, (_, i) => ({
      name: `cluster-${String(i).padStart(4, '0')}`,
      weight: ((i * 7919) % 997) + 1,
    }));
    const total = 1_000_000_007;
    const result = websterApportion(total, weights);
    expect(isWebsterOptimal(total, weights, new Map(result.map((t) => [t.name, t.replicas])))).toBe(true);
  });
});
