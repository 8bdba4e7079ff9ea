/**
 * Benchmark 4: the Lambda bundles. Each handler is bundled with esbuild as the stack bundles it
 * (cdk/bundling.ts: ESM, node22, minified, module-first main fields, a require() shim), once with
 * @aws-sdk/* left external, as the stack deploys it since the Lambda runtime provides SDK v3, and once
 * with the SDK inside. Module initialisation is the time to import a bundle in a fresh node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_TARGET, EXTERNAL_MODULES, HANDLERS, MAIN_FIELDS, REQUIRE_SHIM } from '../../cdk/bundling';
import { perReference } from './reference';
import { fmt, median, table } from './stats';

const TARGET_BYTES = 500 * 1024;
const IMPORT_RUNS = 7;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Under node_modules, so that a bundle with the SDK left external still finds it, as it would in Lambda. */
const OUT = `${ROOT}node_modules/.cache/outrank-bench/`;

/** SDK external as deployed; with its source map, run with --enable-source-maps; SDK bundled too. */
type Variant = 'external' | 'mapped' | 'bundled';

interface Bundle {
  readonly file: string;
  readonly bytes: number;
  /** Of which zod. */
  readonly zodBytes: number;
  /** The source map's size, when one was made. */
  readonly mapBytes: number;
}

async function bundle(handler: string, variant: Variant): Promise<Bundle> {
  const outfile = `${OUT}${variant}/${handler}.mjs`;
  const { metafile } = await build({
    entryPoints: [`${ROOT}functions/${handler}.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    target: BUNDLE_TARGET,
    format: 'esm',
    minify: true,
    mainFields: MAIN_FIELDS,
    banner: { js: REQUIRE_SHIM },
    external: variant === 'bundled' ? [] : EXTERNAL_MODULES,
    keepNames: true,
    sourcemap: variant === 'mapped',
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs));
  const zodBytes = inputs.filter(([path]) => path.includes('node_modules/zod/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  return { file: outfile, bytes: statSync(outfile).size, zodBytes, mapBytes: variant === 'mapped' ? statSync(`${outfile}.map`).size : 0 };
}

/** Milliseconds from `import()` to its promise settling, in a new node process each run; the median. */
function importMs(file: string, sourceMaps: boolean): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const flags = [...(sourceMaps ? ['--enable-source-maps'] : []), '--input-type=module', '-e', script];
  const runs = Array.from({ length: IMPORT_RUNS }, () =>
    Number(execFileSync(process.execPath, flags, { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } })),
  );
  return median(runs);
}

const kib = (bytes: number) => `${fmt(bytes / 1024)} KiB`;

export async function bundleBenchmark(log: (line: string) => void): Promise<string> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const rows: (string | number)[][] = [];
  const largest = new Map<Variant, Bundle>();
  for (const handler of HANDLERS) {
    log(`bundles: ${handler}`);
    const row: (string | number)[] = [handler];
    for (const variant of ['external', 'mapped', 'bundled'] as const) {
      const built = await bundle(handler, variant);
      if (built.bytes > (largest.get(variant)?.bytes ?? 0)) largest.set(variant, built);
      const size = variant === 'mapped' ? `+ ${kib(built.mapBytes)} map` : `${kib(built.bytes)}${built.bytes <= TARGET_BYTES ? '' : ' ✗'}`;
      const ms = importMs(built.file, variant === 'mapped');
      row.push(size, `${fmt(ms)} (${perReference(ms / 1000)})`);
    }
    rows.push(row);
  }
  rmSync(OUT, { recursive: true, force: true });
  const size = (variant: Variant) => largest.get(variant)!.bytes;
  const verdict = (variant: Variant) => (size(variant) <= TARGET_BYTES ? 'met' : 'missed');
  return [
    'esbuild, `platform: node`, `target: node22`, `format: esm`, `minify`, `keepNames`, `bundle`, module-first main fields',
    "and the stack's `createRequire` banner. **Choice: `@aws-sdk/*` external**, since the Lambda Node.js 20 runtime",
    'ships SDK v3, as the stack (`cdk/bundling.ts`) does too, and **no source map** (the stack\'s `sourceMaps` property',
    'turns them on): the middle pair of columns is the same bundle with its map, imported with `--enable-source-maps`,',
    'what the stack shipped before; the last pair shows what bundling the SDK would cost. Import time (a Lambda-like',
    'cold initialisation of the handler module): median of',
    `${IMPORT_RUNS} fresh \`node\` processes each, an external SDK loaded from node_modules as the runtime loads its own.`,
    '✗ marks a bundle over the 500 KiB target. In brackets: the import time ÷ the reference.',
    '',
    table(['handler', 'SDK external', 'import ms', 'with source map', 'import ms', 'SDK bundled', 'import ms'], rows),
    '',
    `Largest bundle, SDK external: ${kib(size('external'))} (target ${verdict('external')}), of which zod ${kib(largest.get('external')!.zodBytes)}`,
    "(every file imports zod as `import * as z from 'zod'`, so esbuild keeps only what is used). With the SDK",
    `bundled: ${kib(size('bundled'))}.`,
  ].join('\n');
}
