/**
 * A preemption decision at two densities counted rather than timed: the density benchmark's scenarios
 * (core.ts) run under cachegrind, which counts the instructions and simulates the caches, so the figures
 * do not move with the host's other tenants, which shift wall-clock ratios by a third within a minute.
 * Each scenario and density runs twice, deciding WARM and WARM + COUNTED preemptors (counted-decisions.ts,
 * bundled once, on one V8 thread); the difference is what COUNTED decisions cost after the first WARM.
 * The old generation is never marked whole (V8_FLAGS). One tree's counts repeat within half a percent;
 * two trees doing the same work may differ by up to about 4 %, since the window counts V8's compiling where
 * it falls and a function's new shape moves what is compiled within it. The second-level cache is simulated at 1 MiB
 * (cachegrind's last level, here standing for a core's L2), where the bindings of a fleet of 300 per
 * cluster no longer fit.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { DENSITIES, DENSITY_SCENARIOS } from './core';
import { fmt, table } from './stats';

const DRIVER = fileURLToPath(new URL('./counted-decisions.ts', import.meta.url));
const WARM = 200;
const COUNTED = 400;
/** Cycles charged per first-level miss (a second-level hit) and per second-level miss, in the estimate. */
const FIRST_LEVEL_MISS_CYCLES = 10;
const SECOND_LEVEL_MISS_CYCLES = 40;
/**
 * One V8 thread, so that the compiler's and the collector's work is counted where it falls; an old
 * generation large enough that the fleet is never marked whole, and no marking started to give memory
 * back: under valgrind a run takes fifty times as long, and a marking started by time or by what the
 * fleet's building left would fall into the counted decisions or out of them by chance (a change that
 * allocated a little less before them moved one into them: second-level misses 12.6 k → 22.4 k per
 * decision at 300).
 */
const V8_FLAGS = ['--single-threaded', '--initial-old-space-size=1024', '--no-memory-reducer'];
/** Runs at once: each is one thread. */
const PARALLEL = 2;

interface Counts {
  readonly instructions: number;
  readonly firstLevelMisses: number;
  readonly secondLevelMisses: number;
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

async function counted(bundle: string, scenario: string, perCluster: number, decisions: number): Promise<Counts> {
  const { stderr } = await promisify(execFile)(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=yes', '--LL=1048576,16,64', '--cachegrind-out-file=/dev/null', '--smc-check=all-non-file', process.execPath, ...V8_FLAGS, bundle, scenario, String(perCluster), String(decisions)],
    { maxBuffer: 1 << 26 },
  );
  return countsOf(stderr);
}

/** `tasks` run PARALLEL at a time, their results in order. */
async function inTurn<T>(tasks: ReadonlyArray<() => Promise<T>>): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    for (let at = next++; at < tasks.length; at = next++) results[at] = await tasks[at]!();
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return results;
}

const estimate = (counts: Counts) => counts.instructions + FIRST_LEVEL_MISS_CYCLES * counts.firstLevelMisses + SECOND_LEVEL_MISS_CYCLES * counts.secondLevelMisses;

export async function countedDensity(log: (line: string) => void): Promise<string> {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'Not run: valgrind is not installed on this host (Debian: apt-get install valgrind).';
  }
  const directory = mkdtempSync(join(tmpdir(), 'outrank-counted-'));
  try {
    const bundle = join(directory, 'counted-decisions.mjs');
    await build({ entryPoints: [DRIVER], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'error' });
    const runs = Object.keys(DENSITY_SCENARIOS).flatMap((scenario) => DENSITIES.flatMap((perCluster) => [WARM, WARM + COUNTED].map((decisions) => ({ scenario, perCluster, decisions }))));
    const counts = await inTurn(
      runs.map((run) => async () => {
        log(`counted-density: ${run.scenario} at ${run.perCluster} per cluster, ${run.decisions} decisions under cachegrind`);
        return counted(bundle, run.scenario, run.perCluster, run.decisions);
      }),
    );
    const perDecision = (at: number): Counts => ({
      instructions: (counts[at + 1]!.instructions - counts[at]!.instructions) / COUNTED,
      firstLevelMisses: (counts[at + 1]!.firstLevelMisses - counts[at]!.firstLevelMisses) / COUNTED,
      secondLevelMisses: (counts[at + 1]!.secondLevelMisses - counts[at]!.secondLevelMisses) / COUNTED,
    });
    const rows: string[][] = [];
    Object.keys(DENSITY_SCENARIOS).forEach((scenario, s) => {
      const byDensity = DENSITIES.map((_, d) => perDecision(2 * (s * DENSITIES.length + d)));
      byDensity.forEach((one, d) => {
        const ratio = d === 0 ? '' : fmt(estimate(one) / estimate(byDensity[0]!));
        rows.push([scenario, String(DENSITIES[d]), fmt(one.instructions / 1000), fmt(one.firstLevelMisses / 1000), fmt(one.secondLevelMisses / 1000), fmt(estimate(one) / 1000), ratio]);
      });
    });
    return [
      `The density benchmark's two scenarios (core.ts) under cachegrind, on one V8 thread: per decision, what ${COUNTED} decisions after`,
      `the first ${WARM} cost (two runs per scenario and density, ${WARM} and ${WARM + COUNTED} decisions, each applied and undone; their difference),`,
      `in thousands. Second-level misses are of a simulated 1 MiB cache; the estimate is instructions + ${FIRST_LEVEL_MISS_CYCLES} × first-level misses`,
      `+ ${SECOND_LEVEL_MISS_CYCLES} × second-level misses, in cycles: a model of where the time goes, not a timing. Counts repeat within about half a`,
      'percent between runs of one tree (the optimizing compiler runs on the same thread, at the same points); two trees that do the',
      'same work may differ by up to about 4 %, the compiler meeting other shapes and compiling at other points, so smaller changes',
      'cannot be told from this.',
      '',
      table(['scenario', 'bindings per cluster', 'instructions (k)', 'first-level misses (k)', 'second-level misses (k)', 'estimate (k cycles)', `${DENSITIES[1]} ÷ ${DENSITIES[0]}`], rows),
    ].join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
