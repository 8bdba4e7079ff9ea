/**
 * The Warning a write gets for each field of Karmada's API that outrank keeps without acting on it:
 * never a silent drop, and no warning for a field outrank acts on.
 */
import { describe, expect, it } from 'vitest';
import { carriedFieldWarnings } from '../../../lib/api/carried-fields';
import { decodeObject, type KubeObject } from '../../../lib/api/decode';

const CARRIED = 'carried to the binding for whatever propagates placements; outrank does not act on it';

function policy(spec: Record<string, unknown>): KubeObject {
  return decodeObject({
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: 'p', namespace: 'default' },
    spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], ...spec },
  });
}

describe('carriedFieldWarnings', () => {
  it('names each carried policy field with its path, list items numbered', () => {
    const written = policy({
      propagateDeps: true,
      conflictResolution: 'Abort',
      failover: { cluster: { purgeMode: 'Directly' } },
      preserveResourcesOnDeletion: false,
      suspension: { dispatching: true, scheduling: true },
      placement: {
        clusterAffinities: [
          { affinityName: 'a', clusterNames: ['m1'] },
          { affinityName: 'b', clusterNames: ['m2'], overflowAffinities: [{ affinityName: 'c', clusterNames: ['m3'] }] },
        ],
        replicaScheduling: { replicaDivisionPreference: 'Aggregated' },
        workloadAffinity: { affinity: { groupByLabelKey: 'app.group' } },
      },
    });
    expect(carriedFieldWarnings(written, undefined)).toEqual([
      `spec.propagateDeps: ${CARRIED}`,
      `spec.conflictResolution: ${CARRIED}`,
      `spec.failover: ${CARRIED}`,
      `spec.preserveResourcesOnDeletion: ${CARRIED}`,
      `spec.suspension.dispatching: ${CARRIED}`,
      `spec.placement.clusterAffinities[1].overflowAffinities: ${CARRIED}`,
      `spec.placement.workloadAffinity: ${CARRIED}`,
    ]);
  });

  it('says what becomes of the fields kept on the policy alone', () => {
    expect(carriedFieldWarnings(policy({ association: true, dependentOverrides: ['o'], activationPreference: 'Lazy', suspension: { dispatchingOnClusters: { clusterNames: ['m1'] } } }), undefined)).toEqual([
      `spec.suspension.dispatchingOnClusters: ${CARRIED}`,
      'spec.association: stored on the policy; outrank does not act on it (Karmada deprecated it for propagateDeps)',
      'spec.dependentOverrides: stored on the policy; outrank does not act on it: the policy applies without waiting for OverridePolicies',
      'spec.activationPreference: stored on the policy; outrank does not act on it: policy changes apply to their templates at once',
    ]);
  });

  it('gives no warning for the fields outrank acts on', () => {
    const acted = policy({
      priority: 3,
      preemption: 'Always',
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }],
      schedulePriority: { priorityClassSource: 'KubePriorityClass', priorityClassName: 'high' },
      preemptibility: 'non-preemptible',
      suspension: { scheduling: true },
      placement: {
        clusterAffinity: { clusterNames: ['m1'], fieldSelector: { matchExpressions: [{ key: 'region', operator: 'In', values: ['eu'] }] } },
        clusterTolerations: [{ key: 'k', operator: 'Exists' }],
        spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 2 }],
        replicaScheduling: { replicaSchedulingType: 'Duplicated' },
      },
    });
    expect(carriedFieldWarnings(acted, undefined)).toEqual([]);
  });

  it('names the Cluster fields stored without being used', () => {
    const cluster = decodeObject({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: 'member1' },
      spec: {
        syncMode: 'Push',
        apiEndpoint: 'https://172.18.0.3:6443',
        secretRef: { namespace: 'karmada-cluster', name: 'member1' },
        region: 'eu-west-1',
        resourceModels: [{ grade: 0, ranges: [{ name: 'cpu', min: '0', max: '1' }] }],
      },
    });
    expect(carriedFieldWarnings(cluster, undefined)).toEqual([
      'spec.syncMode: stored; outrank does not connect to member clusters',
      'spec.apiEndpoint: stored; outrank does not connect to member clusters',
      'spec.secretRef: stored; outrank does not connect to member clusters',
      'spec.resourceModels: stored; outrank does not act on it: it places by status.resourceSummary.allocatable',
    ]);
  });

  it('of a binding, which outrank writes, warns only of what the write changes', () => {
    const binding = (spec: Record<string, unknown>) =>
      decodeObject({
        apiVersion: 'work.karmada.io/v1alpha2',
        kind: 'ResourceBinding',
        metadata: { name: 'web-deployment', namespace: 'default' },
        spec: { resource: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default', name: 'web' }, propagateDeps: true, ...spec },
      });
    const stored = binding({ suspension: { dispatching: true } });
    expect(carriedFieldWarnings(binding({ suspension: { dispatching: true, scheduling: false } }), stored)).toEqual([]);
    expect(carriedFieldWarnings(binding({ suspension: { dispatchingOnClusters: { clusterNames: ['m2'] } } }), stored)).toEqual([
      'spec.suspension.dispatchingOnClusters: kept for whatever propagates placements; outrank does not act on it',
    ]);
  });

  it('knows nothing to warn of in other kinds', () => {
    const priorityClass = decodeObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 10 });
    expect(carriedFieldWarnings(priorityClass, undefined)).toEqual([]);
  });
});
