/**
 * The whole `outrank simulate` process counted rather than timed (cachegrind.ts): the scale scenario of
 * the targets (scale.ts) at two sizes, each one process on one V8 thread, from Node.js's start to the
 * last line of JSON written. The difference between the two, per binding, is what one more binding costs
 * the process (validation, the store, the claims, the schedule cycles, the result), without its start
 * and the compiler's first work, which both sizes pay. The wall clock of the 10,000-workload target moves
 * by ±15 % between identical runs on a shared host; these counts repeat within 0.1 % (V8_FLAGS), so a
 * change of a few percent to the process can be told.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countCells, counted, countHeaders, countingUnavailable, difference, ESTIMATE_METHOD, inTurn } from './cachegrind';
import { buildCommandLine, curveSize } from './scale';
import { scaleScenario } from './scale-scenario';
import { table } from './stats';

const OUTRANK = fileURLToPath(new URL('../../bin/outrank.mjs', import.meta.url));
const SIZES = [2_000, 10_000] as const;
/**
 * One V8 thread, and no marking started to give memory back: that one is started by time, and under
 * valgrind, on a host busy with other work, it moved a count by 1.5 %.
 */
const V8_FLAGS = ['--single-threaded', '--no-memory-reducer'];

/** Bindings a scale scenario of `workloads` makes: one per workload and one per preemptor. */
const bindingsOf = (workloads: number) => workloads + curveSize(workloads).preemptors;

export async function countedSimulate(log: (line: string) => void): Promise<string> {
  const unavailable = countingUnavailable();
  if (unavailable) return unavailable;
  buildCommandLine(log);
  const directory = mkdtempSync(join(tmpdir(), 'outrank-counted-simulate-'));
  try {
    const counts = await inTurn(
      SIZES.map((workloads) => async () => {
        const scenario = join(directory, `scale-${workloads}.json`);
        writeFileSync(scenario, JSON.stringify(scaleScenario(curveSize(workloads))));
        log(`counted-simulate: ${workloads} workloads under cachegrind`);
        return counted([...V8_FLAGS, OUTRANK, 'simulate', '-f', scenario, '-o', 'json']);
      }),
    );
    const [small, large] = SIZES;
    const perBinding = difference(counts[0]!, counts[1]!, bindingsOf(large) - bindingsOf(small));
    return [
      `\`outrank simulate -f <scale scenario> -o json\`, the whole process, under cachegrind on one V8 thread, at ${small.toLocaleString('en-US')} and`,
      `${large.toLocaleString('en-US')} workloads (100 clusters, priorities 0–9, a twentieth as many preemptors at 90). ${ESTIMATE_METHOD}`,
      'One more binding is the difference between the two processes, per binding: what the process spends on it, the start and',
      "the compiler's first work left out.",
      '',
      table(
        ['workloads', 'bindings', ...countHeaders('M')],
        SIZES.map((workloads, at) => [workloads.toLocaleString('en-US'), bindingsOf(workloads).toLocaleString('en-US'), ...countCells(counts[at]!, 1e6)]),
      ),
      '',
      table(
        ['one more binding', ...countHeaders('k')],
        [[`${small.toLocaleString('en-US')} → ${large.toLocaleString('en-US')} workloads`, ...countCells(perBinding, 1000)]],
      ),
    ].join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
