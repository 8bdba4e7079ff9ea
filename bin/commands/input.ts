import { readFile } from 'node:fs/promises';
import { InvalidObjectError } from '../../lib/api/invalid-object-error';
import { parseManifests } from '../../lib/api/manifest';
import { loadScenario } from '../../lib/simulate/load-scenario';
import type { Scenario } from '../../lib/simulate/scenario';
import { CliError } from '../client/cli-error';

export async function readInput(file: string): Promise<string> {
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  return readFile(file, 'utf8');
}

/** A file of manifests (kubectl apply -f) or a scenario (`outrank simulate -f`): apply takes both. */
export type ApplyInput = { readonly type: 'manifests'; readonly objects: unknown[] } | { readonly type: 'scenario'; readonly scenario: Scenario };

function isScenario(objects: readonly unknown[]): boolean {
  const [first] = objects;
  return objects.length === 1 && typeof first === 'object' && first !== null && 'steps' in first;
}

function parse(text: string, file: string): unknown[] {
  try {
    return parseManifests(text);
  } catch (error) {
    if (!(error instanceof InvalidObjectError)) throw error;
    throw new CliError(`error: ${file} ${error.causes.map((c) => c.message).join('; ')}`);
  }
}

export async function readApplyInput(file: string): Promise<ApplyInput> {
  const text = await readInput(file);
  const objects = parse(text, file);
  return isScenario(objects) ? { type: 'scenario', scenario: loadScenario(text) } : { type: 'manifests', objects };
}
