// Compiles the command line (bin/cli.ts) into a folder: outrank.mjs, and in chunks/ the code it shares
// and what a command imports only when it needs it (the AWS SDK, to sign requests to a deployed API).
import { readdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = fileURLToPath(new URL('cli.ts', import.meta.url));

/** esbuild's options for the command line written to `outdir`. */
export function commandLineOptions(outdir) {
  return {
    entryPoints: { outrank: entry },
    outdir,
    // A dynamic import is a chunk of its own, read by the first call that needs it: the others start sooner.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    // Whatever Node.js the user has, 20 or later (package.json engines); the Lambda bundles target 22 (cdk/bundling.ts).
    target: 'node20',
    format: 'esm',
    // Some bundled dependencies are CommonJS and call require; each output file has its own.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
    logLevel: 'warning',
  };
}

/**
 * Writes the command line to `outdir`, then removes the chunks an earlier build left there (chunks are
 * named by their content). Only after the build succeeded: a failed one leaves the last whole.
 */
export async function buildCommandLine(outdir) {
  const { metafile } = await build({ ...commandLineOptions(outdir), metafile: true });
  const written = new Set(Object.keys(metafile.outputs).map((path) => resolve(path)));
  const chunks = join(outdir, 'chunks');
  for (const name of await readdir(chunks)) {
    if (!written.has(join(chunks, name))) await rm(join(chunks, name));
  }
}
