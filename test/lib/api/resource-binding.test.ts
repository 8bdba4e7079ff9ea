import { describe, expect, it } from 'vitest';
import type { Condition } from '../../../lib/api/meta';
import {
  bindingNamespace,
  bindingPriority,
  findCondition,
  isPlaced,
  isSuspended,
  placedClusters,
  resourceBindingSchema,
  withCondition,
  type ResourceBinding,
} from '../../../lib/api/resource-binding';

function binding(spec: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): ResourceBinding {
  return resourceBindingSchema.parse({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: 'ResourceBinding',
    metadata: { name: 'web-deployment', namespace: 'default' },
    spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, ...spec },
    ...extra,
  });
}

const scheduledTrue: Condition = { type: 'Scheduled', status: 'True', reason: 'Success', lastTransitionTime: 't1' };
const suspended: Condition = { type: 'SchedulingSuspended', status: 'False', lastTransitionTime: 't0' };

describe('withCondition (Kubernetes condition convention)', () => {
  it.each<[string, Condition[] | undefined, Condition, Condition[]]>([
    ['adds to no conditions', undefined, scheduledTrue, [scheduledTrue]],
    ['appends a new type after the others', [suspended], scheduledTrue, [suspended, scheduledTrue]],
    [
      'keeps lastTransitionTime when the status does not change',
      [suspended, scheduledTrue],
      { type: 'Scheduled', status: 'True', reason: 'Success', message: 'again', lastTransitionTime: 't2' },
      [suspended, { type: 'Scheduled', status: 'True', reason: 'Success', message: 'again', lastTransitionTime: 't1' }],
    ],
    [
      'takes the new lastTransitionTime when the status changes',
      [scheduledTrue, suspended],
      { type: 'Scheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: 't3' },
      [{ type: 'Scheduled', status: 'False', reason: 'Unschedulable', lastTransitionTime: 't3' }, suspended],
    ],
    [
      'uses the new time when the old condition had none',
      [{ type: 'Scheduled', status: 'True' }],
      scheduledTrue,
      [scheduledTrue],
    ],
  ])('%s', (_, conditions, next, expected) => {
    const before = structuredClone(conditions);
    expect(withCondition(conditions, next)).toEqual(expected);
    expect(conditions).toEqual(before);
  });
});

describe('binding helpers', () => {
  it('reads priority, suspension, placement and conditions', () => {
    const placed = binding(
      { schedulePriority: { priority: 7, preemptionPolicy: 'Never' }, suspension: { scheduling: true }, clusters: [{ name: 'm1', replicas: 2 }] },
      { status: { conditions: [scheduledTrue] } },
    );
    expect(bindingPriority(placed)).toBe(7);
    expect(isSuspended(placed)).toBe(true);
    expect(isPlaced(placed)).toBe(true);
    expect(placedClusters(placed)).toEqual([{ name: 'm1', replicas: 2 }]);
    expect(findCondition(placed, 'Scheduled')).toEqual(scheduledTrue);
    expect(findCondition(placed, 'SchedulingSuspended')).toBeUndefined();
    expect(bindingNamespace(placed)).toBe('default');
  });

  it.each([
    ['no schedulePriority', {}, 0, false, false],
    ['suspension false (scheduling suspension (003): false resumes)', { suspension: { scheduling: false } }, 0, false, false],
    ['empty clusters', { clusters: [] }, 0, false, false],
  ])('defaults with %s', (_, spec, priority, suspendedFlag, placed) => {
    const object = binding(spec);
    expect(bindingPriority(object)).toBe(priority);
    expect(isSuspended(object)).toBe(suspendedFlag);
    expect(isPlaced(object)).toBe(placed);
  });

  it('a ClusterResourceBinding has no namespace', () => {
    const object = resourceBindingSchema.parse({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ClusterResourceBinding',
      metadata: { name: 'reader-clusterrole' },
      spec: { resource: { apiVersion: 'example.com/v1', kind: 'Widget', name: 'reader' } },
    });
    expect(bindingNamespace(object)).toBe('');
  });
});

describe('ResourceBinding schema', () => {
  it.each([
    ['an invalid resource request', { replicaRequirements: { resourceRequest: { cpu: 'lots' } } }, ['spec', 'replicaRequirements', 'resourceRequest', 'cpu']],
    ['a negative resource request', { replicaRequirements: { resourceRequest: { memory: '-1Gi' } } }, ['spec', 'replicaRequirements', 'resourceRequest', 'memory']],
    ['negative replicas', { replicas: -1 }, ['spec', 'replicas']],
    ['an unknown preemption policy', { schedulePriority: { priority: 1, preemptionPolicy: 'Always' } }, ['spec', 'schedulePriority', 'preemptionPolicy']],
    ['semi-preemptible (preemptibility separate from priority (001): a later feature)', { preemptibility: 'semi-preemptible' }, ['spec', 'preemptibility']],
    ['a cluster listed twice', { clusters: [{ name: 'm1', replicas: 1 }, { name: 'm1', replicas: 2 }] }, ['spec', 'clusters', 1, 'name']],
  ])('rejects %s', (_, spec, path) => {
    const result = resourceBindingSchema.safeParse({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'b', namespace: 'default' },
      spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, ...spec },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });
});

describe("Karmada's ResourceBindingSpec and status (pkg/apis/work/v1alpha2/binding_types.go): every field reads back whole", () => {
  it('accepts the fields a policy carries, the replica requirements, components, dependants and per-cluster status', () => {
    const spec = {
      propagateDeps: true,
      replicas: 3,
      replicaRequirements: {
        nodeClaim: {
          hardNodeAffinity: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['eu-1a'] }] }] },
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }],
        },
        resourceRequest: { cpu: '500m', memory: '1Gi' },
        namespace: 'default',
        priorityClassName: 'high',
      },
      components: [{ name: 'master', replicas: 1, replicaRequirements: { resourceRequest: { cpu: '1' }, priorityClassName: 'high' } }],
      clusters: [{ name: 'm1', replicas: 3, components: [{ name: 'master', replicas: 1 }] }],
      placement: { clusterAffinity: { clusterNames: ['m1'] }, workloadAffinity: { antiAffinity: { groupByLabelKey: 'app.group' } } },
      gracefulEvictionTasks: [
        { fromCluster: 'm2', purgeMode: 'Never', reason: 'ApplicationFailure', producer: 'resource-binding-application-failover-controller', suppressDeletion: true, preservedLabelState: { 'failover.karmada.io/replicas': '3' }, clustersBeforeFailover: ['m2'] },
      ],
      requiredBy: [{ namespace: 'default', name: 'web-deployment', clusters: [{ name: 'm1', replicas: 3 }] }],
      failover: { application: { decisionConditions: { tolerationSeconds: 120 }, purgeMode: 'Gracefully', gracePeriodSeconds: 600 }, cluster: { purgeMode: 'Directly' } },
      conflictResolution: 'Overwrite',
      suspension: { dispatchingOnClusters: { clusterNames: ['m2'] }, scheduling: false },
      preserveResourcesOnDeletion: true,
      workloadAffinityGroups: { affinityGroup: 'app.group=frontend', antiAffinityGroup: 'app.tier=web' },
    };
    const status = {
      aggregatedStatus: [{ clusterName: 'm1', status: { replicas: 3, readyReplicas: 3 }, applied: true, appliedMessage: '', health: 'Healthy' }],
    };
    const parsed = binding(spec, { status });
    expect(parsed.spec).toEqual({ resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, ...spec });
    expect(parsed.status).toEqual(status);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['conflictResolution other than Abort or Overwrite', { conflictResolution: 'Merge' }, 'spec.conflictResolution'],
    ['a component name of more than 32 characters', { components: [{ name: 'c'.repeat(33), replicas: 1 }] }, 'spec.components.0.name'],
    ['an unknown health', {}, 'status.aggregatedStatus.0.health'],
  ])('refuses %s', (_, spec, path) => {
    const result = resourceBindingSchema.safeParse({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: 'ResourceBinding',
      metadata: { name: 'web-deployment', namespace: 'default' },
      spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, ...spec },
      status: { aggregatedStatus: [{ clusterName: 'm1', health: path.startsWith('status') ? 'Dying' : 'Healthy' }] },
    });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  });
});
