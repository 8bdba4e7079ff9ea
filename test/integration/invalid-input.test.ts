import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsClients } from '../../functions/adapters/aws-context';
import { Pipeline } from './pipeline';

const policies = '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies';
const priorityClasses = '/apis/scheduling.k8s.io/v1/priorityclasses';

async function tableContents(): Promise<unknown[]> {
  const { documents } = awsClients();
  const result = await documents.send(new ScanCommand({ TableName: process.env.OBJECTS_TABLE, ConsistentRead: true }));
  return (result.Items ?? []).sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`));
}

describe('invalid API input writes nothing to DynamoDB', () => {
  let pipeline: Pipeline;
  beforeAll(async () => {
    pipeline = await Pipeline.start();
    await pipeline.request('POST', priorityClasses, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
  });
  afterAll(() => pipeline.stop());

  it.each([
    ['a preempting policy without names (policy priority and preemption (002))', 'POST', policies, {
      apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'bad', namespace: 'default' },
      spec: { preemption: 'Always', resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] },
    }, 422, 'spec.resourceSelectors[0].name'],
    ['clusterAffinity with clusterAffinities (ordered cluster-affinity groups (004))', 'POST', policies, {
      apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'bad', namespace: 'default' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { clusterAffinity: {}, clusterAffinities: [{ affinityName: 'a' }] } },
    }, 422, 'spec.placement.clusterAffinities'],
    ['a changed PriorityClass value (binding priority and preemption (000))', 'PUT', `${priorityClasses}/high`, {
      apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 5,
    }, 422, 'value'],
    ['a negative quantity', 'POST', '/apis/apps/v1/namespaces/default/deployments', {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', resources: { requests: { cpu: '-1' } } }] } } },
    }, 422, 'cpu'],
    ['not an object', 'POST', policies, [1, 2, 3], 400, ''],
  ])('%s', async (_, method, path, body, status, field) => {
    const before = await tableContents();
    const response = await pipeline.request(method, path, body);
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ kind: 'Status', status: 'Failure', code: status });
    expect(response.body.message).toContain(field);
    await pipeline.settle();
    expect(await tableContents()).toEqual(before);
  });
});
