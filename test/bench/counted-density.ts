/**
 * A preemption decision at two densities counted rather than timed: the density benchmark's scenarios
 * (core.ts) run under cachegrind (cachegrind.ts).
 * Each scenario and density runs twice, deciding WARM and WARM + COUNTED preemptors (counted-decisions.ts,
 * bundled once, on one V8 thread); the difference is what COUNTED decisions cost after the first WARM.
 * The old generation is never marked whole (V8_FLAGS). Run alone on the host, one tree's counts repeat
 * within half a percent; two trees doing the same work may differ by up to about 6 %, since the window
 * counts V8's compiling where it falls and a function's new shape moves what is compiled within it. Run
 * beside other work on the same cores, one bundle's counts moved by up to 13 %: V8 sizes its heap, and so
 * where its collections fall, partly by how long its collections take. The bindings of a fleet of 300 per
 * cluster no longer fit the simulated second-level cache.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { countCells, counted, countHeaders, countingUnavailable, difference, estimate, ESTIMATE_METHOD, inTurn } from './cachegrind';
import { DENSITIES, DENSITY_SCENARIOS } from './core';
import { fmt, table } from './stats';

const DRIVER = fileURLToPath(new URL('./counted-decisions.ts', import.meta.url));
/**
 * The decisions counted follow the first WARM: by then V8 has compiled what the decisions run, which costs
 * the same at both densities and so hid the difference between them (fleet-full 300 ÷ 30 was 1.05 over
 * decisions 200–600 and 1.24 over 600–1,100, the same tree).
 */
const WARM = 600;
const COUNTED = 500;
/**
 * One V8 thread, so that the compiler's and the collector's work is counted where it falls; an old
 * generation large enough that the fleet is never marked whole, and no marking started to give memory
 * back: under valgrind a run takes fifty times as long, and a marking started by time or by what the
 * fleet's building left would fall into the counted decisions or out of them by chance (a change that
 * allocated a little less before them moved one into them: second-level misses 12.6 k → 22.4 k per
 * decision at 300).
 */
const V8_FLAGS = ['--single-threaded', '--initial-old-space-size=1024', '--no-memory-reducer'];

export async function countedDensity(log: (line: string) => void): Promise<string> {
  const unavailable = countingUnavailable();
  if (unavailable) return unavailable;
  const directory = mkdtempSync(join(tmpdir(), 'outrank-counted-'));
  try {
    const bundle = join(directory, 'counted-decisions.mjs');
    await build({ entryPoints: [DRIVER], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'error' });
    const runs = Object.keys(DENSITY_SCENARIOS).flatMap((scenario) => DENSITIES.flatMap((perCluster) => [WARM, WARM + COUNTED].map((decisions) => ({ scenario, perCluster, decisions }))));
    const counts = await inTurn(
      runs.map((run) => async () => {
        log(`counted-density: ${run.scenario} at ${run.perCluster} per cluster, ${run.decisions} decisions under cachegrind`);
        return counted([...V8_FLAGS, bundle, run.scenario, String(run.perCluster), String(run.decisions)]);
      }),
    );
    const perDecision = (at: number) => difference(counts[at]!, counts[at + 1]!, COUNTED);
    const rows: string[][] = [];
    Object.keys(DENSITY_SCENARIOS).forEach((scenario, s) => {
      const byDensity = DENSITIES.map((_, d) => perDecision(2 * (s * DENSITIES.length + d)));
      byDensity.forEach((one, d) => {
        const ratio = d === 0 ? '' : fmt(estimate(one) / estimate(byDensity[0]!));
        rows.push([scenario, String(DENSITIES[d]), ...countCells(one, 1000), ratio]);
      });
    });
    return [
      `The density benchmark's two scenarios (core.ts) under cachegrind, on one V8 thread: per decision, what ${COUNTED} decisions after`,
      `the first ${WARM} cost (two runs per scenario and density, ${WARM} and ${WARM + COUNTED} decisions, each applied and undone; their difference),`,
      `in thousands. ${ESTIMATE_METHOD}`,
      'Run alone on the host, counts repeat within about half a percent between runs of one tree (the optimizing compiler runs on the same thread, at the same points);',
      'two trees that do the same work may differ by up to about 6 %, the compiler meeting other shapes and compiling at other points, so smaller changes',
      'cannot be told from this. Run beside other work on the same cores, one bundle moved by up to 13 % (V8 sizes its heap partly by how long its collections take).',
      '',
      table(['scenario', 'bindings per cluster', ...countHeaders('k'), `${DENSITIES[1]} ÷ ${DENSITIES[0]}`], rows),
    ].join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
