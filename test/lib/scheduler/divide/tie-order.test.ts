/**
 * Webster's ties by the workload's UID, and Karmada's dispenser tables (pkg/util/helper/binding_test.go;
 * pkg/util/helper/webstermethod_test.go) as facts for websterApportion, each citing its case. Karmada lists parties
 * given no seat with 0; websterApportion leaves them out, as Karmada's scheduler does before writing a result
 * (pkg/scheduler/core/common.go, removeZeroReplicasCluster). The cases that start from seats already held (an
 * initial assignment) have no counterpart: neither Karmada's scheduler nor outrank divides from one (Karmada's
 * dynamicDivideReplicas passes none and adds the result to what is kept); the README lists them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fnv1a32, tieOrderOf, type TieOrder } from '../../../../lib/scheduler/divide/tie-order';
import { websterApportion } from '../../../../lib/scheduler/divide/webster';
import { clusterName } from './support';

/** binding_test.go's UIDs. */
const EVEN_UID = '4858ca61-3ff8-4095-8267-f3d059d8074c';
const ODD_UID = 'd43fdeeb-d750-4e2b-bee3-64eb94534f4c';

const weightsOf = (spec: Record<string, number>) => Object.entries(spec).map(([name, weight]) => ({ name, weight }));
const seats = (spec: Record<string, number>) =>
  Object.entries(spec)
    .filter(([, replicas]) => replicas > 0)
    .map(([name, replicas]) => ({ name, replicas }));

describe('tieOrderOf (binding.go, tieBreakerByUID)', () => {
  it('hashes with 32-bit FNV-1a, as Go hash/fnv New32a', () => {
    // The FNV reference values (draft-eastlake-fnv): "" and "a", "foobar".
    expect(fnv1a32('')).toBe(0x811c9dc5);
    expect(fnv1a32('a')).toBe(0xe40c292c);
    expect(fnv1a32('foobar')).toBe(0xbf9cf968);
    // Over the UTF-8 bytes, as Go's []byte(string).
    expect(fnv1a32('é')).toBe(Math.imul(Math.imul(0x811c9dc5 ^ 0xc3, 0x01000193) ^ 0xa9, 0x01000193) >>> 0);
  });

  it.each<[string, string | undefined, TieOrder]>([
    ['binding_test.go "evenUID"', EVEN_UID, 'name-ascending'],
    ['binding_test.go "oddUID"', ODD_UID, 'name-descending'],
    ['binding_test.go "emptyUID"', '', 'name-ascending'],
    ['no UID at all', undefined, 'name-ascending'],
  ])('%s: %s', (_, uid, order) => {
    expect(tieOrderOf(uid)).toBe(order);
  });
});

interface DispenserCase {
  readonly name: string;
  readonly replicas: number;
  readonly weights: Record<string, number>;
  readonly ties: TieOrder;
  readonly want: Record<string, number>;
}

describe('binding_test.go, Test_dispenser_AllocateByWeight, with no initial assignment', () => {
  it.each<DispenserCase>([
    { name: '"HA scenario with weight 2:1: assign 1 replica"', replicas: 1, weights: { A: 2, B: 1 }, ties: tieOrderOf(''), want: { A: 1, B: 0 } },
    { name: '"HA scenario with weight 2:1: assign 2 replicas"', replicas: 2, weights: { A: 2, B: 1 }, ties: tieOrderOf(''), want: { A: 1, B: 1 } },
    { name: '"HA scenario with weight 2:1: assign 3 replicas"', replicas: 3, weights: { A: 2, B: 1 }, ties: tieOrderOf(''), want: { A: 2, B: 1 } },
    { name: '"brand new assign 5 replicas"', replicas: 5, weights: { A: 170, B: 110, C: 60 }, ties: tieOrderOf(''), want: { A: 2, B: 2, C: 1 } },
    { name: '"brand new assign 6 replicas"', replicas: 6, weights: { A: 170, B: 110, C: 60 }, ties: tieOrderOf(''), want: { A: 3, B: 2, C: 1 } },
    { name: '"brand new assign 5 replicas with odd uuid"', replicas: 5, weights: { A: 1, B: 1 }, ties: tieOrderOf(ODD_UID), want: { A: 2, B: 3 } },
    { name: '"brand new assign 5 replicas with even uuid"', replicas: 5, weights: { A: 1, B: 1 }, ties: tieOrderOf(EVEN_UID), want: { A: 3, B: 2 } },
  ])('$name', ({ replicas, weights, ties, want }) => {
    expect(websterApportion(replicas, weightsOf(weights), ties)).toEqual(seats(want));
  });
});

describe('binding_test.go, TestDispenseReplicasByTargetClusters (SpreadReplicasByTargetClusters, no UID)', () => {
  it.each<{ name: string; sum: number; clusters: Record<string, number>; wants: Record<string, number>[] }>([
    { name: '"empty clusters"', sum: 10, clusters: {}, wants: [{}] },
    { name: '"1 cluster, 5 replicas, 10 sum"', sum: 10, clusters: { member1: 5 }, wants: [{ member1: 10 }] },
    { name: '"3 cluster, 1:1:1, 12 sum"', sum: 12, clusters: { member1: 5, member2: 5, member3: 5 }, wants: [{ member1: 4, member2: 4, member3: 4 }] },
    {
      name: '"3 cluster, 1:1:1, 10 sum"',
      sum: 10,
      clusters: { member1: 5, member2: 5, member3: 5 },
      wants: [
        { member1: 4, member2: 3, member3: 3 },
        { member1: 3, member2: 4, member3: 3 },
        { member1: 3, member2: 3, member3: 4 },
      ],
    },
    { name: '"3 cluster, 1:2:3, 13 sum"', sum: 13, clusters: { member1: 1, member2: 2, member3: 3 }, wants: [{ member1: 2, member2: 4, member3: 7 }] },
  ])('$name', ({ sum, clusters, wants }) => {
    expect(wants.map(seats)).toContainEqual(websterApportion(sum, weightsOf(clusters), tieOrderOf('')));
  });
});

describe('webstermethod_test.go, TestAllocateWebsterSeats, the tie-breaking cases with no initial assignment', () => {
  it.each<DispenserCase>([
    { name: '"tie-breaker is nil, expect break tie by name"', replicas: 1, weights: { PartyA: 1, PartyB: 1 }, ties: 'name-ascending', want: { PartyA: 1 } },
    { name: '"custom tie-breaker returns true, expect custom tie-breaker controls seat" (name ascending)', replicas: 1, weights: { PartyA: 1, PartyB: 1 }, ties: 'name-ascending', want: { PartyA: 1 } },
    { name: '"custom tie-breaker returns false, expect custom tie-breaker controls seat" (name descending)', replicas: 1, weights: { PartyA: 1, PartyB: 1 }, ties: 'name-descending', want: { PartyB: 1 } },
    { name: '"party votes not empty, newSeats is 0, expect all seats 0"', replicas: 0, weights: { PartyA: 100, PartyB: 200 }, ties: 'name-ascending', want: {} },
    { name: '"empty party votes, expect nil result"', replicas: 1, weights: {}, ties: 'name-ascending', want: {} },
  ])('$name', ({ replicas, weights, ties, want }) => {
    expect(websterApportion(replicas, weightsOf(weights), ties)).toEqual(seats(want));
  });
});

describe('websterApportion in descending tie order', () => {
  const weightList = fc.uniqueArray(fc.record({ name: clusterName, weight: fc.integer({ min: 0, max: 6 }) }), { selector: (w) => w.name, maxLength: 6 });

  it('is the ascending apportionment of the same weights with the names reversed: only ties change', () => {
    // Mapping each name to one that sorts the other way round turns one order into the other: each code unit
    // mirrored, and a highest one after the last, so that a name sorts after the longer names it begins.
    const reversed = (name: string) => `${[...name].map((char) => String.fromCharCode(0xfffe - char.charCodeAt(0))).join('')}\uffff`;
    const restored = (name: string) => [...name.slice(0, -1)].map((char) => String.fromCharCode(0xfffe - char.charCodeAt(0))).join('');
    fc.assert(
      fc.property(fc.nat({ max: 30 }), weightList, (total, weights) => {
        const descending = websterApportion(total, weights, 'name-descending');
        const ascending = websterApportion(total, weights.map((w) => ({ ...w, name: reversed(w.name) })), 'name-ascending');
        const back = new Map(ascending.map((target) => [restored(target.name), target.replicas]));
        expect(new Map(descending.map((target) => [target.name, target.replicas]))).toEqual(back);
      }),
      { numRuns: 500 },
    );
  });
});
