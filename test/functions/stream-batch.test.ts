import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourceDefinitions, resourcesAt } from '../../functions/adapters/definitions';
import { objectChangeOfRecord } from '../../functions/adapters/object-stream';
import { resetControllerContext } from '../../functions/context';
import { environmentFor } from '../../functions/environment';
import { localLambdaContext } from '../../functions/local/lambda-context';
import { dynamoStreamHandler } from '../../functions/stream-batch';
import { DEFAULT_BANDS } from '../../lib/config';

const record = (sequence: string, pk: string, sk: string): DynamoDBRecord => ({
  eventID: `e-${sequence}`,
  eventName: 'MODIFY',
  eventSource: 'aws:dynamodb',
  dynamodb: { Keys: { pk: { S: pk }, sk: { S: sk } }, SequenceNumber: sequence, StreamViewType: 'KEYS_ONLY' },
});

describe('a record of the objects table\'s stream, as policy-change reads it', () => {
  it.each([
    ['a Deployment', 'Deployment.apps', 'default/web', { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' }],
    ['a cluster-scoped Cluster', 'Cluster.cluster.karmada.io', '/m1', { group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name: 'm1' }],
    ['a policy', 'PropagationPolicy.policy.karmada.io', 'team-a/web', { group: 'policy.karmada.io', kind: 'PropagationPolicy', namespace: 'team-a', name: 'web' }],
    ['a core-group template', 'ConfigMap.', 'default/settings', { group: '', kind: 'ConfigMap', namespace: 'default', name: 'settings' }],
  ])('%s is the change of that object', (_name, pk, sk, ref) => {
    expect(objectChangeOfRecord(record('1', pk, sk))).toEqual({ ref });
  });

  it.each([
    ['a binding', 'ResourceBinding.work.karmada.io', 'default/web-deployment'],
    ['an allocation record', 'ClusterAllocation.scheduling.outrank.io', '/m1'],
    ['a PriorityClass (binding priority and preemption (000): class changes do not update bindings)', 'PriorityClass.scheduling.k8s.io', '/high'],
    ['a deletion marker', 'Deployment.apps', '~default/web'],
  ])('%s is nothing policy-change hears of', (_name, pk, sk) => {
    expect(objectChangeOfRecord(record('1', pk, sk))).toBeUndefined();
  });

  it('without string keys is refused, naming the record', () => {
    expect(() => objectChangeOfRecord({ eventID: 'e-9', dynamodb: { Keys: { pk: { N: '1' } } } })).toThrow(/e-9 has no string keys pk and sk/);
  });
});

describe('a DynamoDB stream batch handler', () => {
  const saved = { ...process.env };
  beforeAll(() => {
    // The handler builds the functions' context from the environment the stack sets; nothing is called.
    Object.assign(process.env, environmentFor(resourcesAt(resourceDefinitions('stream-batch', DEFAULT_BANDS), (name) => `http://127.0.0.1:1/${name}`), undefined));
    resetControllerContext();
  });
  afterAll(() => {
    process.env = saved;
    resetControllerContext();
  });

  const event = (...records: DynamoDBRecord[]): DynamoDBStreamEvent => ({ Records: records });
  const handlerRecording = (handled: string[], failOn?: string) =>
    dynamoStreamHandler(
      (r) => (r.dynamodb?.Keys?.sk?.S === 'skip' ? undefined : r.dynamodb!.SequenceNumber!),
      () => async (sequence: string) => {
        if (sequence === failOn) throw new Error(`record ${sequence} failed`);
        handled.push(sequence);
      },
    );

  it('hands the records on in order, skipping those it has nothing to do with', async () => {
    const handled: string[] = [];
    const response = await handlerRecording(handled)(event(record('1', 'p', 'a'), record('2', 'p', 'skip'), record('3', 'p', 'b')), localLambdaContext('outrank-policy-change', 30_000));
    expect(handled).toEqual(['1', '3']);
    expect(response).toEqual({ batchItemFailures: [] });
  });

  it('reports a failed record by its sequence number, so that the mapping starts again there', async () => {
    const handled: string[] = [];
    const response = await handlerRecording(handled, '2')(event(record('1', 'p', 'a'), record('2', 'p', 'b'), record('3', 'p', 'c')), localLambdaContext('outrank-policy-change', 30_000));
    expect(handled).toEqual(['1', '3']);
    expect(response).toEqual({ batchItemFailures: [{ itemIdentifier: '2' }] });
  });

  it('takes no record when too little of the invocation\'s time is left: the batch fails whole and is retried', async () => {
    const handled: string[] = [];
    await expect(handlerRecording(handled)(event(record('1', 'p', 'a')), localLambdaContext('outrank-policy-change', 1_000))).rejects.toThrow(/All records failed/);
    expect(handled).toEqual([]);
  });
});
