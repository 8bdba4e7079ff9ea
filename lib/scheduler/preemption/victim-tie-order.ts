import type { PriorityOrder } from '../snapshot';

/**
 * The order among victim candidates of equal priority, which settles ties between equally good victim
 * sets (victim-search.ts). By key alone, every preemptor would reach for the same victims, and schedule
 * cycles deciding side by side would conflict on them; so each preemptor has an order of its own.
 *
 * The snapshot's priority order sorts the bindings by priority, then key hash, then key, so that the n
 * ranks [first, end) of one priority are its bindings in an order no key name steers. A preemptor takes
 * them from a start of its own with a stride of its own coprime to n: its j-th is the rank
 * first + (start + j × stride) mod n, which visits each rank once. Rotations of one circle (one stride
 * for every preemptor) let two preemptors whose starts fall a few ranks apart meet the same first
 * victims, and take the same ones; with strides of their own, two preemptors share about as few of
 * their first victims as two random orders would, wherever they start. Either is read in order from
 * the rank arrays alone, a step at a time, without laying a priority's bindings out. Start and stride
 * come from the preemptor's key and the priority's size: the same preemptor on the same fleet always
 * meets the candidates in the same order, and decisions stay deterministic.
 */

/** FNV-1a over the UTF-16 code units, then a finaliser so that keys differing in a last character spread over all bits. */
function hash32(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return finalised(hash);
}

function finalised(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A binding's place in the snapshot's order within its priority. */
export function victimKeyHash(key: string): number {
  return hash32(key, 0x811c9dc5);
}

/**
 * The preemptor's seed, from which its start and stride in each priority follow (a basis of its own,
 * so that it is not its own key's hash).
 */
export function preemptorStart(key: string): number {
  return hash32(key, 0x9e3779b9);
}

/**
 * The ranks of one priority, [first, end), in a preemptor's order: its j-th is
 * first + (start + j × stride) mod (end − first); `inverse` is stride⁻¹ modulo end − first.
 */
export interface TieRun {
  readonly first: number;
  readonly end: number;
  readonly start: number;
  readonly stride: number;
  readonly inverse: number;
}

/** The run of the priority of `rank` in `order` (any rank of it), for the preemptor of seed `seed`. */
export function tieRun(order: PriorityOrder, rank: number, seed: number): TieRun {
  const { priorities } = order;
  const priority = priorities[rank]!;
  let low = 0;
  let high = rank;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (priorities[mid]! < priority) low = mid + 1;
    else high = mid;
  }
  const first = low;
  low = rank + 1;
  high = priorities.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (priorities[mid]! <= priority) low = mid + 1;
    else high = mid;
  }
  const end = low;
  const n = end - first;
  // seed / 2³² × n: below n, exactly as any host computes it.
  const start = Math.floor((seed / 2 ** 32) * n);
  let stride = n <= 1 ? 1 : 1 + Math.floor((finalised(seed ^ 0x5bd1e995) / 2 ** 32) * (n - 1));
  while (greatestCommonDivisor(stride, n) !== 1) stride = stride + 1 === n ? 1 : stride + 1;
  return { first, end, start, stride, inverse: inverseModulo(stride, n) };
}

/** The rank the preemptor meets `j`-th in the run (0 ≤ j < end − first). */
export function rankAt(run: TieRun, j: number): number {
  return run.first + ((run.start + multiplyModulo(j, run.stride, run.end - run.first)) % (run.end - run.first));
}

/** Where in the preemptor's order of the run it meets `rank` (a rank of the run): rankAt's inverse. */
export function placeOf(run: TieRun, rank: number): number {
  const n = run.end - run.first;
  return multiplyModulo((rank - run.first - run.start + n) % n, run.inverse, n);
}

/**
 * `ranks` (ascending, of bindings in `order`) in the preemptor's victim order: by priority, each
 * priority's ranks in the preemptor's order of its run.
 */
export function inVictimOrder(order: PriorityOrder, ranks: readonly number[], seed: number): Int32Array {
  const { priorities } = order;
  const ordered = new Int32Array(ranks.length);
  let out = 0;
  for (let first = 0; first < ranks.length; ) {
    const priority = priorities[ranks[first]!]!;
    let end = first;
    while (end < ranks.length && priorities[ranks[end]!] === priority) end++;
    const run = tieRun(order, ranks[first]!, seed);
    // A bit per place in the run: reading the bits in order gives the candidates in the preemptor's
    // order without sorting them, 32 places to a word.
    const placed = new Uint32Array(Math.ceil((run.end - run.first) / 32));
    for (let i = first; i < end; i++) {
      const place = placeOf(run, ranks[i]!);
      placed[place >>> 5]! |= 1 << (place & 31);
    }
    for (let word = 0; word < placed.length; word++) {
      for (let bits = placed[word]!; bits !== 0; bits &= bits - 1) ordered[out++] = rankAt(run, (word << 5) + 31 - Math.clz32(bits & -bits));
    }
    first = end;
  }
  return ordered;
}

function greatestCommonDivisor(a: number, b: number): number {
  let x = a;
  let y = b;
  while (y !== 0) [x, y] = [y, x % y];
  return x;
}

/** a⁻¹ modulo n for a coprime to n (extended Euclid); 0 when n is 1. */
function inverseModulo(a: number, n: number): number {
  if (n === 1) return 0;
  let [oldR, r] = [a, n];
  let [oldS, s] = [1, 0];
  while (r !== 0) {
    const quotient = Math.floor(oldR / r);
    [oldR, r] = [r, oldR - quotient * r];
    [oldS, s] = [s, oldS - quotient * s];
  }
  return ((oldS % n) + n) % n;
}

/** a × b modulo n, exact for a, b < n < 2³¹ (b split in halves so that no product passes 2⁵³). */
function multiplyModulo(a: number, b: number, n: number): number {
  const high = ((a * Math.floor(b / 65536)) % n) * 65536;
  return (high + a * (b % 65536)) % n;
}
