import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../lib/simulate/load-scenario';
import { runScenario } from '../../lib/simulate/run-scenario';
import type { Context } from 'aws-lambda';
import type { HandlerWrappers } from '../../functions/local/local-functions';
import { comparable, Pipeline } from './pipeline';

const examplesDirectory = new URL('../../examples/', import.meta.url);
const examples = (await readdir(examplesDirectory)).filter((file) => file.endsWith('.yaml')).sort();

async function runThroughPipeline(file: string, wrap?: HandlerWrappers) {
  const scenario = loadScenario(await readFile(new URL(file, examplesDirectory), 'utf8'));
  const pipeline = await Pipeline.start({ wrap });
  try {
    const refused: Array<{ step: number; status: number; message: string }> = [];
    for (const [index, step] of scenario.steps.entries()) {
      for (const refusal of await pipeline.step(step)) refused.push({ step: index + 1, ...refusal });
      await pipeline.settle();
    }
    expect(pipeline.errors).toEqual([]);
    return { scenario, bindings: await pipeline.bindings(), refused };
  } finally {
    await pipeline.stop();
  }
}

/** Delivers every batch to the handler twice before the poller moves on, as an at-least-once queue or stream may. */
const twice = <E>(handler: (event: E, context: Context) => Promise<unknown>) => async (event: E, context: Context) => {
  await handler(event, context);
  return handler(event, context);
};

describe('the deployed pipeline on the local AWS endpoint agrees with outrank simulate', () => {
  it.each(examples)('%s', async (file) => {
    const { scenario, bindings, refused } = await runThroughPipeline(file);
    const simulated = await runScenario(scenario);
    expect(comparable(bindings)).toEqual(comparable(simulated.bindings));
    expect(refused.map((r) => r.step)).toEqual(simulated.rejections.map((r) => r.step));
  });

  it.each(examples)('%s with every message delivered twice', async (file) => {
    const { scenario, bindings } = await runThroughPipeline(file, { queue: twice, stream: twice });
    const simulated = await runScenario(scenario);
    expect(comparable(bindings)).toEqual(comparable(simulated.bindings));
  });
});
