/**
 * What V8's optimizing compiler does during one cold `outrank simulate` of the 10,000-workload scale
 * scenario, read from `--trace-opt` and `--trace-deopt-verbose`: how many TurboFan compilations and how
 * long they took on the compiler thread, how many compiled a function whose code was compiled before (its
 * optimized code thrown out by a deoptimization, or another closure of the same function), and
 * where the deoptimizations are, by reason and by source file. Half of a cold run is the hot paths
 * waiting for that compiler (BENCHMARKS, nineteenth round); these counts move far less between runs
 * than the wall clock does, so a change that gives objects fewer shapes can be judged by them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCommandLine, curveSize } from './scale';
import { scaleScenario } from './scale-scenario';
import { perReference } from './reference';
import { fmt, table } from './stats';

const OUTRANK = fileURLToPath(new URL('../../bin/outrank.mjs', import.meta.url));
const BUNDLE = fileURLToPath(new URL('../../dist/outrank.mjs', import.meta.url));
const WORKLOADS = 10_000;
const SHOWN = 12;

/** `[completed compiling 0x… <JSFunction name (sfi = 0x…)> (target TURBOFAN) - took a, b, c ms]` */
const COMPILED = /^\[completed compiling .*<JSFunction (\S*) \(sfi = (0x[0-9a-f]+)\)> \(target TURBOFAN\) - took [\d.]+, ([\d.]+), [\d.]+ ms\]/;
/** `[bailout (kind: …, reason: …): begin. deoptimizing 0x… <JSFunction name (sfi = …)>, …` */
const BAILOUT = /^\[bailout \(kind: [^,]+, reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction (\S*) /;
/** `;;; deoptimize at <file:///…/dist/outrank.mjs:LINE:COLUMN>` */
const POSITION = /deoptimize at <[^>]*outrank\.mjs:(\d+):\d+>/;

interface Compilation {
  readonly name: string;
  readonly ms: number;
  /** A compilation of a function compiled before: its earlier code thrown out, or another closure of it. */
  readonly again: boolean;
}

interface Deoptimization {
  readonly reason: string;
  readonly name: string;
  /** The source file of the bundle line it happened at ('?' when unknown). */
  readonly file: string;
}

/** The source file each line of the bundle comes from, by esbuild's `// path` comment heading each module. */
function sourceFiles(bundle: string): (line: number) => string {
  const starts: Array<{ line: number; file: string }> = [];
  readFileSync(bundle, 'utf8')
    .split('\n')
    .forEach((text, index) => {
      const heading = /^\/\/ ((?:lib|functions|bin|node_modules)\/\S+)$/.exec(text);
      if (heading) starts.push({ line: index + 1, file: heading[1]! });
    });
  return (line) => {
    let file = '?';
    for (const start of starts) {
      if (start.line > line) break;
      file = start.file;
    }
    return file.startsWith('node_modules/') ? file.split('/').slice(0, 2).join('/') : file;
  };
}

function read(trace: string, fileOf: (line: number) => string): { compilations: Compilation[]; deoptimizations: Deoptimization[] } {
  const compiled = new Set<string>();
  const compilations: Compilation[] = [];
  const deoptimizations: Deoptimization[] = [];
  const lines = trace.split('\n');
  lines.forEach((line, index) => {
    const compilation = COMPILED.exec(line);
    if (compilation) {
      const [, name, sfi, ms] = compilation;
      compilations.push({ name: name || '(anonymous)', ms: Number(ms), again: compiled.has(sfi!) });
      compiled.add(sfi!);
      return;
    }
    const bailout = BAILOUT.exec(line);
    if (!bailout) return;
    const position = POSITION.exec(lines[index + 1] ?? '');
    deoptimizations.push({ reason: bailout[1]!, name: bailout[2] || '(anonymous)', file: position ? fileOf(Number(position[1])) : '?' });
  });
  return { compilations, deoptimizations };
}

function countsBy<T>(items: readonly T[], key: (item: T) => string, weight: (item: T) => number = () => 1): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + weight(item));
  return [...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1));
}

export function jitBenchmark(log: (line: string) => void): string {
  buildCommandLine(log);
  const directory = mkdtempSync(join(tmpdir(), 'outrank-jit-'));
  try {
    const scenario = join(directory, 'scenario.json');
    writeFileSync(scenario, JSON.stringify(scaleScenario(curveSize(WORKLOADS))));
    log(`jit: simulate ${WORKLOADS} workloads under --trace-opt --trace-deopt-verbose`);
    // The traces are written to standard output with the result; only their lines are read.
    const trace = execFileSync(process.execPath, ['--trace-opt', '--trace-deopt-verbose', OUTRANK, 'simulate', '-f', scenario, '-o', 'json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    const { compilations, deoptimizations } = read(trace, sourceFiles(BUNDLE));
    const again = compilations.filter((compilation) => compilation.again);
    const seconds = (list: readonly Compilation[]) => list.reduce((sum, compilation) => sum + compilation.ms, 0) / 1000;
    const [allSeconds, againSeconds] = [seconds(compilations), seconds(again)];
    const recompiled = countsBy(again, (compilation) => compilation.name, (compilation) => compilation.ms).slice(0, SHOWN);
    return [
      `One cold \`outrank simulate\` of the scale scenario at ${WORKLOADS.toLocaleString('en-US')} workloads (test/bench/jit.ts), read from V8's`,
      '`--trace-opt` and `--trace-deopt-verbose`: TurboFan compilations and their time on the compiler thread, those that',
      'compile a function compiled before (after a deoptimization threw its code out, or for another closure of it), and the',
      'deoptimizations by reason and by source file.',
      '',
      table(
        ['TurboFan compilations', 'compiler-thread s', '÷ reference', 'compiled again', 'their s', '÷ reference', 'deoptimizations', '"wrong map"'],
        [
          [
            compilations.length,
            fmt(allSeconds),
            perReference(allSeconds),
            again.length,
            fmt(againSeconds),
            perReference(againSeconds),
            deoptimizations.length,
            deoptimizations.filter((d) => d.reason === 'wrong map').length,
          ],
        ],
      ),
      '',
      `Compiled again, by function (the ${SHOWN} costing most):`,
      '',
      table(['function', 'compiler-thread ms'], recompiled.map(([name, ms]) => [name, fmt(ms)])),
      '',
      'Deoptimizations by reason, and by the source file where the optimized code gave up:',
      '',
      table(['reason', 'deoptimizations'], countsBy(deoptimizations, (d) => d.reason)),
      '',
      table(['source file', 'deoptimizations'], countsBy(deoptimizations, (d) => d.file).slice(0, SHOWN)),
    ].join('\n');
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
