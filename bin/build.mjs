// Compiles the command line into dist/ (outrank.mjs and its chunks), so that each call starts without
// compiling TypeScript, and bundles the web console into dist/console/. Run by `npm run build`, and so by `npm ci` (prepare) and `npm test`.
import { fileURLToPath } from 'node:url';
import { buildCommandLine } from './build-command-line.mjs';
import { buildConsole } from './build-console.mjs';

await buildCommandLine(fileURLToPath(new URL('../dist/', import.meta.url)));
await buildConsole(fileURLToPath(new URL('../dist/console/', import.meta.url)));
