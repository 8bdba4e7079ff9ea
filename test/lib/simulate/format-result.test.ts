import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { formatSimulation } from '../../../lib/simulate/format-result';
import { loadScenario } from '../../../lib/simulate/load-scenario';
import { runScenario } from '../../../lib/simulate/run-scenario';

const examplesDirectory = new URL('../../../examples/', import.meta.url);
const examples = (await readdir(examplesDirectory)).filter((file) => file.endsWith('.yaml')).sort();

async function simulate(file: string) {
  const scenario = loadScenario(await readFile(new URL(file, examplesDirectory), 'utf8'), file);
  return { scenario, result: await runScenario(scenario) };
}

/**
 * The summary people read, compared with the text checked in under golden/ (the simulation is
 * deterministic): a change of wording or of a decision shows as a diff there (`vitest -u` rewrites it).
 */
describe('the summary of each example', () => {
  it.each(examples)('%s', async (file) => {
    const { scenario, result } = await simulate(file);
    await expect(`${formatSimulation(result, { description: scenario.description })}\n`).toMatchFileSnapshot(`golden/${file.replace(/\.yaml$/, '.txt')}`);
  });

  it('with -o wide and --events: every binding and every event, then the summary', async () => {
    const { scenario, result } = await simulate('000-binding-preemption.yaml');
    await expect(`${formatSimulation(result, { description: scenario.description, wide: true, events: true })}\n`).toMatchFileSnapshot('golden/000-binding-preemption-wide-events.txt');
  });
});
