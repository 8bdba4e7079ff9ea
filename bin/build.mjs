// Compiles the command line into dist/outrank.mjs, so that each call starts without compiling
// TypeScript, and bundles the web console into dist/console/. Run by `npm run build`, and so by `npm ci` (prepare) and `npm test`.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';
import { buildConsole } from './build-console.mjs';

const chunks = new URL('../dist/chunks/', import.meta.url).pathname;
// Chunks are named by their content: those of an earlier build would stay beside the new ones.
rmSync(chunks, { recursive: true, force: true });
await build({
  entryPoints: { outrank: new URL('cli.ts', import.meta.url).pathname },
  outdir: new URL('../dist/', import.meta.url).pathname,
  // What a command imports when it runs (the AWS SDK, to sign requests to a deployed API) is a chunk
  // of its own in dist/chunks/, read only by the commands that need it: the others start sooner.
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
});

await buildConsole(new URL('../dist/console/', import.meta.url).pathname);
