/**
 * What a cluster's residents that may be victims free, by priority (binding priority and preemption (000),
 * "Preemption scenario": only preemptible ResourceBindings that request resources are victims): the bounds
 * of one-cluster-search.ts read it instead of the residents, and the snapshot keeps it as they come and go.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fewestReaching, KEPT_AMOUNTS, VictimAmountsLedger, type VictimAmounts } from '../../../lib/scheduler/preemption/victim-amounts';
import { bindingKeyOf, SchedulingSnapshot } from '../../../lib/scheduler/snapshot';
import { binding, cluster } from './support';

interface Resident {
  readonly priority: number;
  readonly amount: number;
}

/** The definition, from the residents themselves: at each priority held, the largest amounts of that priority or lower. */
function amountsOf(residents: readonly Resident[]): VictimAmounts {
  const priorities = [...new Set(residents.map((r) => r.priority))].sort((a, b) => a - b);
  const largest = priorities.flatMap((priority) => {
    const sizes = residents.filter((r) => r.priority <= priority && r.amount > 0).map((r) => r.amount).sort((a, b) => b - a);
    return Array.from({ length: KEPT_AMOUNTS }, (_, m) => sizes[m] ?? 0);
  });
  // Summed as integers without rounding: a sum of doubles past 2^53 may round below the limit.
  const exact = residents.every((r) => Number.isInteger(r.amount)) && residents.reduce((sum, r) => sum + BigInt(Math.abs(r.amount)), 0n) <= 2n ** 52n;
  return { priorities: Float64Array.from(priorities), largest: Float64Array.from(largest), exact };
}

describe('victim amounts (binding priority and preemption (000))', () => {
  it('keep, at each priority, the largest amounts of that priority or lower, of the residents that may be victims only', () => {
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: 100 } })],
      [
        binding('a', { priority: 0, request: { cpu: 1 }, clusters: { m1: 3 } }),
        binding('b', { priority: 0, request: { cpu: 2 }, clusters: { m1: 1 } }),
        binding('c', { priority: 5, request: { cpu: 10 }, preemptible: false, clusters: { m1: 1 } }),
        binding('d', { priority: 5, request: { cpu: 4 }, clusters: { m1: 2 } }),
        binding('e', { priority: 7, kind: 'ClusterResourceBinding', request: { cpu: 50 }, clusters: { m1: 1 } }),
        binding('f', { priority: 9, request: { cpu: 1 }, clusters: { m1: 1 } }),
      ],
    );
    const amounts = snapshot.victimAmounts(snapshot.clusters.get('m1')!, 'cpu');
    expect([...amounts.priorities]).toEqual([0, 5, 9]);
    // In millicores: a frees 3 × 1 cpu, b 2, d 2 × 4; c is not preemptible and e is a ClusterResourceBinding.
    expect([...amounts.largest]).toEqual([3000, 2000, 0, 0, 8000, 3000, 2000, 0, 8000, 3000, 2000, 1000]);
    expect(amounts.exact).toBe(true);
    // A resource nobody there requests: every priority held, nothing freed.
    expect([...snapshot.victimAmounts(snapshot.clusters.get('m1')!, 'nvidia.com/gpu').largest]).toEqual(new Array(3 * KEPT_AMOUNTS).fill(0));

    // d evicted: its priority stays held by c alone, which may not be a victim, so the level goes.
    const { clusters: _evicted, ...spec } = binding('d', { priority: 5, request: { cpu: 4 }, clusters: { m1: 2 } }).spec;
    snapshot.upsert({ ...binding('d', { priority: 5, request: { cpu: 4 } }), spec });
    const after = snapshot.victimAmounts(snapshot.clusters.get('m1')!, 'cpu');
    expect([...after.priorities]).toEqual([0, 9]);
    expect([...after.largest]).toEqual([3000, 2000, 0, 0, 3000, 2000, 1000, 0]);
    snapshot.remove(bindingKeyOf(binding('a')));
    expect([...snapshot.victimAmounts(snapshot.clusters.get('m1')!, 'cpu').largest]).toEqual([2000, 0, 0, 0, 2000, 1000, 0, 0]);
  });

  it('stay what the residents held then give, through arrivals and departures read at any point (exact only for integer amounts)', () => {
    const arrival = fc.record({
      priority: fc.integer({ min: -2, max: 4 }),
      // Past 2^52 on their own or together: 2^52 + 1 and 2^52 sum to 2^53 + 1, which a double rounds to 2^53.
      amount: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.constantFrom(0.5, 2 ** 51, 2 ** 52, 2 ** 52 + 1, -1)),
      replicas: fc.integer({ min: 1, max: 3 }),
    }).filter(({ amount, replicas }) => Number.isSafeInteger(amount * replicas) || !Number.isInteger(amount));
    const step = fc.oneof(
      arrival.map((resident) => ({ arrive: resident })),
      fc.nat().map((which) => ({ leave: which })),
      fc.constant({ read: true as const }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        const ledger = new VictimAmountsLedger();
        const present: Array<{ priority: number; amount: number; replicas: number }> = [];
        const check = () => {
          const expected = amountsOf(present.map(({ priority, amount, replicas }) => ({ priority, amount: amount * replicas })));
          const actual = ledger.amounts('cpu');
          expect([...actual.priorities]).toEqual([...expected.priorities]);
          expect([...actual.largest]).toEqual([...expected.largest]);
          expect(actual.exact).toBe(expected.exact);
        };
        for (const s of steps) {
          if ('arrive' in s) {
            present.push(s.arrive);
            ledger.add(s.arrive.priority, { cpu: s.arrive.amount, pods: 1 }, s.arrive.replicas);
          } else if ('leave' in s) {
            if (present.length === 0) continue;
            const [gone] = present.splice(s.leave % present.length, 1);
            ledger.remove(gone!.priority, { cpu: gone!.amount, pods: 1 }, gone!.replicas);
          } else {
            check();
          }
        }
        check();
      }),
      { numRuns: 1_000 },
    );
  });

  it('are exact again once the amounts left sum below 2^52, though their total once rounded at 2^53', () => {
    const ledger = new VictimAmountsLedger();
    ledger.add(0, { memory: 2 ** 52 + 1 }, 1);
    ledger.add(0, { memory: 2 ** 52 }, 1);
    // 2^53 + 1 as a double is 2^53: the total kept may have lost the 1.
    expect(ledger.amounts('memory').exact).toBe(false);
    ledger.remove(0, { memory: 2 ** 52 }, 1);
    expect(ledger.amounts('memory').exact).toBe(false);
    ledger.remove(0, { memory: 2 ** 52 + 1 }, 1);
    ledger.add(0, { memory: 2 ** 52 }, 1);
    expect(ledger.amounts('memory').exact).toBe(true);
  });

  it('refuses to take away an amount it never held', () => {
    const ledger = new VictimAmountsLedger();
    ledger.add(0, { cpu: 1000, pods: 1 }, 1);
    expect(() => ledger.remove(0, { cpu: 2000, pods: 1 }, 1)).toThrow(/2000 of cpu at priority 0 was never added/);
  });

  it('count a binding that names a cluster twice once, by its last entry, and forget it whole', () => {
    const twice = binding('d', { priority: 1, request: { cpu: 1 }, clusters: { m1: 1 } });
    const snapshot = new SchedulingSnapshot(
      [cluster('m1', { allocatable: { cpu: 100 } })],
      [{ ...twice, spec: { ...twice.spec, clusters: [{ name: 'm1', replicas: 1 }, { name: 'm1', replicas: 2 }] } }],
    );
    const m1 = snapshot.clusters.get('m1')!;
    expect(m1.placed).toEqual({ cpu: 2000, pods: 2 });
    expect([...snapshot.victimAmounts(m1, 'cpu').largest]).toEqual([2000, 0, 0, 0]);
    snapshot.remove(bindingKeyOf(twice));
    expect(m1.placed).toEqual({ cpu: 0, pods: 0 });
    expect([...snapshot.victimAmounts(m1, 'cpu').priorities]).toEqual([]);
  });

  it('fewestReaching never passes the fewest amounts that sum to the gap, and meets it within the amounts kept', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 12 }), fc.integer({ min: 0, max: 120 }), (amounts, gap) => {
        const sorted = [...amounts].sort((a, b) => b - a);
        const kept = Float64Array.from({ length: KEPT_AMOUNTS }, (_, m) => sorted[m] ?? 0);
        let sum = 0;
        let fewest = gap <= 0 ? 0 : Number.POSITIVE_INFINITY;
        for (let m = 0; m < sorted.length && fewest === Number.POSITIVE_INFINITY; m++) if ((sum += sorted[m]!) >= gap) fewest = m + 1;
        const bound = fewestReaching(kept, 0, gap);
        expect(bound).toBeLessThanOrEqual(fewest);
        if (fewest <= KEPT_AMOUNTS) expect(bound).toBe(fewest);
      }),
      { numRuns: 2_000 },
    );
  });
});
