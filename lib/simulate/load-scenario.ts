import { parse } from 'yaml';
import { fieldPath } from '../api/invalid-object-error';
import { scenarioSchema, type Scenario } from './scenario';

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** JSON text as YAML would read it; YAML's own parser is the judge of text that is not plain JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parse(text, { maxAliasCount: 64 });
  }
}

/** Reads a scenario from YAML or JSON text; errors name the field of the scenario that is wrong. */
export function loadScenario(text: string): Scenario {
  let raw: unknown;
  try {
    // JSON is YAML, but a JSON parser reads a large generated scenario many times faster.
    raw = text.trimStart().startsWith('{') ? parseJson(text) : parse(text, { maxAliasCount: 64 });
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
