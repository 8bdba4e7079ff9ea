import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { composeDocuments } from '../../../lib/api/nesting-depth';
import { ScenarioError } from '../../../lib/simulate/load-scenario';
import { runScenario } from '../../../lib/simulate/run-scenario';
import { loadSimulation, readSimulationSource, scenarioOrManifests } from '../../../lib/simulate/simulation-input';

const CLUSTER = `apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: m1}
status: {resourceSummary: {allocatable: {cpu: "2", pods: "10"}}}`;
const POLICY = `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]`;
const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 2, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: a, image: b, resources: {requests: {cpu: "1"}}}]}}}`;

// Counted, not changed: a JSON text's errors must be located without composing it as YAML.
vi.mock('../../../lib/api/nesting-depth', async (importActual) => {
  const actual = await importActual<typeof import('../../../lib/api/nesting-depth')>();
  return { ...actual, composeDocuments: vi.fn(actual.composeDocuments) };
});

function errorOf(run: () => unknown): ScenarioError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScenarioError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('loadSimulation of manifests', () => {
  const objects = [CLUSTER, POLICY, DEPLOYMENT];

  it.each([
    ['several YAML documents', objects.join('\n---\n')],
    ['a List', `apiVersion: v1\nkind: List\nitems:\n${objects.map((o) => `- ${o.replaceAll('\n', '\n  ')}`).join('\n')}`],
    ['JSON', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects.map((object) => parse(object)) })],
  ])('runs %s as one apply step', async (_, text) => {
    const scenario = loadSimulation(text, 'manifests.yaml');
    expect(scenario.steps).toHaveLength(1);
    expect(scenario.steps[0]).toEqual({ apply: [expect.objectContaining({ kind: 'Cluster' }), expect.objectContaining({ kind: 'PropagationPolicy' }), expect.objectContaining({ kind: 'Deployment' })] });
    const result = await runScenario(scenario);
    expect(result.bindings.map((b) => [b.name, b.clusters])).toEqual([['web-deployment', [{ name: 'm1', replicas: 2 }]]]);
  });

  it('runs a single manifest', () => {
    expect(loadSimulation(CLUSTER, 'cluster.yaml')).toEqual({ steps: [{ apply: [expect.objectContaining({ kind: 'Cluster', metadata: { name: 'm1' } })] }] });
  });

  it('takes an object with a field named steps for a manifest, as it has a kind', () => {
    expect(loadSimulation('apiVersion: example.com/v1\nkind: Pipeline\nmetadata: {name: p}\nsteps: []\n', 'p.yaml').steps).toEqual([{ apply: [expect.objectContaining({ kind: 'Pipeline' })] }]);
  });

  it('refuses a file that is neither, naming the line of each object that is not a manifest', () => {
    expect(errorOf(() => loadSimulation('foo: bar\n', 'notes.yaml')).lines).toEqual([
      'notes.yaml:1: neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")',
    ]);
    expect(errorOf(() => loadSimulation(`${CLUSTER}\n---\n# a note\nowner: me\n---\napiVersion: apps/v1\nmetadata: {name: x}\n`, 'mixed.yaml')).lines).toEqual([
      'mixed.yaml:7: neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")',
      'mixed.yaml:9: kind: Required value',
    ]);
  });

  it('refuses a file without objects, and a scenario beside other documents', () => {
    expect(errorOf(() => loadSimulation('', 'empty.yaml')).lines).toEqual(['empty.yaml: no objects passed to simulate']);
    expect(errorOf(() => loadSimulation(`${CLUSTER}\n---\nsteps: [{wait: 1m}]\n`, 'two.yaml')).lines).toEqual(['two.yaml:6: a scenario must be the only document of its file']);
  });

  it('reads manifests as outrank apply does, with its limits', () => {
    expect(errorOf(() => loadSimulation(Array.from({ length: 1_001 }, () => CLUSTER).join('\n---\n'), 'many.yaml')).lines).toEqual(['many.yaml must hold at most 1000 documents']);
  });

  it('says whether the file was written as a scenario', () => {
    expect(readSimulationSource(objects.join('\n---\n'), 'manifests.yaml').writtenAsScenario).toBe(false);
    expect(readSimulationSource('steps: [{wait: 1m}]\n', 'scenario.yaml')).toEqual({ scenario: { steps: [{ wait: 60_000 }] }, writtenAsScenario: true });
  });

  it('reads a scenario larger than the size limit of manifests, since it is the whole run and not a request', () => {
    const deployments = Array.from({ length: 4_000 }, (_, index) => ({ ...parse(DEPLOYMENT), metadata: { name: `web-${index}`, namespace: 'default' } }));
    const text = JSON.stringify({ steps: [{ apply: deployments }] });
    expect(text.length).toBeGreaterThan(1024 * 1024);
    const source = readSimulationSource(text, 'large.json');
    expect(source.writtenAsScenario).toBe(true);
    expect(source.scenario.steps[0]).toEqual({ apply: deployments });
  });

  it('names the line of an error in a large JSON scenario, found in the JSON text without composing it as YAML', () => {
    const deployments = Array.from({ length: 4_000 }, (_, index) => ({ ...parse(DEPLOYMENT), metadata: { name: `web-${index}`, namespace: 'default' } }));
    const text = JSON.stringify({ steps: [{ apply: deployments }, { wait: '1m' }, { apply: [] }, { delete: [{ kind: 'Deployment', name: 'web-1' }] }] }, null, 1);
    const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length;
    vi.mocked(composeDocuments).mockClear();
    expect(errorOf(() => loadSimulation(text, 'large.json')).lines).toEqual([
      `large.json:${lineOf('"apply": []')}: steps[2].apply: Required value`,
      // A field left out is pointed at by the nearest enclosing one: the list item, on the line after "delete".
      `large.json:${lineOf('"delete"') + 1}: steps[3].delete[0].apiVersion: Required value`,
    ]);
    expect(composeDocuments).not.toHaveBeenCalled();
  });

  it('names the line of each object of a JSON List of manifests that is not a manifest', () => {
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [parse(CLUSTER), { owner: 'me' }, { kind: 'Deployment' }] }, null, 2);
    const lineOf = (needle: string) => list.slice(0, list.indexOf(needle)).split('\n').length - 1;
    expect(errorOf(() => loadSimulation(list, 'list.json')).lines).toEqual([
      `list.json:${lineOf('"owner"')}: neither a scenario (a map with top-level "steps") nor a Kubernetes object (with "apiVersion" and "kind")`,
      `list.json:${lineOf('"kind": "Deployment"')}: apiVersion: Required value`,
    ]);
  });

  it('names the line of a field of a JSON scenario written twice where the copy JSON.parse keeps is', () => {
    const text = [
      '{',
      '  "steps": [{"delete": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}]}],',
      '  "steps": [{"delete": [',
      '    {"kind": "Deployment", "name": "web"}',
      '  ]}]',
      '}',
    ].join('\n');
    expect(errorOf(() => loadSimulation(text, 'twice.json')).lines).toEqual(['twice.json:4: steps[0].delete[0].apiVersion: Required value']);
  });

  it('keeps the nesting rule as it is worded for scenarios', () => {
    expect(errorOf(() => loadSimulation(`steps: [{apply: ${'['.repeat(200)}${']'.repeat(200)}}]`, 'deep.yaml')).lines).toEqual(['scenario must not be nested more than 100 levels deep']);
  });
});

describe('scenarioOrManifests (outrank apply)', () => {
  it('tells a scenario from manifests by its top-level steps', () => {
    expect(scenarioOrManifests('steps: [{wait: 1m}]\n', 's.yaml')).toEqual({ type: 'scenario', scenario: { steps: [{ wait: 60_000 }] } });
    expect(scenarioOrManifests(CLUSTER, 'c.yaml')).toEqual({ type: 'manifests', objects: [expect.objectContaining({ kind: 'Cluster' })] });
  });

  it('words a scenario\'s errors with the file and line', () => {
    expect(errorOf(() => scenarioOrManifests('steps:\n  - apply:\n', 's.yaml')).lines).toEqual(['s.yaml:2: steps[0].apply: Required value']);
  });
});
