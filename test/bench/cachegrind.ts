/**
 * Counting a process instead of timing it: cachegrind counts the instructions a program runs and simulates
 * its caches, so the figures do not move with the host's other tenants, which shift wall-clock ratios by a
 * third within a minute. Node.js runs on one V8 thread under it (`--single-threaded`, given by the
 * callers), so that the optimizing compiler's and the collector's work is counted where it falls.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { fmt } from './stats';

/** Cycles charged per first-level miss (a second-level hit) and per second-level miss, in the estimate. */
const FIRST_LEVEL_MISS_CYCLES = 10;
const SECOND_LEVEL_MISS_CYCLES = 40;

/** How the estimate is made, for the text of a section that reports it. */
export const ESTIMATE_METHOD =
  `The estimate is instructions + ${FIRST_LEVEL_MISS_CYCLES} × first-level misses + ${SECOND_LEVEL_MISS_CYCLES} × second-level misses (of a simulated 1 MiB cache), ` +
  'in cycles: a model of where the time goes, not a timing.';

/** The column headers of countCells, in `unitName`s (k, M). */
export function countHeaders(unitName: string): string[] {
  return [`instructions (${unitName})`, `first-level misses (${unitName})`, `second-level misses (${unitName})`, `estimate (${unitName} cycles)`];
}
/** Runs at once: each is one thread. */
const PARALLEL = 2;

export interface Counts {
  readonly instructions: number;
  readonly firstLevelMisses: number;
  readonly secondLevelMisses: number;
}

/** Why counting cannot run here, or undefined when it can. */
export function countingUnavailable(): string | undefined {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return undefined;
  } catch {
    return 'Not run: valgrind is not installed on this host (Debian: apt-get install valgrind).';
  }
}

/** The summary cachegrind prints: `I refs:`, `D1  misses:` and `LLd misses:` (data only: code stays cached). */
function countsOf(summary: string): Counts {
  const figure = (label: RegExp) => {
    const match = label.exec(summary);
    if (!match) throw new Error(`cachegrind printed no ${label.source}: ${summary.slice(-400)}`);
    return Number(match[1]!.replaceAll(',', ''));
  };
  return { instructions: figure(/I\s+refs:\s+([\d,]+)/), firstLevelMisses: figure(/D1\s+misses:\s+([\d,]+)/), secondLevelMisses: figure(/LLd misses:\s+([\d,]+)/) };
}

/**
 * Node.js with `nodeArguments` under cachegrind, its second-level cache simulated at 1 MiB (cachegrind's
 * last level, here standing for a core's L2). What the program prints is dropped.
 */
export async function counted(nodeArguments: readonly string[]): Promise<Counts> {
  const { stderr } = await promisify(execFile)(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=yes', '--LL=1048576,16,64', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, ...nodeArguments],
    { maxBuffer: 1 << 30 },
  );
  return countsOf(stderr);
}

/** The estimate, in cycles: instructions, and what the misses add. A model of where the time goes, not a timing. */
export function estimate(counts: Counts): number {
  return counts.instructions + FIRST_LEVEL_MISS_CYCLES * counts.firstLevelMisses + SECOND_LEVEL_MISS_CYCLES * counts.secondLevelMisses;
}

/** A table row's cells: instructions, first-level misses, second-level misses and the estimate, divided by `unit` (1,000: thousands). */
export function countCells(counts: Counts, unit: number): string[] {
  return [fmt(counts.instructions / unit), fmt(counts.firstLevelMisses / unit), fmt(counts.secondLevelMisses / unit), fmt(estimate(counts) / unit)];
}

/** What the second counts hold more than the first, per unit of `units`. */
export function difference(from: Counts, to: Counts, units: number): Counts {
  return {
    instructions: (to.instructions - from.instructions) / units,
    firstLevelMisses: (to.firstLevelMisses - from.firstLevelMisses) / units,
    secondLevelMisses: (to.secondLevelMisses - from.secondLevelMisses) / units,
  };
}

/** `tasks` run PARALLEL at a time, their results in order. */
export async function inTurn<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < tasks.length; at = next++) results[at] = await tasks[at]!();
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}
