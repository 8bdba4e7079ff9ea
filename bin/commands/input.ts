import { readFile } from 'node:fs/promises';
import { ScenarioError } from '../../lib/simulate/load-scenario';
import type { Scenario } from '../../lib/simulate/scenario';
import { loadSimulation, scenarioOrManifests, type ScenarioOrManifests } from '../../lib/simulate/simulation-input';
import { CliError } from '../client/cli-error';

/** A file's text; a file that is not there is named as kubectl names it. */
export async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError(`error: the path "${file}" does not exist`);
    if (code === 'EISDIR') throw new CliError(`error: the path "${file}" is a directory: give a file`);
    throw error;
  }
}

/** How errors name the file: standard input as kubectl names it. */
function displayName(file: string): string {
  return file === '-' ? 'STDIN' : file;
}

/** Runs `read` on the file's text; a ScenarioError becomes one "error: …" line per error. */
async function readWith<T>(file: string, read: (text: string, name: string) => T): Promise<T> {
  const text = await readInput(file);
  try {
    return read(text, displayName(file));
  } catch (error) {
    if (error instanceof ScenarioError) throw new CliError(error.lines.map((line) => `error: ${line}`).join('\n'));
    throw error;
  }
}

/** A file of manifests (kubectl apply -f) or a scenario (`outrank simulate -f`): apply takes both. */
export type ApplyInput = ScenarioOrManifests;

export function readApplyInput(file: string): Promise<ApplyInput> {
  return readWith(file, scenarioOrManifests);
}

/** What `outrank simulate` runs: a scenario, or manifests as a scenario of one apply step. */
export function readSimulationInput(file: string): Promise<Scenario> {
  return readWith(file, loadSimulation);
}
