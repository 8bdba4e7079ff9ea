import { InvalidObjectError } from '../api/invalid-object-error';
import { parseManifests } from '../api/manifest';
import { isPlainObject } from '../api/plain-object';
import { fieldOffsets, loadScenario, locatedErrors, readDocuments, ScenarioError, validScenario, type ReadDocument } from './load-scenario';
import type { Scenario } from './scenario';

/** A file of manifests (what `kubectl apply -f` takes) or a scenario (top-level `steps`). */
export type ScenarioOrManifests = { readonly type: 'scenario'; readonly scenario: Scenario } | { readonly type: 'manifests'; readonly objects: unknown[] };

/** A scenario has top-level `steps`; a Kubernetes object has `apiVersion` and `kind` (and is taken as one even with a field named steps). */
export function isScenarioShaped(value: unknown): boolean {
  return isPlainObject(value) && 'steps' in value && !('kind' in value);
}

/** The manifests of a text as `outrank apply` reads them (lib/api/manifest.ts: several documents, a List, YAML 1.1), errors naming the file. */
export function readManifests(text: string, file: string): unknown[] {
  try {
    return parseManifests(text);
  } catch (error) {
    if (!(error instanceof InvalidObjectError)) throw error;
    throw new ScenarioError([`${file} ${error.causes.map((cause) => cause.message).join('; ')}`]);
  }
}

/** The paths of the objects a document holds, in the order parseManifests returns them (a List's items, a sequence's items). */
function objectPaths(value: unknown): Array<readonly PropertyKey[]> {
  if (Array.isArray(value)) return value.map((_, index) => [index]);
  if (isPlainObject(value) && typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
    return value.items.map((_, index) => ['items', index]);
  }
  return [[]];
}

/** Where each object of the file starts, as offsets, in the order the objects are read. */
function objectOffsets(documents: readonly ReadDocument[], text: string): number[] {
  return documents.flatMap((read) => fieldOffsets(read, text, objectPaths(read.value)));
}

/** What is wrong with an object given to run as a manifest, if anything. */
function manifestProblem(object: unknown): string | undefined {
  const record = isPlainObject(object) ? object : {};
  const hasApiVersion = typeof record.apiVersion === 'string' && record.apiVersion !== '';
  const hasKind = typeof record.kind === 'string' && record.kind !== '';
  if (!hasApiVersion && !hasKind) return 'neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")';
  if (!hasApiVersion) return 'apiVersion: Required value';
  if (!hasKind) return 'kind: Required value';
  return undefined;
}

/** Manifests as a scenario of one step that applies them all, each checked to be an object the API can be given. */
function oneApplyStep(text: string, file: string, documents: readonly ReadDocument[]): Scenario {
  const objects = readManifests(text, file);
  if (objects.length === 0) throw new ScenarioError([`${file}: no objects passed to simulate`]);
  const problems = objects.flatMap((object, index) => {
    const problem = manifestProblem(object);
    return problem === undefined ? [] : [{ index, message: problem }];
  });
  if (problems.length > 0) {
    const offsets = objectOffsets(documents, text);
    throw new ScenarioError(locatedErrors(problems.map(({ index, message }) => ({ offset: offsets[index] ?? 0, message })), text, file));
  }
  return { steps: [{ apply: objects }] };
}

/** What a file given to `outrank simulate -f` runs, and whether it was written as a scenario. */
export interface SimulationSource {
  readonly scenario: Scenario;
  readonly writtenAsScenario: boolean;
}

/**
 * What `outrank simulate -f` runs: a scenario, or a file of manifests (several YAML documents, one
 * manifest, a `kind: List`, JSON) as a scenario of one step applying them, as `outrank apply` and the
 * what-if take them. Errors name the file and the line. The text is read once: a scenario is not
 * bound by the size limit of manifests, since it is the whole run rather than a request.
 */
export function readSimulationSource(text: string, file: string): SimulationSource {
  const documents = readDocuments(text, file);
  const scenario = documents.find((read) => isScenarioShaped(read.value));
  if (scenario === undefined) return { scenario: oneApplyStep(text, file, documents), writtenAsScenario: false };
  if (documents.length > 1) {
    const [offset] = fieldOffsets(scenario, text, [[]]);
    throw new ScenarioError(locatedErrors([{ offset: offset!, message: 'a scenario must be the only document of its file' }], text, file));
  }
  return { scenario: validScenario(scenario, text, file), writtenAsScenario: true };
}

/** The scenario `outrank simulate -f` runs for a file (readSimulationSource). */
export function loadSimulation(text: string, file: string): Scenario {
  return readSimulationSource(text, file).scenario;
}

/** What `outrank apply -f` runs: the steps of a scenario against the server, or the manifests of any other file. */
export function scenarioOrManifests(text: string, file: string): ScenarioOrManifests {
  const objects = readManifests(text, file);
  const [first] = objects;
  return objects.length === 1 && isScenarioShaped(first) ? { type: 'scenario', scenario: loadScenario(text, file) } : { type: 'manifests', objects };
}
