/**
 * The resync schedule's reconcile ({ resync: true }) through the real handler, queues and tables: a
 * Deployment whose binding went missing behind the controllers' back gets it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pipeline } from './pipeline';

const POLICY = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'web', namespace: 'default' },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: { clusterNames: ['member1'] } } },
};
const CLUSTER = {
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name: 'member1' },
  status: { resourceSummary: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } } },
};
const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1' } } }] } } },
};

describe('template resync on the local AWS endpoint', () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
    expect((await pipeline.request('POST', '/apis/cluster.karmada.io/v1alpha1/clusters', CLUSTER)).status).toBe(201);
    expect((await pipeline.request('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', POLICY)).status).toBe(201);
    await pipeline.settle();
  });
  afterAll(() => pipeline.stop());

  it('binds again a Deployment whose binding was deleted behind the controllers\' back', async () => {
    expect((await pipeline.request('POST', '/apis/apps/v1/namespaces/default/deployments', DEPLOYMENT)).status).toBe(201);
    await pipeline.settle();
    expect(await pipeline.bindings()).toHaveLength(1);
    // Straight from the table, as a partial restore would: no controller hears of a binding write it did not make.
    const store = pipeline.store;
    const ref = { group: 'work.karmada.io', kind: 'ResourceBinding', namespace: 'default', name: 'web-deployment' };
    const [stored] = await store.getMany([ref]);
    await store.transact([{ op: 'delete', ref, expectedVersion: stored!.metadata.resourceVersion! }]);
    await pipeline.settle();
    expect(await pipeline.bindings()).toEqual([]);

    expect(await pipeline.functions.resync()).toEqual({ resynced: 1 });
    await pipeline.settle();
    const [binding] = await pipeline.bindings();
    expect(binding).toMatchObject({ name: 'web-deployment', clusters: [{ name: 'member1', replicas: 2 }] });
    expect(pipeline.errors).toEqual([]);
  });
});
