// Compiles the command line into one JavaScript file, dist/outrank.mjs, so that each call starts without
// compiling TypeScript, and bundles the web console into dist/console/. Run by `npm run build`, and so by `npm ci` (prepare) and `npm test`.
import { build } from 'esbuild';
import { buildConsole } from './build-console.mjs';

await build({
  entryPoints: [new URL('cli.ts', import.meta.url).pathname],
  outfile: new URL('../dist/outrank.mjs', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  // Whatever Node.js the user has, 20 or later (package.json engines); the Lambda bundles target 22 (cdk/bundling.ts).
  target: 'node20',
  format: 'esm',
  // Some bundled dependencies are CommonJS and call require.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  logLevel: 'warning',
});

await buildConsole(new URL('../dist/console/', import.meta.url).pathname);
