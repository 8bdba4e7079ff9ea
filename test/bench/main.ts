/**
 * `npm run bench`: runs every benchmark and writes BENCHMARKS.md at the top level.
 * `npm run bench -- scale core` runs only the named ones (scale, jit, store-calls, cluster-change, what-if, flush, core, core-density, counted-density, counted-simulate, victims,
 * pipeline, soak, bundles, console) and prints their sections instead of writing the file.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { bundleBenchmark } from './bundles';
import { clusterChangeBenchmark } from './cluster-change';
import { coreBenchmark, densityComparison } from './core';
import { countedDensity } from './counted-density';
import { countedSimulate } from './counted-simulate';
import { flushBenchmark, localFlushBenchmark } from './flush';
import { jitBenchmark } from './jit';
import { referenceLine, referenceSeconds } from './reference';
import { simulateScale, storeCallsBenchmark } from './scale';
import { victimQualityBenchmark } from './victims';
import { whatIfBenchmark } from './what-if';

const COMMAND = 'npm run bench';
const log = (line: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${line}`);

function cpuModel(): string {
  const line = readFileSync('/proc/cpuinfo', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('model name'));
  return line?.split(':')[1]?.trim() ?? 'unknown';
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(', ');

/** `onlyWhenNamed`: part of another section, run alone only when named. `referencePerProcess`: its ratios use a reference of their own. */
const SECTIONS: Record<string, { title: string; run: () => Promise<string>; onlyWhenNamed?: boolean; referencePerProcess?: boolean }> = {
  scale: { title: 'Fleet size: outrank simulate', run: async () => simulateScale(log), referencePerProcess: true },
  jit: { title: "Fleet size: V8's optimizing compiler during outrank simulate", run: async () => jitBenchmark(log) },
  'store-calls': { title: 'Fleet size: store calls per scheduled binding', run: () => storeCallsBenchmark(log) },
  'cluster-change': { title: 'Fleet size: store calls of one cluster change', run: () => clusterChangeBenchmark(log) },
  'what-if': { title: 'Fleet size: what-if', run: () => whatIfBenchmark(log) },
  flush: {
    title: 'Fleet size: the unschedulable flush',
    run: async () => {
      process.env.POWERTOOLS_METRICS_DISABLED = 'true';
      process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
      return `${await flushBenchmark(log)}\n\n${await localFlushBenchmark(log)}`;
    },
  },
  core: { title: 'Core: scheduling decisions', run: async () => coreBenchmark(log) },
  // The core's last table alone: a preemption decision at 30 and at 300 bindings per cluster.
  'core-density': { title: 'Core: a preemption decision at two densities', run: async () => densityComparison(log), onlyWhenNamed: true },
  // The same decisions counted under cachegrind (minutes; needs valgrind).
  'counted-density': { title: 'Core: a preemption decision at two densities, counted', run: () => countedDensity(log), onlyWhenNamed: true },
  'counted-simulate': { title: 'Fleet size: the outrank simulate process, counted', run: () => countedSimulate(log), onlyWhenNamed: true },
  victims: {
    title: 'Victim quality',
    run: async () => {
      const { markdown, worseThanGreedy } = victimQualityBenchmark(log);
      // More victims than the greedy is a bug in victim-search.ts, not a figure.
      if (worseThanGreedy > 0) process.exitCode = 1;
      return markdown;
    },
  },
  pipeline: {
    title: 'End to end on the local AWS endpoint',
    run: async () => {
      // Set before the functions load: Powertools reads them when its logger and metrics are made.
      process.env.POWERTOOLS_METRICS_DISABLED = 'true';
      process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
      const { memoryPipelineBenchmark, pipelineBenchmark } = await import('./pipeline');
      return `${(await pipelineBenchmark(log)).markdown}\n\n${await memoryPipelineBenchmark(log)}`;
    },
  },
  soak: {
    title: 'Soak: fifty clients writing at once',
    run: async () => {
      process.env.POWERTOOLS_METRICS_DISABLED = 'true';
      process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
      const { soakBenchmark } = await import('./soak');
      return soakBenchmark(log);
    },
  },
  bundles: { title: 'Lambda bundles', run: () => bundleBenchmark(log) },
  console: {
    title: 'Web console',
    run: async () => {
      const { consoleBenchmark } = await import('./console');
      return consoleBenchmark(log);
    },
  },
};

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in SECTIONS));
if (unknown.length > 0) throw new Error(`unknown benchmark(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
const names = requested.length > 0 ? requested : Object.keys(SECTIONS).filter((name) => !SECTIONS[name]!.onlyWhenNamed);

const started = new Date();
const loadBefore = load();
// Before any section, on a machine the benchmarks do not load yet; every section divides by the same one.
log('reference: ../shared/bench/calibrate.mjs');
const reference = referenceSeconds();
log(`reference: ${reference === undefined ? 'not found' : `${reference} s`}`);
const sections: string[] = [];
for (const name of names) {
  const { title, run, referencePerProcess } = SECTIONS[name]!;
  log(`${name}: start`);
  sections.push(`## ${title}\n\n${referenceLine(referencePerProcess)}\n\n${await run()}`);
}

if (requested.length > 0) {
  console.log(sections.join('\n\n'));
} else {
  const minutes = (Date.now() - started.getTime()) / 60_000;
  const header = [
    '# Benchmarks',
    '',
    `Written by \`${COMMAND}\` (test/bench/main.ts) on ${started.toISOString().slice(0, 10)}, in ${minutes.toFixed(1)} minutes. No test asserts on`,
    'timings; rerun the command to refresh this file.',
    '',
    `- Machine: ${availableParallelism()} cores (\`nproc\`), ${cpuModel()}, Node.js ${process.version}.`,
    `- Load average (1, 5, 15 min) when the run started: ${loadBefore}; when it ended: ${load()}. Other work on the machine`,
    '  slows the wall-clock figures; the core benchmark also reports decisions per CPU-second.',
    `- Reference time (../shared/bench/calibrate.mjs, median of three, measured once before the sections): ${reference === undefined ? 'not measured' : `${reference} s`}.`,
    '  Hosts differ in speed by up to 1.8×: the "÷ reference" figures (a time in seconds divided by it) compare across them.',
    '',
    readFileSync(new URL('./optimisation.md', import.meta.url), 'utf8').trim(),
  ].join('\n');
  writeFileSync(new URL('../../BENCHMARKS.md', import.meta.url), `${header}\n\n${sections.join('\n\n')}\n`);
  log('wrote BENCHMARKS.md');
}
