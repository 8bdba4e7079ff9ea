/**
 * Fleet-size benchmarks: `outrank simulate` as a whole process (parse included) on the scale scenario at
 * growing fleet sizes — the scale curve, each time beside the host's reference time — and the store
 * calls each function makes per scheduled binding at two fleet sizes, counted through CountingStore on
 * the in-memory system.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withConfig } from '../../lib/config';
import { MemorySystem, type FunctionName } from '../../lib/runtime/memory-system';
import type { SimulationResult } from '../../lib/simulate/run-scenario';
import { CountingStore, emptyCounts, type StoreCounts } from '../support/counting-store';
import { referenceNow } from './reference';
import { scaleScenario, type ScaleScenarioSize } from './scale-scenario';
import { fmt, median, table } from './stats';

const OUTRANK = fileURLToPath(new URL('../../bin/outrank.mjs', import.meta.url));
const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));
const WARM_SIMULATE = fileURLToPath(new URL('./warm-simulate.ts', import.meta.url));
/** Runs of the headline scenario in one process, the first cold. */
const WARM_RUNS = 3;
const BUILD = fileURLToPath(new URL('../../bin/build.mjs', import.meta.url));
const CLUSTERS = 100;
/**
 * The curve, preemptors 5 % of the running fleet, so that every size does the same mix of work;
 * `SCALE_WORKLOADS=1000,10000` runs only those sizes (the 100,000 run takes minutes).
 */
const CURVE = process.env.SCALE_WORKLOADS?.split(',').map(Number) ?? [1_000, 10_000, 30_000, 100_000];
/** The headline size, which the others are compared with. */
const HEADLINE = 10_000;
const HEADLINE_NAME = HEADLINE.toLocaleString('en-US');
/** Runs of the headline size (`SCALE_REPEATS`, default 3), each beside its own reference: it is judged by their median. */
const HEADLINE_RUNS = repeats(process.env.SCALE_REPEATS);
/** The usual fleet of the targets: ten priorities 0–9 among the running workloads, preemptors at 90. */
const RUNNING_PRIORITIES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const PREEMPTOR_PRIORITY = 90;
const COUNTED = [1_000, 10_000];
const FUNCTIONS: readonly FunctionName[] = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'];
const MIB = 1024 * 1024;

interface ProcessRun {
  readonly size: ScaleScenarioSize;
  readonly bindings: number;
  readonly scheduled: number;
  readonly preemptions: number;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  readonly peakBytes: number;
  /** The host's reference time measured just before this process. */
  readonly referenceSeconds: number | undefined;
}

/** The scale scenario of `size`, written to `directory` for a process to read. */
function scenarioFile(size: ScaleScenarioSize, directory: string): string {
  const file = join(directory, 'scenario.json');
  writeFileSync(file, JSON.stringify(scaleScenario(size)));
  return file;
}

function repeats(value: string | undefined): number {
  if (value === undefined || value === '') return 3;
  if (!/^[1-9]\d*$/.test(value)) throw new Error(`SCALE_REPEATS must be a whole number of runs, 1 or more: ${value}`);
  return Number(value);
}

const isScheduled = (binding: SimulationResult['bindings'][number]) => binding.conditions.some((c) => c.type === 'Scheduled' && c.status === 'True');

/** The scale curve's scenario at `workloads`. */
export function curveSize(workloads: number): ScaleScenarioSize {
  return { clusters: CLUSTERS, workloads, preemptors: workloads / 20, runningPriorities: RUNNING_PRIORITIES, preemptorPriority: PREEMPTOR_PRIORITY };
}

/**
 * `outrank simulate -f <scenario> -o json` in a process of its own, timed by /usr/bin/time (wall, user +
 * system, peak resident memory), right after the host's reference time is measured.
 */
function timedRun(size: ScaleScenarioSize, directory: string): ProcessRun {
  const scenario = scenarioFile(size, directory);
  const output = join(directory, 'result.json');
  const times = join(directory, 'time.txt');
  const referenceSeconds = referenceNow();
  execFileSync('/usr/bin/time', ['-o', times, '-f', '%e %U %S %M', 'sh', '-c', '"$0" "$1" simulate -f "$2" -o json > "$3"', process.execPath, OUTRANK, scenario, output], {
    stdio: 'ignore',
  });
  const [wall, user, system, peakKiB] = readFileSync(times, 'utf8').trim().split(/\s+/).slice(-4).map(Number) as [number, number, number, number];
  const result = JSON.parse(readFileSync(output, 'utf8')) as SimulationResult;
  if (result.errors.length > 0 || result.rejections.length > 0) throw new Error(`the scale scenario should run clean: ${result.errors[0] ?? result.rejections[0]?.message}`);
  return {
    size,
    bindings: result.bindings.length,
    scheduled: result.bindings.filter(isScheduled).length,
    preemptions: result.metrics.bindingPreemptions,
    wallSeconds: wall,
    cpuSeconds: user + system,
    peakBytes: peakKiB * 1024,
    referenceSeconds,
  };
}

/** A time over the reference measured beside it; undefined without one. */
function perOwnReference(seconds: number, run: ProcessRun): number | undefined {
  return run.referenceSeconds === undefined ? undefined : seconds / run.referenceSeconds;
}

const cell = (value: number | undefined) => (value === undefined ? '–' : fmt(value));

interface InProcessRun {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly bindings: number;
}

/**
 * The headline scenario run WARM_RUNS times in one process (warm-simulate.ts, from the sources), right
 * after a reference: how much of a cold process is V8 compiling the hot paths rather than the work.
 */
function inProcessRuns(size: ScaleScenarioSize, directory: string, log: (line: string) => void): string {
  const scenario = scenarioFile(size, directory);
  log(`scale: ${size.workloads} workloads ${WARM_RUNS} times in one process`);
  const reference = referenceNow();
  // From the checkout, where --import finds tsx, whatever directory the benchmarks were started in.
  const lines = execFileSync(process.execPath, ['--import', 'tsx', WARM_SIMULATE, scenario, String(WARM_RUNS)], { cwd: CHECKOUT, encoding: 'utf8' }).trim().split('\n');
  const runs = lines.map((line) => JSON.parse(line) as InProcessRun);
  const rows = runs.map((run, index) => [
    index === 0 ? '1 (cold)' : String(index + 1),
    fmt(run.wallMs / 1000),
    fmt(run.cpuMs / 1000),
    cell(reference === undefined ? undefined : run.wallMs / 1000 / reference),
    fmt(run.bindings / (run.wallMs / 1000)),
  ]);
  return [
    `The ${size.workloads.toLocaleString('en-US')}-workload scenario run ${WARM_RUNS} times in one process, each on a fresh in-memory system (test/bench/warm-simulate.ts,`,
    `the TypeScript sources through tsx, the simulation alone: no Node.js start, no reading or writing of files), after a reference of`,
    `${cell(reference)} s: the first run pays for V8 compiling the hot paths while it runs them, the later ones show what the work itself costs.`,
    '',
    table(['run', 'wall s', 'CPU s', 'wall ÷ reference', 'bindings/s'], rows),
  ].join('\n');
}

let built = false;

/** Builds the compiled command line (dist/outrank.mjs) once per benchmark run, so that the processes timed run this tree's. */
export function buildCommandLine(log: (line: string) => void): void {
  if (built) return;
  log('npm run build');
  execFileSync(process.execPath, [BUILD], { stdio: 'ignore' });
  built = true;
}

export function simulateScale(log: (line: string) => void): string {
  buildCommandLine(log);
  const directory = mkdtempSync(join(tmpdir(), 'outrank-scale-'));
  try {
    const runs = CURVE.flatMap((workloads) =>
      Array.from({ length: workloads === HEADLINE ? HEADLINE_RUNS : 1 }, (_, index) => {
        log(`scale: simulate ${workloads} workloads + ${workloads / 20} preemptors${workloads === HEADLINE ? ` (run ${index + 1} of ${HEADLINE_RUNS})` : ''}`);
        return timedRun(curveSize(workloads), directory);
      }),
    );
    const headlines = runs.filter((run) => run.size.workloads === HEADLINE);
    const headlineRatios = headlines.map((run) => perOwnReference(run.wallSeconds, run)).filter((ratio) => ratio !== undefined);
    // Judged by the median run, each against its own reference; without references, by the median wall clock.
    const headlineRatio = headlineRatios.length > 0 ? median(headlineRatios) : undefined;
    const headlineWall = headlines.length > 0 ? median(headlines.map((run) => run.wallSeconds)) : undefined;
    /** A run's wall clock over the headline's, both taken as ratios to their own references when there are any. */
    const perHeadline = (run: ProcessRun): number | undefined => {
      const ratio = perOwnReference(run.wallSeconds, run);
      if (ratio !== undefined && headlineRatio !== undefined) return ratio / headlineRatio;
      return headlineWall === undefined ? undefined : run.wallSeconds / headlineWall;
    };
    const row = (run: ProcessRun) => [
      run.size.workloads.toLocaleString('en-US'),
      run.size.preemptors.toLocaleString('en-US'),
      run.bindings.toLocaleString('en-US'),
      run.preemptions.toLocaleString('en-US'),
      fmt(run.wallSeconds),
      fmt(run.cpuSeconds),
      cell(run.referenceSeconds),
      `**${cell(perOwnReference(run.wallSeconds, run))}**`,
      cell(perOwnReference(run.cpuSeconds, run)),
      cell(perHeadline(run)),
      fmt(run.bindings / run.wallSeconds),
      fmt(run.peakBytes / MIB),
    ];
    const header = ['workloads', 'preemptors', 'bindings', 'preemptions', 'wall s', 'CPU s', 'reference s', 'wall ÷ reference', 'CPU ÷ reference', `wall ÷ ${HEADLINE_NAME}'s`, 'bindings/s', 'peak MiB'];
    const judged = (run: ProcessRun | undefined, limit: number) => {
      if (!run) return 'not run';
      const ratio = perHeadline(run);
      return ratio === undefined ? `no ${HEADLINE_NAME} run to compare with` : `${fmt(ratio)} (${ratio <= limit ? 'met' : 'missed'})`;
    };
    const headlineVerdict =
      headlines.length === 0 ? 'not run'
      : headlineRatio === undefined ? 'no reference time to judge by'
      : `${fmt(headlineRatio)}, the median of ${headlineRatios.map(fmt).join(', ')} (${headlineRatio <= 2.6 ? 'met' : 'missed'})`;
    const at = (workloads: number) => runs.find((run) => run.size.workloads === workloads);
    const largest = at(100_000);
    return [
      `\`outrank simulate -f <scenario> -o json\` as a whole process (Node.js start, the compiled command line, parse,`,
      `run, output), timed by /usr/bin/time (wall, user + system CPU, peak resident memory). The scenario (test/bench/scale-scenario.ts):`,
      `${CLUSTERS} clusters in three regions, one PropagationPolicy per Deployment selecting it by name (Aggregated), running`,
      'workloads of 100m–500m cpu (1–2 replicas, priorities 0–9 in turn) that fill their region with 600m per cluster to',
      `spare, then preemptors (5 % of the running fleet) of 1 cpu at priority ${PREEMPTOR_PRIORITY}. \`SCALE_WORKLOADS=1000,10000 npm run bench -- scale\``,
      'runs only the sizes named. Each process is timed right after the host\'s reference time is measured, and its ratios',
      `divide by that reference ("reference s"). The ${HEADLINE_NAME}-workload run is made ${HEADLINE_RUNS} times (\`SCALE_REPEATS\`) and judged by the`,
      `median of its ratios; "wall ÷ ${HEADLINE_NAME}'s" divides a run's wall ÷ reference by that median.`,
      '',
      table(header, runs.map(row)),
      '',
      `Targets: ${HEADLINE_NAME} workloads in ≤ 2.6 × the reference: ${headlineVerdict};`,
      `30,000 within 3.5 × the ${HEADLINE_NAME} time: ${judged(at(30_000), 3.5)};`,
      `100,000 within 12 × it: ${judged(largest, 12)}, under 2.5 GiB at its peak: ${largest ? `${fmt(largest.peakBytes / MIB / 1024)} GiB (${largest.peakBytes < 2.5 * 1024 * MIB ? 'met' : 'missed'})` : 'not run'}.`,
      ...(headlines.length > 0 ? ['', inProcessRuns(curveSize(HEADLINE), directory, log)] : []),
    ].join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Runs the scenario on the in-memory system with a counting store per function. */
async function countStoreCalls(size: ScaleScenarioSize): Promise<{ scheduled: number; counts: Record<FunctionName, StoreCounts> }> {
  const counts = Object.fromEntries(FUNCTIONS.map((fn) => [fn, emptyCounts()])) as Record<FunctionName, StoreCounts>;
  const system = new MemorySystem(withConfig(), (fn, store) => new CountingStore(store, counts[fn]));
  for (const step of scaleScenario(size).steps) {
    if (!('apply' in step)) continue;
    for (const manifest of step.apply) await system.objects.apply(manifest);
    await system.runUntilIdle();
  }
  await system.reconcile.run();
  await system.runUntilIdle();
  if (system.handlerErrors.length > 0) throw new Error(`handler errors: ${system.handlerErrors[0]!.message}`);
  return { scheduled: system.metrics.counter('SchedulingAttempts', { result: 'scheduled' }), counts };
}

export async function storeCallsBenchmark(log: (line: string) => void): Promise<string> {
  const rows: (string | number)[][] = [];
  const totals: number[] = [];
  for (const workloads of COUNTED) {
    log(`scale: store calls at ${workloads} workloads`);
    const { scheduled, counts } = await countStoreCalls({ clusters: CLUSTERS, workloads, preemptors: workloads / 20 });
    let calls = 0;
    for (const fn of FUNCTIONS) {
      const c = counts[fn];
      calls += c.calls;
      const methods = Object.entries(c.byMethod)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([method, n]) => `${method} ${fmt(n / scheduled)}`)
        .join(', ');
      rows.push([workloads.toLocaleString('en-US'), fn, fmt(c.calls / scheduled), methods || '–', fmt(c.itemsRead / scheduled), fmt(c.itemsWritten / scheduled)]);
    }
    totals.push(calls / scheduled);
    rows.push([workloads.toLocaleString('en-US'), '**all**', `**${fmt(calls / scheduled)}**`, '', '', '']);
  }
  return [
    `Store calls per scheduled binding (scheduling commits), the scale scenario at ${COUNTED.map((n) => n.toLocaleString('en-US')).join(' and ')} workloads with 5 %`,
    'preemptors, every function with a store and informers of its own (as separate Lambda functions have), counted',
    'through test/support/counting-store.ts: `get` reads one item, `list` and `changes` (the change feed) what they return,',
    '`transact` writes its items. The reconcile ran once at the end.',
    '',
    table(['workloads', 'function', 'calls', 'by method', 'items read', 'items written'], rows),
    '',
    `All calls per scheduled binding: ${totals.map(fmt).join(' and ')} (ratio ${fmt(totals[1]! / totals[0]!)}; flat is within 1.5×).`,
  ].join('\n');
}

