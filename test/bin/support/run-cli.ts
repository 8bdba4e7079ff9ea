import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../bin/program';

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The command line in this process, with its output captured: fast enough to run it many times per test. */
export async function outrank(...args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  return { code, stdout, stderr };
}

const root = new URL('../../../', import.meta.url).pathname;

/**
 * The command line as users run it, `node bin/outrank.mjs ...`, to check the process's own exit code
 * and streams. Only the server a test names is used, never an OUTRANK_SERVER of the shell running the
 * tests; `env` sets variables of the process, or, undefined, leaves them out.
 */
export function outrankProcess(args: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<CliResult> {
  const { OUTRANK_SERVER: _ignored, ...inherited } = process.env;
  const variables = Object.fromEntries(Object.entries({ ...inherited, ...env }).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return new Promise((resolve) => {
    execFile('node', ['bin/outrank.mjs', ...args], { cwd: root, env: variables }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The rows of a table as arrays of cells (cells hold no double spaces; columns are three spaces apart). */
export function rows(table: string): string[][] {
  return table.trimEnd().split('\n').map((line) => line.split(/\s{2,}/));
}

/** A file in a fresh temporary directory, for commands that read -f. */
export async function tempFile(name: string, text: string): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'outrank-cli-')), name);
  await writeFile(file, text);
  return file;
}
