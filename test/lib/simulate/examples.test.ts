import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadScenario, ScenarioError } from '../../../lib/simulate/load-scenario';
import { runScenario, type SimulationResult } from '../../../lib/simulate/run-scenario';

async function simulate(file: string): Promise<SimulationResult> {
  return runScenario(loadScenario(await readFile(new URL(`../../../examples/${file}`, import.meta.url), 'utf8')));
}

function binding(result: SimulationResult, name: string) {
  const found = result.bindings.find((b) => b.name === name);
  if (!found) throw new Error(`no binding ${name}`);
  return found;
}

describe('examples', () => {
  it('000-binding-preemption: the capacity-10 example preempts only the priority-2 binding (binding priority and preemption (000))', async () => {
    const result = await simulate('000-binding-preemption.yaml');
    expect(result.errors).toEqual([]);
    expect(binding(result, 'urgent-deployment').clusters).toEqual([{ name: 'member1', replicas: 1 }]);
    expect(binding(result, 'batch-p2-deployment').clusters).toEqual([]);
    for (const survivor of ['batch-p0-deployment', 'batch-p1-deployment', 'batch-p3-deployment']) {
      expect(binding(result, survivor).clusters).toEqual([{ name: 'member1', replicas: 1 }]);
    }
    const preempted = result.events.filter((e) => e.reason === 'Preempted');
    expect(preempted).toHaveLength(1);
    expect(preempted[0]).toMatchObject({ type: 'Warning', object: { kind: 'ResourceBinding', namespace: 'default', name: 'batch-p2-deployment' } });
    expect(preempted[0]!.message).toContain('urgent-deployment');
    expect(preempted[0]!.message).toContain('member1');
    expect(result.metrics.bindingPreemptions).toBe(1);
  });

  it('001-preemptibility: a preemptible high priority is preempted, a non-preemptible low priority is not (preemptibility separate from priority (001))', async () => {
    const result = await simulate('001-preemptibility.yaml');
    expect(binding(result, 'etl-job')).toMatchObject({ preemptibility: 'non-preemptible', priority: 10, clusters: [{ name: 'gpu-east', replicas: 2 }] });
    expect(binding(result, 'finetune-job')).toMatchObject({ preemptibility: 'preemptible', priority: 500, clusters: [] });
    expect(binding(result, 'llm-deployment').clusters).toEqual([{ name: 'gpu-east', replicas: 2 }]);
  });

  it('002-policy-preemption: a higher-priority Always policy takes the template, a cluster policy does not (policy priority and preemption (002))', async () => {
    const result = await simulate('002-policy-preemption.yaml');
    expect(binding(result, 'nginx-deployment')).toMatchObject({
      policy: { kind: 'PropagationPolicy', namespace: 'default', name: 'nginx-propagation-preemption' },
      clusters: [{ name: 'member3', replicas: 2 }],
    });
    expect(result.events.filter((e) => e.reason === 'PreemptPolicySucceed')).toHaveLength(1);
    expect(result.metrics.policyPreemptions).toEqual({ success: 1, error: 0 });
  });

  it('003-scheduling-suspension: suspended bindings wait, resume schedules, suspending a scheduled one is rejected (scheduling suspension (003))', async () => {
    const result = await simulate('003-scheduling-suspension.yaml');
    expect(binding(result, 'backfill-job')).toMatchObject({ suspended: true, clusters: [] });
    expect(binding(result, 'backfill-job').conditions).toContainEqual(expect.objectContaining({ type: 'SchedulingSuspended', status: 'True' }));
    expect(binding(result, 'report-job')).toMatchObject({ suspended: false, clusters: [{ name: 'member1', replicas: 1 }] });
    expect(binding(result, 'report-job').conditions).toContainEqual(expect.objectContaining({ type: 'SchedulingSuspended', status: 'False' }));
    expect(result.rejections).toEqual([
      // The third step, counted as a person counts (from 1).
      expect.objectContaining({ step: 3, message: expect.stringContaining('spec.suspension.scheduling') }),
    ]);
  });

  it('004-cluster-affinity-groups: the first feasible group is used and failover continues from it (ordered cluster-affinity groups (004))', async () => {
    const result = await simulate('004-cluster-affinity-groups.yaml');
    expect(binding(result, 'nginx-deployment')).toMatchObject({
      clusters: [{ name: 'member2', replicas: 3 }],
      schedulerObservingAffinityName: 'dc-hongkong',
    });
    const placements = result.events.filter((e) => e.reason === 'ScheduleBindingSucceed').map((e) => e.message);
    expect(placements).toEqual(['placed on member1 (3)', 'placed on member2 (3)']);
  });
});

describe('simulation output', () => {
  it('has exactly the documented keys for bindings, events, rejections, metrics and the summary', async () => {
    const result = await simulate('003-scheduling-suspension.yaml');
    expect(Object.keys(result).sort()).toEqual(['bindings', 'clusters', 'errors', 'events', 'metrics', 'preemptions', 'priorities', 'rejections', 'steps']);
    expect(Object.keys(binding(result, 'report-job'))).toEqual(
      expect.arrayContaining([
        'kind', 'namespace', 'name', 'resource', 'policy', 'priority', 'preemptionPolicy', 'preemptibility',
        'suspended', 'clusters', 'schedulerObservingAffinityName', 'conditions',
      ]),
    );
    // The template by name and by uid, as Karmada's detector refers to it (a uid of the simulation's own sequence).
    expect(binding(result, 'report-job').resource).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      namespace: 'tenant-a',
      name: 'report',
      uid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
    expect(result.metrics).toEqual({ policyPreemptions: { success: 0, error: 0 }, bindingPreemptions: 0 });
  });

  it('reports a rejected manifest with its step and goes on', async () => {
    const result = await runScenario(
      loadScenario(`
steps:
  - apply:
      - apiVersion: policy.karmada.io/v1alpha1
        kind: PropagationPolicy
        metadata: {name: bad, namespace: default}
        spec:
          preemption: Always
          resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
      - apiVersion: cluster.karmada.io/v1alpha1
        kind: Cluster
        metadata: {name: member1}
`),
    );
    expect(result.rejections).toEqual([
      {
        step: 1,
        object: { kind: 'PropagationPolicy', namespace: 'default', name: 'bad' },
        message: expect.stringContaining('spec.resourceSelectors[0].name: must be set when preemption is Always'),
      },
    ]);
  });
});

describe('simulation summary', () => {
  it('numbers each event by its step and gives its virtual time', async () => {
    const result = await simulate('000-binding-preemption.yaml');
    expect(result.events.find((e) => e.reason === 'Preempted')).toMatchObject({ step: 2, time: '0s', object: { name: 'batch-p2-deployment' } });
    expect(new Set(result.events.map((e) => e.step))).toEqual(new Set([1, 2]));
  });

  it('says per step what it did and where the bindings stood after it', async () => {
    const result = await simulate('003-scheduling-suspension.yaml');
    expect(result.steps).toEqual([
      { step: 1, action: 'apply', objects: 4, kinds: { Job: 2, Cluster: 1, PropagationPolicy: 1 }, time: '0s', bindings: { placed: 0, waiting: 0, suspended: 2 }, preempted: 0, rejected: 0 },
      { step: 2, action: 'patch', objects: 1, kinds: { ResourceBinding: 1 }, time: '0s', bindings: { placed: 1, waiting: 0, suspended: 1 }, preempted: 0, rejected: 0 },
      { step: 3, action: 'patch', objects: 1, kinds: { ResourceBinding: 1 }, time: '0s', bindings: { placed: 1, waiting: 0, suspended: 1 }, preempted: 0, rejected: 1 },
    ]);
  });

  it('counts the bindings of each priority and groups each preemption\'s victims under its preemptor', async () => {
    const result = await simulate('000-binding-preemption.yaml');
    expect(result.priorities).toEqual([
      { priority: 10, bindings: 1, placed: 1, waiting: 0, suspended: 0, preempted: 0 },
      { priority: 3, bindings: 1, placed: 1, waiting: 0, suspended: 0, preempted: 0 },
      { priority: 2, bindings: 1, placed: 0, waiting: 1, suspended: 0, preempted: 1 },
      { priority: 1, bindings: 1, placed: 1, waiting: 0, suspended: 0, preempted: 0 },
      { priority: 0, bindings: 1, placed: 1, waiting: 0, suspended: 0, preempted: 0 },
    ]);
    expect(result.preemptions).toEqual([
      {
        step: 2,
        time: '0s',
        preemptor: { kind: 'ResourceBinding', namespace: 'default', name: 'urgent-deployment' },
        priority: 10,
        clusters: [{ name: 'member1', replicas: 1 }],
        victims: [{ kind: 'ResourceBinding', namespace: 'default', name: 'batch-p2-deployment', priority: 2 }],
      },
    ]);
  });

  it('reports how full each cluster is, every resource it reports, GPUs included', async () => {
    const result = await simulate('001-preemptibility.yaml');
    expect(result.clusters).toEqual([
      {
        name: 'gpu-east',
        ready: true,
        resources: [
          { resource: 'cpu', placed: '8', allocatable: '16', percent: 50 },
          { resource: 'memory', placed: '0', allocatable: '64Gi', percent: 0 },
          { resource: 'pods', placed: '4', allocatable: '110', percent: 3 },
          { resource: 'nvidia.com/gpu', placed: '4', allocatable: '4', percent: 100 },
        ],
      },
    ]);
  });

  it('gives the virtual time of a step and of the events after a wait', async () => {
    const result = await runScenario(
      loadScenario(`
steps:
  - apply:
      - {apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, metadata: {name: m1}, status: {resourceSummary: {allocatable: {cpu: "4", pods: "10"}}}}
      - apiVersion: policy.karmada.io/v1alpha1
        kind: PropagationPolicy
        metadata: {name: all, namespace: default}
        spec: {resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]}
      - apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: a, image: b, resources: {requests: {cpu: "1"}}}]}}}
  - wait: 90s
  - patch: [{apiVersion: cluster.karmada.io/v1alpha1, kind: Cluster, name: m1, patch: {status: {conditions: [{type: Ready, status: "False"}]}}}]
`),
    );
    expect(result.steps.map((s) => [s.action, s.wait, s.time])).toEqual([['apply', undefined, '0s'], ['wait', '1m30s', '1m30s'], ['patch', undefined, '1m30s']]);
    expect(result.events.map((e) => [e.step, e.time, e.reason])).toEqual([[1, '0s', 'ScheduleBindingSucceed'], [3, '1m30s', 'ScheduleBindingFailed']]);
    expect(result.clusters.map((c) => c.ready)).toEqual([false]);
  });
});

describe('loadScenario', () => {
  it.each([
    ['not a list of steps', 'steps: 3', 'scenario:1: steps: Invalid value: 3: must be of type array'],
    ['no steps', 'description: x\nsteps: []', 'scenario:2: steps: Required value'],
    ['an unknown step', 'steps:\n  - explode: []', 'scenario:2: unknown field "steps[0].explode"\nscenario:2: steps[0]: Required value: must specify one of: apply, delete, patch, wait'],
    ['a step with two actions', 'steps:\n  - wait: 1m\n    apply: [{}]', 'scenario:2: steps[0]: Forbidden: may not specify more than one of: apply, wait'],
    ['an apply step with nothing to apply', 'steps:\n  - wait: 1m\n  - wait: 2m\n  - apply:\n', 'scenario:4: steps[2].apply: Required value'],
    ['a bad duration', 'steps:\n  - wait: soon', 'scenario:2: steps[0].wait: Invalid value: "soon": must be a duration such as "30s", "5m" or "1h"'],
    ['a locator without its apiVersion', 'steps:\n  - delete:\n      - kind: Deployment\n        name: web', 'scenario:3: steps[0].delete[0].apiVersion: Required value'],
    ['an unknown gate', 'config:\n  gates:\n    Nope: true\nsteps: [{wait: 1m}]', 'scenario:3: unknown field "config.gates.Nope"'],
    ['too long a description', `description: ${'x'.repeat(4097)}\nsteps: [{wait: 1m}]`, 'scenario:1: description: Too long: may not be more than 4096 characters'],
    ['a text of comments alone', '\n\n\n# nothing yet\n', 'scenario:1: <root>: Required value'],
  ])('rejects %s, naming the line and the field as kube-apiserver does', (_, text, message) => {
    expect(() => loadScenario(text)).toThrow(new ScenarioError(message.split('\n')));
  });

  it('names the file and the line of JSON too, and the line of a YAML syntax error', () => {
    expect(() => loadScenario('{"steps": [{"wait": "1m"},\n {"wait": 5}]}', 'fleet.json')).toThrow('fleet.json:2: steps[1].wait: Invalid value: 5: must be of type string');
    expect(() => loadScenario('steps:\n  - wait: [1m\n', 'broken.yaml')).toThrow(/^broken\.yaml:3: not valid YAML or JSON: /);
  });

  it('lists at most twenty errors, then how many more', () => {
    const text = `steps:\n${Array.from({ length: 25 }, () => '  - wait: soon\n').join('')}`;
    const error = (() => {
      try {
        loadScenario(text);
      } catch (caught) {
        return caught as ScenarioError;
      }
      throw new Error('no error');
    })();
    expect(error.lines).toHaveLength(21);
    expect(error.lines[0]).toBe('scenario:2: steps[0].wait: Invalid value: "soon": must be a duration such as "30s", "5m" or "1h"');
    expect(error.lines[20]).toBe('… and 5 more errors');
  });
});
