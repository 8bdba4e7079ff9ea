/**
 * The resync schedule's reconcile ({ resync: true }) through the real handler, queues and tables: a
 * Deployment whose notice to policy-change was lost gets its binding.
 */
import { DeleteMessageCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
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
  spec: { replicas: 2, template: { spec: { containers: [{ name: 'main', image: 'nginx', resources: { requests: { cpu: '1' } } }] } } },
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

  it('binds a Deployment whose notice was lost', async () => {
    expect((await pipeline.request('POST', '/apis/apps/v1/namespaces/default/deployments', DEPLOYMENT)).status).toBe(201);
    // The notice is taken off the queue before policy-change sees it, as if the API had failed before sending it.
    const { sqs } = pipeline.aws.clients;
    const queueUrl = pipeline.aws.resources.policyChangeQueueUrl;
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, VisibilityTimeout: 60 }));
    expect(Messages).toHaveLength(1);
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: Messages[0]!.ReceiptHandle! }));
    await pipeline.settle();
    expect(await pipeline.bindings()).toEqual([]);

    expect(await pipeline.functions.resync()).toEqual({ resynced: 1 });
    await pipeline.settle();
    const [binding] = await pipeline.bindings();
    expect(binding).toMatchObject({ name: 'web-deployment', clusters: [{ name: 'member1', replicas: 2 }] });
    expect(pipeline.errors).toEqual([]);
  });
});
