import { fieldPath } from '../api/invalid-object-error';
import { composeDocuments, nestedDeeperThan, NestingDepthError } from '../api/nesting-depth';
import { scenarioSchema, type Scenario } from './scenario';

export class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** One YAML document, as `parse` reads it, composed only within the nesting limit. */
function parseYaml(text: string): unknown {
  const documents = composeDocuments(text, {});
  if (documents.length > 1) throw new Error('it holds more than one YAML document');
  const [document] = documents;
  const error = document?.errors[0];
  if (error) throw error;
  return document ? document.toJS({ maxAliasCount: 64 }) : null;
}

/** JSON text as YAML would read it; YAML's own parser is the judge of text that is not plain JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text);
  }
}

/** Reads a scenario from YAML or JSON text; errors name the field of the scenario that is wrong. */
export function loadScenario(text: string): Scenario {
  let raw: unknown;
  try {
    // JSON is YAML, but a JSON parser reads a large generated scenario many times faster.
    raw = text.trimStart().startsWith('{') ? parseJson(text) : parseYaml(text);
    if (nestedDeeperThan(raw)) throw new NestingDepthError();
  } catch (error) {
    if (error instanceof NestingDepthError) throw new ScenarioError(`scenario ${error.message}`);
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
