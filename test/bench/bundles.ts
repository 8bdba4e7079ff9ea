/**
 * Benchmark 4: the Lambda bundles. Each handler is bundled with esbuild as the stack bundles it
 * (cdk/handler-function.ts: ESM, node20, minified, module-first main fields, a require() shim), once with
 * @aws-sdk/* left external, as the Lambda runtime provides SDK v3, and once with the SDK inside, as the
 * stack deploys it. Module initialisation is the time to import a bundle in a fresh node process.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { fmt, median, table } from './stats';

const HANDLERS = ['api', 'policy-change', 'binding-enqueue', 'schedule-cycle', 'reconcile'] as const;
const TARGET_BYTES = 500 * 1024;
const IMPORT_RUNS = 7;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Under node_modules, so that a bundle with the SDK left external still finds it, as it would in Lambda. */
const OUT = `${ROOT}node_modules/.cache/outrank-bench/`;

type Variant = 'external' | 'zod-namespace' | 'bundled';

/**
 * What-if: the sources with `import * as z from 'zod'` instead of `import { z } from 'zod'`. The named
 * import is zod's namespace object, which esbuild must keep whole (every locale, JSON Schema support);
 * member accesses on a namespace import let it keep only what is used.
 */
const zodNamespaceImports: Plugin = {
  name: 'zod-namespace-imports',
  setup(context) {
    context.onLoad({ filter: /\/(lib|functions)\/.*\.ts$/ }, async ({ path }) => ({
      contents: (await readFile(path, 'utf8')).replaceAll("import { z } from 'zod';", "import * as z from 'zod';"),
      loader: 'ts',
    }));
  },
};

interface Bundle {
  readonly file: string;
  readonly bytes: number;
  /** Of which zod. */
  readonly zodBytes: number;
}

async function bundle(handler: string, variant: Variant): Promise<Bundle> {
  const outfile = `${OUT}${variant}/${handler}.mjs`;
  const { metafile } = await build({
    entryPoints: [`${ROOT}functions/${handler}.ts`],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    external: variant === 'bundled' ? [] : ['@aws-sdk/*'],
    plugins: variant === 'zod-namespace' ? [zodNamespaceImports] : [],
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.values(metafile.outputs).flatMap((output) => Object.entries(output.inputs));
  const zodBytes = inputs.filter(([path]) => path.includes('node_modules/zod/')).reduce((sum, [, input]) => sum + input.bytesInOutput, 0);
  return { file: outfile, bytes: statSync(outfile).size, zodBytes };
}

/** Milliseconds from `import()` to its promise settling, in a new node process each run; the median. */
function importMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); process.stdout.write(String(performance.now() - t));`;
  const runs = Array.from({ length: IMPORT_RUNS }, () =>
    Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', env: { ...process.env, AWS_REGION: 'us-east-1' } })),
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
    for (const variant of ['external', 'zod-namespace', 'bundled'] as const) {
      const built = await bundle(handler, variant);
      if (built.bytes > (largest.get(variant)?.bytes ?? 0)) largest.set(variant, built);
      row.push(`${kib(built.bytes)}${built.bytes <= TARGET_BYTES ? '' : ' ✗'}`, fmt(importMs(built.file)));
    }
    rows.push(row);
  }
  rmSync(OUT, { recursive: true, force: true });
  const size = (variant: Variant) => largest.get(variant)!.bytes;
  const verdict = (variant: Variant) => (size(variant) <= TARGET_BYTES ? 'met' : 'missed');
  return [
    'esbuild, `platform: node`, `target: node20`, `format: esm`, `minify`, `bundle`, module-first main fields and the',
    "stack's `createRequire` banner; source maps not counted. **Choice: `@aws-sdk/*` external**, since the Lambda",
    'Node.js 20 runtime ships SDK v3, as the stack (`cdk/handler-function.ts`) does too; the last pair of columns',
    'shows what bundling the SDK would cost. Import time: median of',
    `${IMPORT_RUNS} fresh \`node\` processes each, an external SDK loaded from node_modules as the runtime loads its own.`,
    '✗ marks a bundle over the 500 KiB target.',
    '',
    table(
      ['handler', 'SDK external', 'import ms', 'same, `import * as z`', 'import ms', 'SDK bundled', 'import ms'],
      rows,
    ),
    '',
    `Largest bundle, SDK external: ${kib(size('external'))} (target ${verdict('external')}), of which zod ${kib(largest.get('external')!.zodBytes)}:`,
    "`import { z } from 'zod'` is zod's namespace object, which esbuild keeps whole (every locale, JSON Schema",
    "support). With `import * as z from 'zod'` in the files that import zod (lib/api, lib/auth, lib/config.ts,",
    `lib/simulate, functions/), the middle columns, built by rewriting the import on the fly: ${kib(size('zod-namespace'))} (target ${verdict('zod-namespace')}).`,
    `With the SDK bundled: ${kib(size('bundled'))}.`,
  ].join('\n');
}
