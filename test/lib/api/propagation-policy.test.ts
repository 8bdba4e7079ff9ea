import { describe, expect, it } from 'vitest';
import {
  clusterPropagationPolicySchema,
  placementSchema,
  propagationPolicySchema,
  replicaSchedulingSchema,
  schedulePrioritySchema,
  tolerationSchema,
} from '../../../lib/api/propagation-policy';

const deployments = { apiVersion: 'apps/v1', kind: 'Deployment' };

function pp(spec: Record<string, unknown>, namespace = 'default') {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'p', namespace }, spec };
}

function cpp(spec: Record<string, unknown>) {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', metadata: { name: 'c' }, spec };
}

function issues(result: { success: boolean; error?: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));
}

describe('placement (ordered cluster-affinity groups (004), validation)', () => {
  it.each([
    ['one clusterAffinity', { clusterAffinity: { clusterNames: ['m1'] } }],
    ['ordered clusterAffinities', { clusterAffinities: [{ affinityName: 'primary', clusterNames: ['m1'] }, { affinityName: 'backup', exclude: ['m1'] }] }],
    ['a prefixed affinity name', { clusterAffinities: [{ affinityName: 'example.com/dc-1' }] }],
    ['no affinity at all', {}],
  ])('accepts %s', (_, placement) => {
    expect(placementSchema.safeParse(placement).success).toBe(true);
  });

  it.each([
    [
      'clusterAffinity together with clusterAffinities',
      { clusterAffinity: {}, clusterAffinities: [{ affinityName: 'a' }] },
      ['clusterAffinities'],
      'must not be set together with clusterAffinity',
    ],
    [
      'a repeated affinityName',
      { clusterAffinities: [{ affinityName: 'a' }, { affinityName: 'b' }, { affinityName: 'a' }] },
      ['clusterAffinities', 2, 'affinityName'],
      'must be unique: "a" is used by an earlier term',
    ],
    ['an affinityName that is not a label key', { clusterAffinities: [{ affinityName: 'dc shanghai' }] }, ['clusterAffinities', 0, 'affinityName'], expect.stringContaining('qualified name')],
    ['an empty affinityName', { clusterAffinities: [{ affinityName: '' }] }, ['clusterAffinities', 0, 'affinityName'], expect.stringContaining('qualified name')],
    ['a missing affinityName', { clusterAffinities: [{ clusterNames: ['m1'] }] }, ['clusterAffinities', 0, 'affinityName'], expect.any(String)],
  ])('rejects %s', (_, placement, path, message) => {
    expect(issues(placementSchema.safeParse(placement))).toEqual([{ path, message }]);
  });
});

describe('clusterTolerations (Kubernetes toleration rules)', () => {
  it.each([
    [{ key: 'dedicated', operator: 'Equal', value: 'gpu', effect: 'NoSchedule' }, true],
    [{ key: 'dedicated', value: 'gpu' }, true],
    [{ key: 'dedicated', operator: 'Exists' }, true],
    [{ operator: 'Exists' }, true],
    [{ operator: 'Exists', effect: '' }, true],
    [{ value: 'gpu' }, false],
    [{ key: 'dedicated', operator: 'Exists', value: 'gpu' }, false],
    [{ key: 'dedicated', operator: 'Gt' }, false],
    [{ key: 'dedicated', effect: 'Sometimes' }, false],
  ])('%j valid: %s', (toleration, valid) => {
    expect(tolerationSchema.safeParse(toleration).success).toBe(valid);
  });
});

describe('replicaScheduling', () => {
  it.each([
    [{ replicaSchedulingType: 'Duplicated' }, true],
    [{ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' }, true],
    [{ replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } }, true],
    [{ replicaSchedulingType: 'Divided', weightPreference: { staticWeightList: [{ targetCluster: { clusterNames: ['m1'] }, weight: 2 }] } }, true],
    [{ replicaSchedulingType: 'Spread' }, false],
    [{ weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 0 }] } }, false],
    [{ weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 1.5 }] } }, false],
    [{ weightPreference: { dynamicWeight: 'Random' } }, false],
    [{ weightPreference: { dynamicWeight: 'AvailableReplicas', staticWeightList: [{ targetCluster: {}, weight: 1 }] } }, false],
  ])('%j valid: %s', (replicaScheduling, valid) => {
    expect(replicaSchedulingSchema.safeParse(replicaScheduling).success).toBe(valid);
  });
});

describe('schedulePriority (binding priority and preemption (000), "SchedulePriority")', () => {
  it.each([
    [{}, []],
    [{ priorityClassName: 'high' }, []],
    [{ priorityClassSource: 'KubePriorityClass', priorityClassName: 'high' }, []],
    [{ priorityClassSource: 'PodPriorityClass' }, []],
    [
      { priorityClassSource: 'FederatedPriorityClass', priorityClassName: 'high' },
      [{ path: ['priorityClassSource'], message: 'FederatedPriorityClass is not supported; use KubePriorityClass or PodPriorityClass' }],
    ],
    [
      { priorityClassSource: 'PodPriorityClass', priorityClassName: 'high' },
      [{ path: ['priorityClassName'], message: 'must be omitted when priorityClassSource is PodPriorityClass (the pod template names the class)' }],
    ],
  ])('%j → %j', (schedulePriority, expected) => {
    expect(issues(schedulePrioritySchema.safeParse(schedulePriority))).toEqual(expected);
  });
});

describe('preemption needs named resources (policy priority and preemption (002), "Clarify the scope of preemption")', () => {
  it.each([
    ['PropagationPolicy naming its resource', pp({ resourceSelectors: [{ ...deployments, name: 'web' }], preemption: 'Always' }), []],
    ['PropagationPolicy without preemption may select by kind', pp({ resourceSelectors: [deployments], preemption: 'Never' }), []],
    [
      'PropagationPolicy selecting by label',
      pp({ resourceSelectors: [{ ...deployments, labelSelector: { matchLabels: { app: 'web' } } }], preemption: 'Always' }),
      [{ path: ['spec', 'resourceSelectors', 0, 'name'], message: 'must be set when preemption is Always' }],
    ],
    [
      'ClusterPropagationPolicy naming a Deployment without its namespace',
      cpp({ resourceSelectors: [{ ...deployments, name: 'web' }], preemption: 'Always' }),
      [{ path: ['spec', 'resourceSelectors', 0, 'namespace'], message: 'must be set for the namespaced kind Deployment when preemption is Always' }],
    ],
    ['ClusterPropagationPolicy naming namespace and name', cpp({ resourceSelectors: [{ ...deployments, namespace: 'default', name: 'web' }], preemption: 'Always' }), []],
    ['ClusterPropagationPolicy naming a cluster-scoped kind', cpp({ resourceSelectors: [{ apiVersion: 'example.com/v1', kind: 'Widget', name: 'w' }], preemption: 'Always' }), []],
    [
      'the second of two selectors without a name',
      pp({ resourceSelectors: [{ ...deployments, name: 'web' }, deployments], preemption: 'Always' }),
      [{ path: ['spec', 'resourceSelectors', 1, 'name'], message: 'must be set when preemption is Always' }],
    ],
  ])('%s', (_, policy, expected) => {
    const schema = policy.kind === 'PropagationPolicy' ? propagationPolicySchema : clusterPropagationPolicySchema;
    expect(issues(schema.safeParse(policy))).toEqual(expected);
  });
});

describe('PropagationPolicy fields', () => {
  it.each([
    ['a selector namespace other than its own', { resourceSelectors: [{ ...deployments, namespace: 'other' }] }, ['spec', 'resourceSelectors', 0, 'namespace']],
    ['no resource selector', { resourceSelectors: [] }, ['spec', 'resourceSelectors']],
    ['a priority beyond int32', { resourceSelectors: [deployments], priority: 2 ** 31 }, ['spec', 'priority']],
    ['an unknown preemption value', { resourceSelectors: [deployments], preemption: 'Sometimes' }, ['spec', 'preemption']],
    ['semi-preemptible (preemptibility separate from priority (001): not in this release)', { resourceSelectors: [deployments], preemptibility: 'semi-preemptible' }, ['spec', 'preemptibility']],
    ['an unknown field', { resourceSelectors: [deployments], spreadConstraints: [] }, ['spec']],
  ])('rejects %s', (_, spec, path) => {
    const result = propagationPolicySchema.safeParse(pp(spec));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('accepts preemptibility, suspension and the own namespace in a selector', () => {
    const result = propagationPolicySchema.safeParse(
      pp({ resourceSelectors: [{ ...deployments, namespace: 'default' }], preemptibility: 'non-preemptible', suspension: { scheduling: true } }),
    );
    expect(result.success).toBe(true);
  });
});
