import { describe, expect, it } from 'vitest';
import { clusterSchema, isClusterReady, resourceSummarySchema, taintSchema, type Cluster } from '../../../lib/api/cluster';

function cluster(fields: Record<string, unknown> = {}): Cluster {
  return clusterSchema.parse({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' }, ...fields });
}

describe('isClusterReady (issue 2, "Objects": a cluster with no Ready condition counts as ready)', () => {
  it.each([
    ['no status', {}, true],
    ['no conditions', { status: {} }, true],
    ['only other conditions', { status: { conditions: [{ type: 'Offline', status: 'True' }] } }, true],
    ['Ready True', { status: { conditions: [{ type: 'Ready', status: 'True' }] } }, true],
    ['Ready False', { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, false],
    ['Ready Unknown', { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } }, false],
  ])('%s → %s', (_, fields, ready) => {
    expect(isClusterReady(cluster(fields))).toBe(ready);
  });
});

describe('Cluster schema', () => {
  it('accepts labels, taints and a resource summary', () => {
    const parsed = cluster({
      metadata: { name: 'm1', labels: { region: 'eu' } },
      spec: { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] },
      status: { resourceSummary: { allocatable: { cpu: '10', memory: '32Gi', pods: 110 }, allocated: { cpu: '500m' } } },
    });
    expect(parsed.spec?.taints).toHaveLength(1);
    expect(parsed.status?.resourceSummary?.allocatable).toEqual({ cpu: '10', memory: '32Gi', pods: 110 });
  });

  it.each([
    ['NoSchedule', true],
    ['NoExecute', true],
    ['PreferNoSchedule', true],
    ['Sometimes', false],
  ])('taint effect %s valid: %s', (effect, valid) => {
    expect(taintSchema.safeParse({ key: 'k', effect }).success).toBe(valid);
  });

  it.each([
    ['a negative quantity', { allocatable: { cpu: '-1' } }, ['allocatable', 'cpu']],
    ['a quantity that does not parse', { allocated: { memory: 'lots' } }, ['allocated', 'memory']],
    ['an unknown suffix', { allocating: { memory: '1Zi' } }, ['allocating', 'memory']],
    ['a negative number', { allocatable: { pods: -5 } }, ['allocatable', 'pods']],
    ['a boolean', { allocatable: { pods: true } }, ['allocatable', 'pods']],
  ])('rejects %s in the resource summary', (_, summary, path) => {
    const result = resourceSummarySchema.safeParse(summary);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(path);
  });

  it('rejects fields it does not know (Cluster is one of outrank\'s own kinds)', () => {
    expect(clusterSchema.safeParse({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' }, spec: { extra: 1 } }).success).toBe(false);
  });
});
