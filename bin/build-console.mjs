// Bundles the web console (console/) into a folder: app.js (Preact and the pages), index.html and
// style.css, which the API serves at / and /console/.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

const source = new URL('../console/', import.meta.url).pathname;

/** Writes the console's three files to `outdir`. */
export async function buildConsole(outdir) {
  await mkdir(outdir, { recursive: true });
  await build({
    entryPoints: [join(source, 'main.tsx')],
    outfile: join(outdir, 'app.js'),
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    logLevel: 'warning',
  });
  await Promise.all(['index.html', 'style.css'].map((file) => copyFile(join(source, file), join(outdir, file))));
}
