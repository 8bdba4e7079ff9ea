import type { PriorityOrder } from '../snapshot';

/**
 * The order among victim candidates of equal priority, which settles ties between equally good victim
 * sets (victim-search.ts). By key alone, every preemptor would reach for the same victims, and schedule
 * cycles deciding side by side would conflict on them; so each preemptor starts at a point of its own on
 * a circle of key hashes: candidates of one priority are taken from the first whose key hash is at or
 * past the preemptor's start, by hash, round the circle, then by key on equal hashes. The same preemptor
 * on the same fleet always meets the candidates in the same order: decisions stay deterministic.
 *
 * The snapshot's priority order sorts the bindings by priority, then key hash, then key, so that this
 * order is, within each priority, that order rotated: [split, end) then [first, split) of its ranks.
 */

/** FNV-1a over the UTF-16 code units, then a finaliser so that keys differing in a last character spread over all bits. */
function hash32(text: string, basis: number): number {
  let hash = basis;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A binding's place on the circle. */
export function victimKeyHash(key: string): number {
  return hash32(key, 0x811c9dc5);
}

/** Where a preemptor starts on the circle (a seed of its own, so that it is not where its own key sits). */
export function preemptorStart(key: string): number {
  return hash32(key, 0x9e3779b9);
}

/** The ranks of one priority, [first, end), and `split`: the first of them at or past the preemptor's start. */
export interface TieRun {
  readonly first: number;
  readonly split: number;
  readonly end: number;
}

/** The run of the priority of rank `first` (its first rank) in `order`, for a preemptor starting at `start`. */
export function tieRun(order: PriorityOrder, first: number, start: number): TieRun {
  const { priorities, keyHashes } = order;
  const priority = priorities[first]!;
  let low = first;
  let high = priorities.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (priorities[mid]! <= priority) low = mid + 1;
    else high = mid;
  }
  const end = low;
  low = first;
  high = end;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (keyHashes[mid]! < start) low = mid + 1;
    else high = mid;
  }
  return { first, split: low, end };
}

/**
 * `ranks` (ascending, of bindings in `order`) in the preemptor's victim order: by priority, each
 * priority's ranks from its split on, then those before it.
 */
export function inVictimOrder(order: PriorityOrder, ranks: readonly number[], start: number): Int32Array {
  const { priorities, keyHashes } = order;
  const ordered = new Int32Array(ranks.length);
  let out = 0;
  for (let first = 0; first < ranks.length; ) {
    const priority = priorities[ranks[first]!]!;
    let end = first;
    while (end < ranks.length && priorities[ranks[end]!] === priority) end++;
    let split = first;
    while (split < end && keyHashes[ranks[split]!]! < start) split++;
    for (let i = split; i < end; i++) ordered[out++] = ranks[i]!;
    for (let i = first; i < split; i++) ordered[out++] = ranks[i]!;
    first = end;
  }
  return ordered;
}
