import { parse } from 'yaml';
import { fieldPath } from '../api/invalid-object-error';
import { scenarioSchema, type Scenario } from './scenario';

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** Reads a scenario from YAML or JSON text; errors name the field of the scenario that is wrong. */
export function loadScenario(text: string): Scenario {
  let raw: unknown;
  try {
    raw = parse(text, { maxAliasCount: 64 });
  } catch (error) {
    throw new ScenarioError(`scenario is not valid YAML or JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  const result = scenarioSchema.safeParse(raw);
  if (!result.success) {
    throw new ScenarioError(
      `invalid scenario: ${result.error.issues.map((issue) => `${fieldPath(issue.path)}: ${issue.message}`).join('; ')}`,
    );
  }
  return result.data;
}
