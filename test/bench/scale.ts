/**
 * Fleet-size benchmarks: `outrank simulate` as a whole process (parse included) on the scale scenario at
 * growing fleet sizes, to show the time per binding stays flat; and the store calls each function makes
 * per scheduled binding at two fleet sizes, counted through CountingStore on the in-memory system.
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
import { scaleScenario, type ScaleScenarioSize } from './scale-scenario';
import { fmt, table } from './stats';

const OUTRANK = fileURLToPath(new URL('../../bin/outrank.mjs', import.meta.url));
const CLUSTERS = 100;
/** The curve: preemptors are 5 % of the running fleet, so that every size does the same mix of work. */
const CURVE = [1_000, 10_000, 30_000];
const HEADLINE: ScaleScenarioSize = { clusters: CLUSTERS, workloads: 10_000, preemptors: 500 };
const COUNTED = [1_000, 10_000];
const FUNCTIONS: readonly FunctionName[] = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'];

interface ProcessRun {
  readonly size: ScaleScenarioSize;
  readonly bindings: number;
  readonly scheduled: number;
  readonly preemptions: number;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
}

const isScheduled = (binding: SimulationResult['bindings'][number]) => binding.conditions.some((c) => c.type === 'Scheduled' && c.status === 'True');

/** `outrank simulate -f <scenario> -o json` in a process of its own, timed by /usr/bin/time (wall, user + system). */
function timedRun(size: ScaleScenarioSize, directory: string): ProcessRun {
  const scenario = join(directory, 'scenario.json');
  const output = join(directory, 'result.json');
  const times = join(directory, 'time.txt');
  writeFileSync(scenario, JSON.stringify(scaleScenario(size)));
  execFileSync('/usr/bin/time', ['-o', times, '-f', '%e %U %S', 'sh', '-c', '"$0" "$1" simulate -f "$2" -o json > "$3"', process.execPath, OUTRANK, scenario, output], {
    stdio: 'ignore',
  });
  const [wall, user, system] = readFileSync(times, 'utf8').trim().split(/\s+/).slice(-3).map(Number) as [number, number, number];
  const result = JSON.parse(readFileSync(output, 'utf8')) as SimulationResult;
  if (result.errors.length > 0 || result.rejections.length > 0) throw new Error(`the scale scenario should run clean: ${result.errors[0] ?? result.rejections[0]?.message}`);
  return {
    size,
    bindings: result.bindings.length,
    scheduled: result.bindings.filter(isScheduled).length,
    preemptions: result.metrics.bindingPreemptions,
    wallSeconds: wall,
    cpuSeconds: user + system,
  };
}

export function simulateScale(log: (line: string) => void): string {
  const directory = mkdtempSync(join(tmpdir(), 'outrank-scale-'));
  try {
    const runs = [HEADLINE, ...CURVE.map((workloads) => ({ clusters: CLUSTERS, workloads, preemptors: workloads / 20 }))].map((size) => {
      log(`scale: simulate ${size.workloads} workloads + ${size.preemptors} preemptors`);
      return timedRun(size, directory);
    });
    const [headline, ...curve] = runs as [ProcessRun, ...ProcessRun[]];
    const row = (run: ProcessRun) => [
      run.size.workloads.toLocaleString('en-US'),
      run.size.preemptors,
      run.bindings,
      run.scheduled,
      run.preemptions,
      fmt(run.wallSeconds),
      fmt(run.cpuSeconds),
      fmt(run.bindings / run.wallSeconds),
      fmt((1000 * run.wallSeconds) / run.bindings),
    ];
    const header = ['workloads', 'preemptors', 'bindings', 'scheduled', 'preemptions', 'wall s', 'CPU s', 'bindings/s', 'ms per binding'];
    const first = curve[0]!;
    const last = curve.at(-1)!;
    const growth = last.wallSeconds / last.bindings / (first.wallSeconds / first.bindings);
    return [
      `\`outrank simulate -f <scenario> -o json\` as a whole process (Node.js start, the compiled command line, parse,`,
      `run, output), timed by /usr/bin/time. The scenario (test/bench/scale-scenario.ts): ${CLUSTERS} clusters in three regions,`,
      'one PropagationPolicy per Deployment selecting it by name, running workloads of 100m–500m cpu (1–2 replicas,',
      'priorities 0–50) that fill their region with 600m per cluster to spare, then preemptors of 1 cpu at priority 1,000.',
      '',
      table(header, [row(headline)]),
      '',
      'The curve, preemptors 5 % of the running fleet:',
      '',
      table(header, curve.map(row)),
      '',
      `Time per binding at ${last.size.workloads.toLocaleString('en-US')} workloads is **${fmt(growth)}×** that at ${first.size.workloads.toLocaleString('en-US')} (target ≤ 1.5×).`,
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

