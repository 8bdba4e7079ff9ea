import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bruteForceVictims,
  compareVictimKeys,
  greedyReprieveVictims,
  selectVictims,
  victimKey,
  type FeasibilityOracle,
  type VictimCandidate,
} from '../../../lib/scheduler/preemption/victim-search';

const SPEC = 'binding priority and preemption (000)';

type Vector = readonly number[];

/** Resources a binding occupies (or a preemptor needs) on one cluster. */
interface Placement {
  readonly cluster: number;
  readonly amount: Vector;
}

interface Binding extends VictimCandidate {
  readonly placements: readonly Placement[];
}

type Demand =
  /** Every listed amount must fit on its cluster. */
  | { readonly kind: 'each'; readonly needs: readonly Placement[] }
  /** Divided replicas: sum over clusters of floor(free / request) >= replicas. */
  | { readonly kind: 'pooled'; readonly request: Vector; readonly replicas: number };

interface Scenario {
  readonly capacity: readonly Vector[];
  readonly bindings: readonly Binding[];
  readonly demand: Demand;
}

/** Multi-cluster, multi-resource test oracle; rejects misuse (double evict/restore). */
class ResourceOracle implements FeasibilityOracle {
  calls = 0;
  private readonly free: number[][];
  private readonly evicted: boolean[];
  private readonly scenario: Scenario;

  constructor(scenario: Scenario) {
    this.scenario = scenario;
    this.free = scenario.capacity.map((vector) => [...vector]);
    this.evicted = scenario.bindings.map(() => false);
    scenario.bindings.forEach((_, index) => this.shift(index, -1));
  }

  evict(index: number): void {
    if (this.evicted[index] !== false) throw new Error(`evict(${index}) twice or out of range`);
    this.evicted[index] = true;
    this.shift(index, 1);
  }

  restore(index: number): void {
    if (this.evicted[index] !== true) throw new Error(`restore(${index}) of a running binding`);
    this.evicted[index] = false;
    this.shift(index, -1);
  }

  feasible(): boolean {
    this.calls++;
    const { demand } = this.scenario;
    return demand.kind === 'each' ? this.fitsEach(demand.needs) : this.pooledReplicas(demand.request) >= demand.replicas;
  }

  evictedCount(): number {
    return this.evicted.filter(Boolean).length;
  }

  private fitsEach(needs: readonly Placement[]): boolean {
    return needs.every(({ cluster, amount }) => amount.every((value, r) => this.freeAt(cluster, r) >= value));
  }

  private pooledReplicas(request: Vector): number {
    let replicas = 0;
    for (let cluster = 0; cluster < this.free.length; cluster++) {
      let fit = Number.POSITIVE_INFINITY;
      request.forEach((value, r) => {
        if (value > 0) fit = Math.min(fit, Math.floor(Math.max(0, this.freeAt(cluster, r)) / value));
      });
      replicas += fit;
    }
    return replicas;
  }

  private freeAt(cluster: number, resource: number): number {
    return this.free[cluster]?.[resource] ?? 0;
  }

  private shift(index: number, sign: 1 | -1): void {
    for (const { cluster, amount } of this.scenario.bindings[index]?.placements ?? []) {
      const free = this.free[cluster];
      if (free === undefined) throw new Error(`binding ${index} on unknown cluster ${cluster}`);
      amount.forEach((value, r) => {
        free[r] = (free[r] ?? 0) + sign * value;
      });
    }
  }
}

function feasibleAfter(scenario: Scenario, victims: readonly number[]): boolean {
  const oracle = new ResourceOracle(scenario);
  victims.forEach((index) => oracle.evict(index));
  return oracle.feasible();
}

/** One cluster, one resource: `bindings` are [priority, request]; the preemptor needs `need`. */
function singlePool(capacity: number, bindings: readonly (readonly [number, number])[], need: number): Scenario {
  return {
    capacity: [[capacity]],
    bindings: bindings.map(([priority, request], index) => ({
      key: `b${index}`,
      priority,
      placements: [{ cluster: 0, amount: [request] }],
    })),
    demand: { kind: 'each', needs: [{ cluster: 0, amount: [need] }] },
  };
}

/** One cluster, several resources: `bindings` are [key, priority, usage]. */
function singleCluster(
  capacity: Vector,
  bindings: readonly (readonly [string, number, Vector])[],
  need: Vector,
): Scenario {
  return {
    capacity: [capacity],
    bindings: bindings.map(([key, priority, amount]) => ({ key, priority, placements: [{ cluster: 0, amount }] })),
    demand: { kind: 'each', needs: [{ cluster: 0, amount: need }] },
  };
}

function select(scenario: Scenario, searchBudget?: number) {
  const oracle = new ResourceOracle(scenario);
  const selection = selectVictims(scenario.bindings, oracle, searchBudget === undefined ? undefined : { searchBudget });
  expect(oracle.evictedCount()).toBe(0);
  return { selection, calls: oracle.calls };
}

function greedy(scenario: Scenario): number[] | null {
  return greedyReprieveVictims(scenario.bindings, new ResourceOracle(scenario));
}

function brute(scenario: Scenario): number[] | null {
  return bruteForceVictims(scenario.bindings, new ResourceOracle(scenario));
}

interface TableCase {
  readonly name: string;
  readonly scenario: Scenario;
  readonly victims: number[] | null;
  readonly greedy: number[] | null;
}

const table: readonly TableCase[] = [
  {
    name: `${SPEC} example: capacity 10, priorities 0..3 requesting 1,2,5,2, need 5 → only the priority-2 binding`,
    scenario: singlePool(10, [[0, 1], [1, 2], [2, 5], [3, 2]], 5),
    victims: [2],
    greedy: [2],
  },
  {
    name: `${SPEC}: fewer victims beat lower priorities (one priority-3 binding, not two lower ones)`,
    scenario: singlePool(10, [[0, 2], [1, 3], [3, 5]], 5),
    victims: [2],
    greedy: [0, 1],
  },
  {
    name: `${SPEC}: equal counts go to the lower highest victim priority`,
    scenario: singlePool(10, [[5, 4], [3, 4], [0, 2]], 4),
    victims: [1],
    greedy: [1],
  },
  {
    name: `${SPEC}: equal count and highest priority go to the lower priority sum`,
    scenario: singlePool(10, [[4, 3], [0, 2], [3, 2], [9, 3]], 5),
    victims: [0, 1],
    greedy: [0, 1],
  },
  {
    name: `${SPEC}: count, then max, then sum — greedy keeps the big binding and evicts three`,
    scenario: singlePool(10, [[4, 4], [0, 2], [2, 2], [1, 2]], 6),
    victims: [0, 1],
    greedy: [1, 2, 3],
  },
  {
    // cpu is full: one of z/y must go; z frees enough memory to pair with the smallest binding.
    name: `${SPEC}: equal count and highest priority — the exact search finds the lower sum the greedy misses`,
    scenario: singleCluster(
      [5, 12],
      [
        ['a', 2, [0, 1]],
        ['z', 9, [3, 2]],
        ['b', 3, [0, 5]],
        ['c', 4, [0, 3]],
        ['y', 9, [2, 1]],
      ],
      [1, 3],
    ),
    victims: [0, 1],
    greedy: [2, 4],
  },
  {
    // {a, z} and {b, y} tie on (2, 4, 5); y comes before z, so {b, y}, although a comes before b.
    name: 'equal count, highest priority and sum go to the set whose most important victim comes first by key',
    scenario: singleCluster(
      [5, 12],
      [
        ['a', 1, [0, 1]],
        ['z', 4, [3, 2]],
        ['b', 1, [0, 5]],
        ['c', 1, [0, 3]],
        ['y', 4, [2, 1]],
      ],
      [1, 3],
    ),
    victims: [2, 4],
    greedy: [2, 4],
  },
  {
    // {s, a} and {s, b} tie on (2, 5, 6) and share their most important victim; a comes before b.
    name: 'a tie on the most important victim goes on to the next one',
    scenario: singleCluster(
      [5],
      [
        ['s', 5, [2]],
        ['b', 1, [1]],
        ['a', 1, [1]],
        ['t', 5, [1]],
      ],
      [3],
    ),
    victims: [0, 2],
    greedy: [0, 2],
  },
  {
    name: 'full ties go to the smallest key',
    scenario: {
      ...singlePool(10, [[1, 5], [1, 5]], 5),
      bindings: [
        { key: 'zeta', priority: 1, placements: [{ cluster: 0, amount: [5] }] },
        { key: 'alpha', priority: 1, placements: [{ cluster: 0, amount: [5] }] },
      ],
    },
    victims: [1],
    greedy: [1],
  },
  {
    name: 'null when even evicting every candidate is not enough',
    scenario: singlePool(10, [[0, 4], [1, 6]], 11),
    victims: null,
    greedy: null,
  },
  {
    name: 'empty when the preemptor already fits',
    scenario: singlePool(10, [[0, 4], [1, 4]], 2),
    victims: [],
    greedy: [],
  },
  {
    name: `${SPEC}: one multi-cluster binding beats two single-cluster ones (needs on two clusters)`,
    scenario: {
      capacity: [
        [4, 8],
        [4, 8],
      ],
      bindings: [
        { key: 'a', priority: 0, placements: [{ cluster: 0, amount: [2, 4] }] },
        { key: 'b', priority: 0, placements: [{ cluster: 1, amount: [2, 4] }] },
        {
          key: 'span',
          priority: 5,
          placements: [
            { cluster: 0, amount: [2, 4] },
            { cluster: 1, amount: [2, 4] },
          ],
        },
      ],
      demand: {
        kind: 'each',
        needs: [
          { cluster: 0, amount: [2, 4] },
          { cluster: 1, amount: [2, 4] },
        ],
      },
    },
    victims: [2],
    greedy: [0, 1],
  },
  {
    name: `${SPEC}: pooled replicas across clusters — emptying one cluster beats two lower-priority victims`,
    scenario: {
      capacity: [[6], [6]],
      bindings: [
        { key: 'a', priority: 0, placements: [{ cluster: 0, amount: [2] }] },
        { key: 'b', priority: 1, placements: [{ cluster: 0, amount: [4] }] },
        { key: 'h', priority: 3, placements: [{ cluster: 1, amount: [6] }] },
      ],
      demand: { kind: 'pooled', request: [2], replicas: 3 },
    },
    victims: [2],
    greedy: [0, 1],
  },
];

describe(`victim search (${SPEC}, "Preemption order")`, () => {
  it.each(table)('$name', ({ scenario, victims, greedy: greedyVictims }) => {
    const { selection } = select(scenario);
    expect(selection).toEqual(victims === null ? null : { victims, exact: true });
    expect(brute(scenario)).toEqual(victims);
    expect(greedy(scenario)).toEqual(greedyVictims);
  });

  it(`${SPEC}: with no budget the greedy answer comes back, not marked exact`, () => {
    const scenario = singlePool(10, [[0, 2], [1, 3], [3, 5]], 5);
    expect(select(scenario, 0).selection).toEqual({ victims: [0, 1], exact: false });
  });

  it('rejects a negative budget and non-finite priorities', () => {
    const scenario = singlePool(10, [[0, 2]], 9);
    expect(() => selectVictims(scenario.bindings, new ResourceOracle(scenario), { searchBudget: -1 })).toThrow(RangeError);
    const broken = { ...scenario, bindings: [{ ...scenario.bindings[0]!, priority: Number.NaN }] };
    expect(() => selectVictims(broken.bindings, new ResourceOracle(broken))).toThrow(RangeError);
  });

  it('bruteForceVictims refuses more than 20 candidates', () => {
    const scenario = singlePool(100, Array.from({ length: 21 }, () => [0, 1] as const), 1);
    expect(() => bruteForceVictims(scenario.bindings, new ResourceOracle(scenario))).toThrow(RangeError);
  });
});

describe(`victimKey / compareVictimKeys (${SPEC})`, () => {
  const candidates: VictimCandidate[] = [
    { key: 'a', priority: 3 },
    { key: 'b', priority: -1 },
    { key: 'c', priority: 2 },
  ];

  it('computes count, highest and summed priority', () => {
    expect(victimKey(candidates, [0, 1])).toEqual({ count: 2, maxPriority: 3, sumPriority: 2 });
    expect(victimKey(candidates, [])).toEqual({ count: 0, maxPriority: Number.NEGATIVE_INFINITY, sumPriority: 0 });
  });

  it('orders by count, then highest priority, then sum', () => {
    const key = (count: number, maxPriority: number, sumPriority: number) => ({ count, maxPriority, sumPriority });
    expect(compareVictimKeys(key(1, 9, 9), key(2, 0, 0))).toBeLessThan(0);
    expect(compareVictimKeys(key(2, 3, 9), key(2, 4, 4))).toBeLessThan(0);
    expect(compareVictimKeys(key(2, 4, 4), key(2, 4, 5))).toBeLessThan(0);
    expect(compareVictimKeys(key(2, 4, 4), key(2, 4, 4))).toBe(0);
    expect(compareVictimKeys(victimKey(candidates, []), victimKey(candidates, []))).toBe(0);
  });
});

const scenarioArbitrary: fc.Arbitrary<Scenario> = fc
  .record({ clusters: fc.integer({ min: 1, max: 3 }), resources: fc.integer({ min: 1, max: 3 }) })
  .chain(({ clusters, resources }) => {
    const vector = (max: number) => fc.array(fc.nat(max), { minLength: resources, maxLength: resources });
    const placement = (max: number) => fc.record({ cluster: fc.nat(clusters - 1), amount: vector(max) });
    const binding = fc.record({
      priority: fc.integer({ min: -2, max: 6 }),
      placements: fc.array(placement(6), { minLength: 1, maxLength: clusters }),
    });
    const demand: fc.Arbitrary<Demand> = fc.oneof(
      fc.record({ kind: fc.constant('each' as const), needs: fc.array(placement(8), { minLength: 1, maxLength: clusters }) }),
      fc.record({ kind: fc.constant('pooled' as const), request: vector(4), replicas: fc.integer({ min: 1, max: 6 }) }),
    );
    const bindings = fc
      .array(binding, { maxLength: 10 })
      .chain((drafts) =>
        fc
          .shuffledSubarray(
            drafts.map((_, index) => index),
            { minLength: drafts.length, maxLength: drafts.length },
          )
          .map((ids) => drafts.map((draft, index) => ({ ...draft, key: `b${ids[index]}` }))),
      );
    return fc.record({
      capacity: fc.array(vector(14), { minLength: clusters, maxLength: clusters }),
      bindings,
      demand,
    });
  });

function keyOf(scenario: Scenario, victims: readonly number[]) {
  return victimKey(scenario.bindings, victims);
}

describe(`victim search properties (${SPEC})`, () => {
  it('is feasible, matches the brute-force minimum exactly, and never loses to the greedy', () => {
    fc.assert(
      fc.property(scenarioArbitrary, (scenario) => {
        const expected = brute(scenario);
        const { selection } = select(scenario);
        if (expected === null) {
          expect(selection).toBeNull();
          expect(greedy(scenario)).toBeNull();
          return;
        }
        expect(selection).toEqual({ victims: expected, exact: true });
        expect(feasibleAfter(scenario, expected)).toBe(true);
        const greedyVictims = greedy(scenario);
        expect(greedyVictims).not.toBeNull();
        expect(feasibleAfter(scenario, greedyVictims!)).toBe(true);
        expect(compareVictimKeys(keyOf(scenario, expected), keyOf(scenario, greedyVictims!))).toBeLessThanOrEqual(0);
      }),
      { numRuns: 3000 },
    );
  });

  it('searching only sets of a given size: none below the brute-force minimum, and at it the brute-force minimum', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.nat(3), (scenario, below) => {
        const expected = brute(scenario);
        if (expected === null || expected.length === 0) return;
        const count = Math.max(1, expected.length - below);
        const oracle = new ResourceOracle(scenario);
        const selection = selectVictims(scenario.bindings, oracle, { onlyCount: count });
        expect(oracle.evictedCount()).toBe(0);
        expect(selection).toEqual(count === expected.length ? { victims: expected, exact: true } : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('searching within a key found elsewhere: the brute-force minimum when its key is no greater, else nothing', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.integer({ min: -1, max: 1 }), fc.integer({ min: -2, max: 2 }), fc.integer({ min: -3, max: 3 }), (scenario, dCount, dMax, dSum) => {
        const expected = brute(scenario);
        if (expected === null || expected.length === 0) return;
        const best = keyOf(scenario, expected);
        const within = { count: Math.max(1, best.count + dCount), maxPriority: best.maxPriority + dMax, sumPriority: best.sumPriority + dSum };
        const oracle = new ResourceOracle(scenario);
        const selection = selectVictims(scenario.bindings, oracle, { within });
        expect(oracle.evictedCount()).toBe(0);
        expect(selection).toEqual(compareVictimKeys(best, within) <= 0 ? { victims: expected, exact: true } : null);
      }),
      { numRuns: 2000 },
    );
  });

  it('with a tight budget stays feasible, within budget and no worse than the greedy', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.nat(60), (scenario, searchBudget) => {
        const { selection, calls } = select(scenario, searchBudget);
        const greedyVictims = greedy(scenario);
        expect(calls).toBeLessThanOrEqual(Math.max(searchBudget, scenario.bindings.length + 1));
        if (greedyVictims === null) {
          expect(selection).toBeNull();
          return;
        }
        expect(selection).not.toBeNull();
        expect(feasibleAfter(scenario, selection!.victims)).toBe(true);
        expect(compareVictimKeys(keyOf(scenario, selection!.victims), keyOf(scenario, greedyVictims))).toBeLessThanOrEqual(0);
        if (selection!.exact) expect(selection!.victims).toEqual(brute(scenario));
      }),
      { numRuns: 1500 },
    );
  });

  it('is deterministic: permuting the candidates yields the same victim keys', () => {
    fc.assert(
      fc.property(
        scenarioArbitrary.chain((scenario) =>
          fc.tuple(fc.constant(scenario), fc.shuffledSubarray([...scenario.bindings], { minLength: scenario.bindings.length, maxLength: scenario.bindings.length })),
        ),
        ([scenario, permuted]) => {
          const ids = (s: Scenario, victims: readonly number[] | undefined) => victims?.map((index) => s.bindings[index]!.key).sort();
          const shuffled: Scenario = { ...scenario, bindings: permuted };
          expect(ids(shuffled, select(shuffled).selection?.victims)).toEqual(ids(scenario, select(scenario).selection?.victims));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

/**
 * ResourceOracle with FeasibilityOracle.lowerBound: the fewest more victims any feasible set of the
 * evicted ones and candidates below the limit has (worked out from every subset), less `slack`, so that
 * the search meets exact bounds and loose ones.
 */
class BoundedOracle implements FeasibilityOracle {
  readonly inner: ResourceOracle;
  private readonly feasibleSets: boolean[];
  /** By limit: fewest[mask], worked out when first asked. */
  private readonly fewest = new Map<number, number[]>();
  private readonly slack: number;
  private readonly size: number;

  constructor(scenario: Scenario, slack: number) {
    this.inner = new ResourceOracle(scenario);
    this.slack = slack;
    this.size = scenario.bindings.length;
    this.feasibleSets = Array.from({ length: 1 << this.size }, (_, mask) => feasibleAfter(scenario, bitsOf(mask, this.size)));
  }

  private fewestBelow(below: number): number[] {
    let fewest = this.fewest.get(below);
    if (!fewest) {
      fewest = new Array<number>(1 << this.size).fill(Number.POSITIVE_INFINITY);
      for (let mask = (1 << this.size) - 1; mask >= 0; mask--) {
        if (this.feasibleSets[mask]) fewest[mask] = bitsOf(mask, this.size).length;
        for (let index = 0; index < Math.min(below, this.size); index++) {
          if ((mask & (1 << index)) === 0) fewest[mask] = Math.min(fewest[mask]!, fewest[mask | (1 << index)]!);
        }
      }
      this.fewest.set(below, fewest);
    }
    return fewest;
  }

  evict(index: number): void {
    this.inner.evict(index);
  }

  restore(index: number): void {
    this.inner.restore(index);
  }

  feasible(): boolean {
    return this.inner.feasible();
  }

  lowerBound(evicted: readonly number[], below: number): number {
    this.inner.calls++;
    const mask = evicted.reduce((bits, index) => bits | (1 << index), 0);
    return Math.max(0, this.fewestBelow(below)[mask]! - evicted.length - this.slack);
  }

  /** Exactly the single completions when there is no slack; with slack, every candidate below the limit. */
  completions(evicted: readonly number[], below: number): number[] {
    this.inner.calls++;
    const mask = evicted.reduce((bits, index) => bits | (1 << index), 0);
    const candidates = Array.from({ length: Math.min(below, this.size) }, (_, index) => index);
    return this.slack > 0 ? candidates : candidates.filter((index) => (mask & (1 << index)) === 0 && this.feasibleSets[mask | (1 << index)]);
  }
}

function bitsOf(mask: number, size: number): number[] {
  return Array.from({ length: size }, (_, index) => index).filter((index) => (mask & (1 << index)) !== 0);
}

/** The scenario with its bindings in search order (priority, then key), as the scheduler lists candidates. */
function inSearchOrder(scenario: Scenario): Scenario {
  const bindings = [...scenario.bindings].sort((a, b) => a.priority - b.priority || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { ...scenario, bindings };
}

function selectBounded(scenario: Scenario, slack: number, searchBudget?: number, ordered = false) {
  const oracle = new BoundedOracle(scenario, slack);
  const selection = selectVictims(scenario.bindings, oracle, { ...(searchBudget === undefined ? {} : { searchBudget }), inSearchOrder: ordered });
  expect(oracle.inner.evictedCount()).toBe(0);
  return { selection, calls: oracle.inner.calls };
}

describe(`victim search with an oracle that bounds the victim count (${SPEC})`, () => {
  it('finds the brute-force minimum with exact and loose bounds, candidates sorted or not, a single victim first when one is enough', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.nat(2), fc.boolean(), (drawn, slack, ordered) => {
        const scenario = ordered ? inSearchOrder(drawn) : drawn;
        const expected = brute(scenario);
        const { selection } = selectBounded(scenario, slack, undefined, ordered);
        expect(selection).toEqual(expected === null ? null : { victims: expected, exact: true });
      }),
      { numRuns: 2000 },
    );
  });

  it('with a tight budget stays feasible, within budget and no worse than the greedy', () => {
    fc.assert(
      fc.property(scenarioArbitrary, fc.nat(2), fc.nat(60), fc.boolean(), (drawn, slack, searchBudget, ordered) => {
        const scenario = ordered ? inSearchOrder(drawn) : drawn;
        const { selection, calls } = selectBounded(scenario, slack, searchBudget, ordered);
        const greedyVictims = greedy(scenario);
        expect(calls).toBeLessThanOrEqual(Math.max(searchBudget, scenario.bindings.length + 1));
        if (greedyVictims === null) {
          expect(selection).toBeNull();
          return;
        }
        expect(feasibleAfter(scenario, selection!.victims)).toBe(true);
        expect(compareVictimKeys(keyOf(scenario, selection!.victims), keyOf(scenario, greedyVictims))).toBeLessThanOrEqual(0);
        if (selection!.exact) expect(selection!.victims).toEqual(brute(scenario));
      }),
      { numRuns: 1500 },
    );
  });

  it(`${SPEC}: one victim enough goes to the lowest priority, then the first key, without the greedy`, () => {
    const scenario = singlePool(18, [[3, 5], [1, 5], [1, 6], [0, 2]], 5);
    const { selection, calls } = selectBounded(scenario, 0);
    expect(selection).toEqual({ victims: [1], exact: true });
    // The check with nothing evicted, the bound, then a bound and a check per candidate up to the answer.
    expect(calls).toBeLessThan(scenario.bindings.length + 1 + 2);
  });
});

/** Feasible once the evicted set contains one of `enough` (bit masks): any monotone rule, not only resources. */
class FamilyOracle implements FeasibilityOracle {
  private mask = 0;

  constructor(private readonly enough: readonly number[]) {}

  evict(index: number): void {
    this.mask |= 1 << index;
  }

  restore(index: number): void {
    this.mask &= ~(1 << index);
  }

  feasible(): boolean {
    return this.enough.some((set) => (this.mask & set) === set);
  }
}

describe(`victim search over any monotone feasibility rule (${SPEC})`, () => {
  const family = fc.record({
    priorities: fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 9 }),
    sets: fc.array(fc.nat(511), { minLength: 1, maxLength: 5 }),
  });

  it('matches the brute-force minimum, ties included, and never loses to the greedy', () => {
    fc.assert(
      fc.property(family, ({ priorities, sets }) => {
        const candidates = priorities.map((priority, index) => ({ key: `c${index}`, priority }));
        const enough = sets.map((set) => set & ((1 << candidates.length) - 1));
        const expected = bruteForceVictims(candidates, new FamilyOracle(enough));
        const selection = selectVictims(candidates, new FamilyOracle(enough));
        expect(selection).toEqual(expected === null ? null : { victims: expected, exact: true });
      }),
      { numRuns: 3000 },
    );
  });

  it('a tie with the starting set on its most important victim is settled by the next ones (found by the property)', () => {
    // Nine equal priorities; enough: {0,1,2,3,8}, {0,1,3,5,6,7} or {0,5,6,7,8}. The exchange step reaches
    // {0,5,6,7,8}; {0,1,2,3,8} shares its most important victim (8) and wins on the next (3 before 7).
    const candidates = Array.from({ length: 9 }, (_, index) => ({ key: `c${index}`, priority: 0 }));
    const enough = [0b100001111, 0b011101011, 0b111100001];
    expect(greedyReprieveVictims(candidates, new FamilyOracle(enough))).toEqual([0, 1, 3, 5, 6, 7]);
    expect(selectVictims(candidates, new FamilyOracle(enough))).toEqual({ victims: [0, 1, 2, 3, 8], exact: true });
  });
});

/** Deterministic pseudo-random source (mulberry32) for the large case. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function largeScenario(size: number, seed: number, demand: Demand): Scenario {
  const next = random(seed);
  const integer = (max: number) => Math.floor(next() * (max + 1));
  const bindings: Binding[] = Array.from({ length: size }, (_, index) => ({
    key: `binding-${String(index).padStart(3, '0')}`,
    priority: integer(20),
    placements: [{ cluster: integer(2), amount: [1 + integer(7), 1 + integer(15), 1] }],
  }));
  // Each cluster is exactly full, so any demand needs victims.
  const capacity = [0, 1, 2].map((cluster) =>
    [0, 1, 2].map((resource) =>
      bindings.reduce(
        (sum, { placements }) => sum + placements.reduce((s, p) => s + (p.cluster === cluster ? (p.amount[resource] ?? 0) : 0), 0),
        0,
      ),
    ),
  );
  return { capacity, bindings, demand };
}

describe(`victim search at scale (${SPEC})`, () => {
  const demands: readonly Demand[] = [
    { kind: 'each', needs: [{ cluster: 0, amount: [20, 40, 3] }, { cluster: 1, amount: [10, 30, 2] }] },
    { kind: 'pooled', request: [6, 11, 1], replicas: 5 },
  ];

  it.each(demands)('200 candidates ($kind demand) finish within budget, feasible and no worse than the greedy', (demand) => {
    const scenario = largeScenario(200, 7, demand);
    const searchBudget = 20_000;
    const { selection, calls } = select(scenario, searchBudget);
    const greedyVictims = greedy(scenario);
    expect(greedyVictims).not.toBeNull();
    expect(selection).not.toBeNull();
    expect(calls).toBeLessThanOrEqual(searchBudget);
    expect(feasibleAfter(scenario, selection!.victims)).toBe(true);
    expect(selection!.victims.length).toBeLessThanOrEqual(greedyVictims!.length);
    expect(compareVictimKeys(keyOf(scenario, selection!.victims), keyOf(scenario, greedyVictims!))).toBeLessThanOrEqual(0);
    expect(typeof selection!.exact).toBe('boolean');
  });

  it('200 candidates, one cluster: the budgeted search still finds fewer victims than the greedy', () => {
    const scenario = largeScenario(200, 7, { kind: 'each', needs: [{ cluster: 2, amount: [40, 60, 6] }] });
    const { selection } = select(scenario);
    expect(selection!.victims.length).toBeLessThan(greedy(scenario)!.length);
    expect(feasibleAfter(scenario, selection!.victims)).toBe(true);
  });
});
