import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { ScenarioError } from '../../lib/simulate/load-scenario';
import type { Scenario } from '../../lib/simulate/scenario';
import { loadSimulation, readManifests, readSimulationSource as readSimulationText, scenarioOrManifests, type ScenarioOrManifests, type SimulationSource } from '../../lib/simulate/simulation-input';
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

/** The extensions kubectl reads in a directory given to -f. */
const MANIFEST_EXTENSIONS = new Set(['.json', '.yaml', '.yml']);

/** The manifest files of a directory in name order, as `kubectl apply -f DIR` takes them (not recursively); none when `path` is not a directory. */
async function directoryFiles(path: string): Promise<string[] | undefined> {
  if (path === '-') return undefined;
  const found = await stat(path).catch(() => undefined);
  if (!found?.isDirectory()) return undefined;
  const entries = await readdir(path, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && MANIFEST_EXTENSIONS.has(extname(entry.name)))
    .map((entry) => join(path, entry.name))
    .sort();
}

/** The objects of every manifest file of a directory, in file order; a scenario has steps of its own and cannot be one file among others. */
async function directoryObjects(files: readonly string[], objectsOf: (text: string, name: string) => unknown[]): Promise<unknown[]> {
  const objects: unknown[] = [];
  for (const file of files) {
    const read = await readWith(file, (text, name) => {
      if (scenarioOrManifests(text, name).type === 'scenario') throw new ScenarioError([`${name}: a scenario must be given as a file, not in a directory`]);
      return objectsOf(text, name);
    });
    objects.push(...read);
  }
  return objects;
}

/** A file or directory of manifests (kubectl apply -f) or a scenario file (`outrank simulate -f`): apply takes both. */
export type ApplyInput = ScenarioOrManifests;

export async function readApplyInput(file: string): Promise<ApplyInput> {
  const files = await directoryFiles(file);
  if (files === undefined) return readWith(file, scenarioOrManifests);
  return { type: 'manifests', objects: await directoryObjects(files, readManifests) };
}

async function readSimulationSource(file: string): Promise<SimulationSource> {
  const files = await directoryFiles(file);
  if (files === undefined) {
    return readWith(file, readSimulationText);
  }
  const objects = await directoryObjects(files, (text, name) => loadSimulation(text, name).steps.flatMap((step) => ('apply' in step ? step.apply : [])));
  if (objects.length === 0) throw new CliError(`error: ${file}: no objects passed to simulate`);
  return { scenario: { steps: [{ apply: objects }] }, writtenAsScenario: false };
}

/**
 * What `outrank simulate -f A [-f B …]` runs: a scenario file, or manifests (a file or a directory of
 * them) as a scenario of one apply step; several sources of manifests make one step each, in the order
 * given. A scenario has steps of its own, so it must be the only source.
 */
export async function readSimulationInput(files: readonly string[]): Promise<Scenario> {
  const sources: SimulationSource[] = [];
  for (const file of files) sources.push(await readSimulationSource(file));
  if (sources.length === 1) return sources[0]!.scenario;
  const scenarioAt = sources.findIndex((source) => source.writtenAsScenario);
  if (scenarioAt >= 0) throw new CliError(`error: ${files[scenarioAt]}: a scenario must be the only -f given to simulate`);
  return { steps: sources.flatMap((source) => source.scenario.steps) };
}
