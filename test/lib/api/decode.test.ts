import { describe, expect, it } from 'vitest';
import { decodeObject, decodeObjectWith, isBinding, isCluster, isEvent, isPolicy, isPriorityClass, isTemplate, type KubeObject } from '../../../lib/api/decode';
import { InvalidObjectError, type FieldCause } from '../../../lib/api/invalid-object-error';

function rejection(raw: unknown): InvalidObjectError {
  try {
    decodeObject(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidObjectError);
    return error as InvalidObjectError;
  }
  throw new Error('expected the object to be rejected');
}

const pod = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: '500m' } } }] } };
const SELECTED = { matchLabels: { app: 'web' } };

/** An apps/v1 workload as the rules under test need it besides: its pods' selector, matching the pod template's labels. */
function selected<T extends { spec: Record<string, any> }>(object: T): T {
  const { template } = object.spec;
  const labelled = template === undefined ? {} : { template: { ...template, metadata: { labels: { app: 'web' }, ...template.metadata } } };
  return { ...object, spec: { selector: SELECTED, ...object.spec, ...labelled } };
}

const deployment = (fields: Record<string, unknown> = {}) =>
  selected({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: { replicas: 2, template: pod } as Record<string, any>,
    ...fields,
  });
const policy = (spec: Record<string, unknown>, kind = 'PropagationPolicy', metadata: Record<string, unknown> = { name: 'p' }) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind,
  metadata,
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], ...spec },
});
const cluster = (fields: Record<string, unknown> = {}) => ({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' }, ...fields });
const priorityClass = (fields: Record<string, unknown> = {}) => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 10, ...fields });
const binding = (kind = 'ResourceBinding', metadata: Record<string, unknown> = { name: 'web-deployment' }) => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind,
  metadata,
  spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' } },
});

describe('decodeObject: namespaces', () => {
  it.each<[string, unknown, string | undefined]>([
    ['Deployment', deployment(), 'default'],
    ['Deployment in its own namespace', deployment({ metadata: { name: 'web', namespace: 'team' } }), 'team'],
    ['PropagationPolicy', policy({}), 'default'],
    ['ResourceBinding', binding(), 'default'],
    ['ClusterPropagationPolicy', policy({}, 'ClusterPropagationPolicy'), undefined],
    ['Cluster', cluster(), undefined],
    ['PriorityClass', priorityClass(), undefined],
    ['ClusterResourceBinding', binding('ClusterResourceBinding'), undefined],
    ['a template of a kind it does not know, without namespace', { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 1, template: pod } }, undefined],
  ])('%s → namespace %s', (_, raw, namespace) => {
    const decoded = decodeObject(raw) as KubeObject & { metadata: { namespace?: string } };
    expect(decoded.metadata.namespace).toBe(namespace);
  });

  it('does not change the raw object when defaulting', () => {
    const raw = deployment();
    decodeObject(raw);
    expect(raw.metadata).toEqual({ name: 'web' });
  });

  it.each([
    ['Cluster', cluster({ metadata: { name: 'm1', namespace: 'default' } })],
    ['PriorityClass', priorityClass({ metadata: { name: 'high', namespace: 'default' } })],
    ['ClusterPropagationPolicy', policy({}, 'ClusterPropagationPolicy', { name: 'p', namespace: 'default' })],
  ])('rejects a namespace on the cluster-scoped %s', (kind, raw) => {
    expect(rejection(raw).causes).toEqual([{ field: 'metadata.namespace', message: `must not be set: ${kind} is cluster-scoped` }]);
  });
});

describe('decodeObject: unknown fields', () => {
  it.each([
    ['PropagationPolicy spec', policy({ spreadConstraints: [] }), 'spec.spreadConstraints'],
    ['PropagationPolicy selector', policy({ resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', names: ['web'] }] }), 'spec.resourceSelectors[0].names'],
    ['Cluster spec', cluster({ spec: { nodeCount: 3 } }), 'spec.nodeCount'],
    ['PriorityClass', priorityClass({ priority: 1 }), 'priority'],
    ['ResourceBinding metadata', binding('ResourceBinding', { name: 'b', owner: 'x' }), 'metadata.owner'],
  ])('are rejected in outrank\'s own kinds: %s', (_, raw, field) => {
    expect(rejection(raw).causes).toEqual([{ field, message: 'unknown field' }]);
  });

  it('are not Karmada\'s own Cluster fields: an exported Cluster object loads', () => {
    const decoded = decodeObject(
      cluster({
        metadata: { name: 'member1', finalizers: ['karmada.io/cluster-controller'] },
        spec: { syncMode: 'Push', apiEndpoint: 'https://172.18.0.3:6443', secretRef: { namespace: 'karmada-cluster', name: 'member1' }, id: 'a1b2' },
        status: { kubernetesVersion: 'v1.31.0', nodeSummary: { totalNum: 3, readyNum: 3 } },
      }),
    );
    expect(decoded.kind).toBe('Cluster');
  });

  it('that Kubernetes has are kept in resource templates', () => {
    const decoded = decodeObject(
      deployment({
        metadata: { name: 'web', finalizers: ['x'] },
        spec: { replicas: 1, strategy: { type: 'Recreate' }, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { ...pod.spec, nodeSelector: { disk: 'ssd' } } } },
        status: { readyReplicas: 1 },
      }),
    ) as Record<string, any>;
    expect(decoded.metadata.finalizers).toEqual(['x']);
    expect(decoded.spec.strategy).toEqual({ type: 'Recreate' });
    expect(decoded.spec.template.spec.nodeSelector).toEqual({ disk: 'ssd' });
    expect(decoded.status).toEqual({ readyReplicas: 1 });
  });
});

describe('decodeObjectWith: field validation of workload templates, as kube-apiserver\'s fieldValidation', () => {
  const requets = (kind: string, apiVersion: string, counts: Record<string, unknown>) => {
    const object = { apiVersion, kind, metadata: { name: 'w' }, spec: { ...counts, template: { spec: { containers: [{ name: 'c', resources: { requets: { cpu: '1' } } }] } } } as Record<string, any> };
    return apiVersion === 'apps/v1' ? selected(object) : object;
  };

  it.each([
    ['Deployment', 'apps/v1', { replicas: 1 }],
    ['StatefulSet', 'apps/v1', { replicas: 1 }],
    ['ReplicaSet', 'apps/v1', { replicas: 1 }],
    ['Job', 'batch/v1', { parallelism: 1 }],
  ])('Strict refuses a misspelt container field of a %s, naming its path', (kind, apiVersion, counts) => {
    expect(() => decodeObjectWith(requets(kind, apiVersion, counts), 'Strict')).toThrow(
      expect.objectContaining({ causes: [{ field: 'spec.template.spec.containers[0].resources.requets', message: 'unknown field' }] }),
    );
  });

  it.each([
    ['a spec field', { spec: { replicas: 1, replica: 2, template: pod } }, ['spec.replica']],
    ['a pod spec field', { spec: { replicas: 1, template: { spec: { ...pod.spec, nodeSelectors: {} } } } }, ['spec.template.spec.nodeSelectors']],
    ['top-level and metadata fields', { metadata: { name: 'web', label: {} }, extra: 1 }, ['metadata.label', 'extra']],
  ])('Warn and Ignore drop %s and report each path', (_, fields, paths) => {
    for (const mode of ['Warn', 'Ignore'] as const) {
      const decoded = decodeObjectWith(deployment(fields), mode);
      expect([...decoded.unknownFields].sort()).toEqual([...paths].sort());
      expect(() => decodeObject(decoded.object)).not.toThrow();
    }
  });

  it('Warn still refuses what breaks a rule other than an unknown field', () => {
    expect(() => decodeObjectWith(deployment({ spec: { replicas: -1, replica: 2, template: pod } }), 'Warn')).toThrow(
      expect.objectContaining({ causes: [{ field: 'spec.replicas', message: 'must not be negative' }] }),
    );
  });

  it('a kind whose shape outrank does not know keeps every field', () => {
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { replicas: 1, size: 'xl', template: pod } };
    expect(decodeObjectWith(widget, 'Strict')).toEqual({ object: expect.objectContaining({ spec: widget.spec }), unknownFields: [] });
  });
});

describe('decodeObject: rules with field paths', () => {
  it.each<[string, unknown, FieldCause[]]>([
    [
      'preemption Always with a selector that has no name (policy priority and preemption (002))',
      policy({ resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'web' } } }], preemption: 'Always' }),
      [{ field: 'spec.resourceSelectors[0].name', message: 'must be set when preemption is Always' }],
    ],
    [
      'FederatedPriorityClass (binding priority and preemption (000))',
      policy({ schedulePriority: { priorityClassSource: 'FederatedPriorityClass', priorityClassName: 'high' } }),
      [{ field: 'spec.schedulePriority.priorityClassSource', message: 'FederatedPriorityClass is not supported; use KubePriorityClass or PodPriorityClass' }],
    ],
    [
      'clusterAffinity together with clusterAffinities (ordered cluster-affinity groups (004))',
      policy({ placement: { clusterAffinity: { clusterNames: ['m1'] }, clusterAffinities: [{ affinityName: 'a', clusterNames: ['m1'] }] } }),
      [{ field: 'spec.placement.clusterAffinities', message: 'must not be set together with clusterAffinity' }],
    ],
    [
      'a duplicate affinityName (ordered cluster-affinity groups (004))',
      policy({ placement: { clusterAffinities: [{ affinityName: 'dc' }, { affinityName: 'dc' }] } }),
      [{ field: 'spec.placement.clusterAffinities[1].affinityName', message: 'must be unique: "dc" is used by an earlier term' }],
    ],
    [
      'an affinityName that is not a label key (ordered cluster-affinity groups (004))',
      policy({ placement: { clusterAffinities: [{ affinityName: 'dc/shang/hai' }] } }),
      [{ field: 'spec.placement.clusterAffinities[0].affinityName', message: expect.stringContaining('must be a qualified name') }],
    ],
    [
      'a negative request',
      deployment({ spec: { template: { spec: { containers: [{ resources: { requests: { cpu: '-500m' } } }] } } } }),
      [{ field: 'spec.template.spec.containers[0].resources.requests.cpu', message: '"-500m" is not a valid quantity: must not be negative' }],
    ],
    [
      'a quantity that does not parse',
      deployment({ spec: { template: { spec: { containers: [{ resources: { limits: { memory: '2GB' } } }] } } } }),
      [{ field: 'spec.template.spec.containers[0].resources.limits.memory', message: '"2GB" is not a valid quantity: unknown suffix "GB"' }],
    ],
    [
      'a quantity of the wrong type',
      deployment({ spec: { template: { spec: { containers: [{ resources: { requests: { cpu: true } } }] } } } }),
      [{ field: 'spec.template.spec.containers[0].resources.requests.cpu', message: expect.stringMatching(/^must be a quantity/) }],
    ],
    [
      'a negative cluster capacity',
      cluster({ status: { resourceSummary: { allocatable: { cpu: '-2' } } } }),
      [{ field: 'status.resourceSummary.allocatable.cpu', message: '"-2" is not a valid quantity: must not be negative' }],
    ],
    [
      'an invalid binding request',
      { ...binding(), spec: { ...binding().spec, replicaRequirements: { resourceRequest: { memory: 'much' } } } },
      [{ field: 'spec.replicaRequirements.resourceRequest.memory', message: expect.stringContaining('is not a valid quantity') }],
    ],
    [
      'negative replicas',
      deployment({ spec: { replicas: -1, template: pod } }),
      [{ field: 'spec.replicas', message: 'must not be negative' }],
    ],
    [
      'a label key that is not a qualified name',
      deployment({ metadata: { name: 'web', labels: { 'bad key': 'x' } } }),
      [{ field: 'metadata.labels.bad key', message: expect.stringContaining('must be a qualified name') }],
    ],
    [
      'an invalid name',
      deployment({ metadata: { name: 'Web' } }),
      [{ field: 'metadata.name', message: 'must be a lowercase RFC 1123 subdomain (a-z, 0-9, "-" and ".")' }],
    ],
    [
      'a template without a pod template',
      deployment({ spec: { replicas: 1 } }),
      [{ field: 'spec.template', message: 'is required: a resource template must carry a pod template' }],
    ],
  ])('rejects %s', (_, raw, causes) => {
    const error = rejection(raw);
    expect(error.causes).toEqual(causes);
    expect(error.code).toBe(422);
    for (const cause of error.causes) expect(error.message).toContain(`${cause.field}: ${cause.message}`);
  });

  it('names the kind and the object in the message', () => {
    const error = rejection(policy({ preemption: 'Sometimes' }, 'PropagationPolicy', { name: 'bad' }));
    expect(error.message).toMatch(/^PropagationPolicy "bad" is invalid: spec\.preemption: /);
    expect(error.kind).toBe('PropagationPolicy');
    expect(error.objectName).toBe('bad');
  });
});

describe('decodeObject: malformed objects', () => {
  it.each<[string, unknown, FieldCause[]]>([
    ['not an object', 'web', [{ field: '<root>', message: 'must be an object' }]],
    ['an array', [deployment()], [{ field: '<root>', message: 'must be an object' }]],
    ['no apiVersion', { kind: 'Deployment', metadata: { name: 'w' } }, [{ field: 'apiVersion', message: 'is required' }]],
    ['no kind', { apiVersion: 'apps/v1', metadata: { name: 'w' } }, [{ field: 'kind', message: 'is required' }]],
    ['no metadata', { apiVersion: 'apps/v1', kind: 'Deployment' }, [{ field: 'metadata', message: 'is required and must be an object' }]],
    [
      'a version that does not serve an outrank kind',
      { ...policy({}), apiVersion: 'policy.karmada.io/v1beta1' },
      [{ field: 'apiVersion', message: 'policy.karmada.io/v1beta1 does not serve PropagationPolicy' }],
    ],
  ])('rejects %s with code 400', (_, raw, causes) => {
    const error = rejection(raw);
    expect(error.causes).toEqual(causes);
    expect(error.code).toBe(400);
  });
});

describe('decodeObject: type guards', () => {
  it.each([
    ['PriorityClass', priorityClass(), [true, false, false, false, false, false]],
    ['Cluster', cluster(), [false, true, false, false, false, false]],
    ['PropagationPolicy', policy({}), [false, false, true, false, false, false]],
    ['ClusterPropagationPolicy', policy({}, 'ClusterPropagationPolicy'), [false, false, true, false, false, false]],
    ['ResourceBinding', binding(), [false, false, false, true, false, false]],
    ['Event', { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e' }, involvedObject: { kind: 'Deployment', name: 'web' }, type: 'Normal', reason: 'R', message: 'm' }, [false, false, false, false, true, false]],
    ['Deployment', deployment(), [false, false, false, false, false, true]],
  ])('%s', (_, raw, expected) => {
    const object = decodeObject(raw);
    expect([isPriorityClass, isCluster, isPolicy, isBinding, isEvent, isTemplate].map((guard) => guard(object))).toEqual(expected);
  });
});

describe("apps/v1's pod selector, as kube-apiserver validates it (ValidateDeploymentSpec, ValidateStatefulSetSpec, ValidateReplicaSetSpec)", () => {
  const bare = (kind: string, spec: Record<string, unknown>) => ({ apiVersion: 'apps/v1', kind, metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1, ...spec } });
  const labelled = { metadata: { labels: { app: 'web', tier: 'front' } }, spec: pod.spec };

  it.each(['Deployment', 'StatefulSet', 'ReplicaSet'])('%s: a selector is required', (kind) => {
    expect(rejection(bare(kind, { template: labelled })).causes).toEqual([{ field: 'spec.selector', message: 'Required value' }]);
  });

  it('an empty selector is refused', () => {
    expect(rejection(bare('Deployment', { selector: {}, template: labelled })).causes).toEqual([{ field: 'spec.selector', message: 'Invalid value: empty selector is invalid for deployment' }]);
  });

  it("a selector the pod template's labels do not satisfy is refused at the template's labels", () => {
    expect(rejection(bare('Deployment', { selector: { matchLabels: { app: 'api' } }, template: labelled })).causes).toEqual([
      { field: 'spec.template.metadata.labels', message: 'Invalid value: `selector` does not match template `labels`' },
    ]);
    expect(rejection(bare('Deployment', { selector: { matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }] }, template: labelled })).causes).toEqual([
      { field: 'spec.template.metadata.labels', message: 'Invalid value: `selector` does not match template `labels`' },
    ]);
  });

  it('a selector matching a subset of the labels, by labels or expressions, is accepted', () => {
    expect(() => decodeObject(bare('Deployment', { selector: { matchLabels: { app: 'web' } }, template: labelled }))).not.toThrow();
    expect(() => decodeObject(bare('StatefulSet', { selector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front', 'back'] }] }, template: labelled }))).not.toThrow();
  });

  it('a Job needs none: the server makes it', () => {
    expect(() => decodeObject({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'report', namespace: 'default' }, spec: { template: pod } })).not.toThrow();
  });
});
