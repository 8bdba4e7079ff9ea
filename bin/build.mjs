// Compiles the command line into one JavaScript file, dist/outrank.mjs, so that each call starts without
// compiling TypeScript. Run by `npm run build`, and so by `npm ci` (prepare) and `npm test`.
import { build } from 'esbuild';

await build({
  entryPoints: [new URL('cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/outrank.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  // Some bundled dependencies are CommonJS and call require.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});
