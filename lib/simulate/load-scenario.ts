import type { Document } from 'yaml';
import { composeDocuments, nestedDeeperThan, NestingDepthError } from '../api/nesting-depth';
import { fieldErrorsOf } from './field-errors';
import { scenarioSchema, type Scenario } from './scenario';
import { jsonOffsets } from './json-offsets';
import { lineCounterOf, offsetOf } from './source-lines';

/** Past this many, a file's errors end with how many more there are: a generated file can hold thousands. */
const MAX_ERRORS_SHOWN = 20;

/** A file that is not a scenario one can run; each of `lines` is one error, most naming the file and line. */
export class ScenarioError extends Error {
  constructor(readonly lines: readonly string[]) {
    super(lines.join('\n'));
    this.name = 'ScenarioError';
  }
}

/** One document of a text: its value, and the YAML document it was read from, or that the text was read as JSON. */
export interface ReadDocument {
  readonly value: unknown;
  readonly document?: Document.Parsed;
  readonly json?: true;
}

/** The non-empty documents of a YAML text, composed only within the nesting limit; a syntax error is reported at its line. */
function composeYaml(text: string, file: string): Document.Parsed[] {
  const documents = composeDocuments(text, {});
  for (const document of documents) {
    const [error] = document.errors;
    if (error) throw new ScenarioError([`${file}:${lineCounterOf(text)(error.pos[0])}: not valid YAML or JSON: ${error.message.split('\n')[0]}`]);
  }
  return documents.filter((document) => document.contents !== null);
}

function valueOf(document: Document.Parsed, file: string): unknown {
  try {
    return document.toJS({ maxAliasCount: 64 });
  } catch (error) {
    throw new ScenarioError([`${file}: could not be read: ${(error as Error).message.split('\n')[0]}`]);
  }
}

/**
 * The documents of a YAML or JSON text. JSON is YAML, but a JSON parser reads a large generated scenario
 * many times faster; YAML's own parser is the judge of text that is not plain JSON. A text nested too
 * deep is refused with the nesting rule.
 */
export function readDocuments(text: string, file: string): ReadDocument[] {
  try {
    if (text.trimStart().startsWith('{')) {
      const value = parsedJson(text);
      if (value !== undefined) {
        if (nestedDeeperThan(value)) throw new NestingDepthError();
        return [{ value, json: true }];
      }
    }
    const read = composeYaml(text, file).map((document) => ({ value: valueOf(document, file), document }));
    if (read.some(({ value }) => nestedDeeperThan(value))) throw new NestingDepthError();
    return read;
  } catch (error) {
    if (error instanceof NestingDepthError) throw new ScenarioError([`scenario ${error.message}`]);
    throw error;
  }
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Where the fields at `paths` are written in the text `read` came from, as offsets (offsetOf): in its
 * YAML document, or, for a text read as JSON, by a pass over the JSON text; the start of the text for
 * a text without documents.
 */
export function fieldOffsets(read: ReadDocument, text: string, paths: ReadonlyArray<readonly PropertyKey[]>): number[] {
  const { document } = read;
  if (document) return paths.map((path) => offsetOf(document, path));
  return read.json ? jsonOffsets(text, paths) : paths.map(() => 0);
}

/** `file:line: message` for each error, in the order of the lines, at most MAX_ERRORS_SHOWN of them. */
export function locatedErrors(errors: ReadonlyArray<{ offset: number; message: string }>, text: string, file: string): string[] {
  const lineOf = lineCounterOf(text);
  const lines = [...errors].sort((a, b) => a.offset - b.offset).map((error) => `${file}:${lineOf(error.offset)}: ${error.message}`);
  if (lines.length <= MAX_ERRORS_SHOWN) return lines;
  return [...lines.slice(0, MAX_ERRORS_SHOWN), `… and ${lines.length - MAX_ERRORS_SHOWN} more errors`];
}

/** A document that is a scenario: validated, its errors worded as kube-apiserver's field errors at their lines. */
export function validScenario(read: ReadDocument, text: string, file: string): Scenario {
  const result = scenarioSchema.safeParse(read.value, { reportInput: true });
  if (result.success) return result.data;
  const errors = fieldErrorsOf(result.error.issues);
  const offsets = fieldOffsets(read, text, errors.map(({ path }) => path));
  throw new ScenarioError(locatedErrors(errors.map(({ message }, index) => ({ offset: offsets[index]!, message })), text, file));
}

/** Reads a scenario from YAML or JSON text; errors name the file, the line and the field (`scenario.yaml:7: steps[2].apply: Required value`). */
export function loadScenario(text: string, file = 'scenario'): Scenario {
  const documents = readDocuments(text, file);
  if (documents.length > 1) throw new ScenarioError([`${file}: a scenario must be the only document of its file`]);
  return validScenario(documents[0] ?? { value: null }, text, file);
}
