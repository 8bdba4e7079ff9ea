import type { BuildOptions } from 'esbuild';

/** esbuild's options for the command line written to `outdir`. */
export function commandLineOptions(outdir: string): BuildOptions;
/** Writes the command line to `outdir` (outrank.mjs and chunks/), then removes the chunks an earlier build left there. */
export function buildCommandLine(outdir: string): Promise<void>;
