/** The compiled command line: what its entry holds, and the chunks a build leaves. */
import { mkdtemp, readdir, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCommandLine, commandLineOptions } from '../../bin/build-command-line.mjs';

const SDK = /node_modules\/@(aws-sdk|smithy)\//;

describe('the command line as npm run build compiles it', () => {
  let outdir: string;
  beforeAll(async () => {
    outdir = await mkdtemp(join(tmpdir(), 'outrank-cli-'));
  });
  afterAll(() => rm(outdir, { recursive: true, force: true }));

  it('holds no AWS SDK module in its entry nor in what the entry imports at start: the SDK is a chunk read by the first request signed', { timeout: 60_000 }, async () => {
    const { metafile } = await build({ ...commandLineOptions(outdir), write: false, metafile: true });
    const outputs: Metafile['outputs'] = metafile.outputs;
    const entry = Object.keys(outputs).find((path) => path.endsWith('/outrank.mjs'))!;
    const atStart = [entry, ...outputs[entry]!.imports.filter((i) => i.kind === 'import-statement' && !i.external).map((i) => i.path)];
    for (const path of atStart) expect(Object.keys(outputs[path]!.inputs).filter((input) => SDK.test(input)), path).toEqual([]);
    const signing = Object.keys(outputs).filter((path) => Object.keys(outputs[path]!.inputs).some((input) => input.includes('@aws-sdk/credential-provider-node')));
    expect(signing.length).toBeGreaterThan(0);
    expect(signing.every((path) => path.includes('/chunks/'))).toBe(true);
  });

  it('removes the chunks an earlier build left, and only those', { timeout: 60_000 }, async () => {
    await mkdir(join(outdir, 'chunks'), { recursive: true });
    await writeFile(join(outdir, 'chunks', 'left-by-an-earlier-build-ABCD1234.mjs'), 'export {};\n');
    await buildCommandLine(outdir);
    const chunks = await readdir(join(outdir, 'chunks'));
    expect(chunks).not.toContain('left-by-an-earlier-build-ABCD1234.mjs');
    expect(chunks.some((name) => name.startsWith('aws-sigv4-'))).toBe(true);
    expect(await readdir(outdir)).toContain('outrank.mjs');
  });
});
