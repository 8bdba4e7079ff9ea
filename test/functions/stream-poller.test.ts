import type { DynamoDBStreamEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { DynamoStreamPoller, localStreamsClient, type StreamFailure, type StreamHandler, type StreamStart } from '../../functions/local/stream-poller';
import { ConflictError, type StoredObject } from '../../lib/ports/object-store';
import { provisionTestAws } from '../support/aws';

const deployment = (name: string): StoredObject => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'default' } });
const sortKeys = (event: DynamoDBStreamEvent) => event.Records.map((record) => record.dynamodb?.Keys?.sk?.S);

async function setUp(handler: StreamHandler, maxAttempts = 3, start: StreamStart = 'TRIM_HORIZON', report: (failure: StreamFailure) => Promise<void> = async () => {}) {
  const aws = await provisionTestAws();
  const store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
  const errors: unknown[] = [];
  const givenUp: StreamFailure[] = [];
  const poller = new DynamoStreamPoller(aws.clients.dynamodb, localStreamsClient(), handler, {
    functionName: 'outrank-policy-change',
    tableName: aws.resources.objectsTable,
    batchSize: 100,
    timeoutMs: 30_000,
    maxAttempts,
    start,
    onError: (error) => errors.push(error),
    onGiveUp: async (failure) => {
      await report(failure);
      givenUp.push(failure);
    },
  });
  return { store, poller, errors, givenUp };
}

describe('the local event source mapping of the objects table\'s stream (on the local AWS endpoint)', () => {
  it('hands every write to the handler once, in commit order, whenever it was made', async () => {
    const seen: Array<string | undefined> = [];
    const { store, poller, errors } = await setUp(async (event) => void seen.push(...sortKeys(event)));
    await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
    await store.transact([{ op: 'put', object: deployment('b'), expectedVersion: null }]);
    expect(await poller.pollOnce(0)).toBe(2);
    const [b] = await store.getMany([{ group: 'apps', kind: 'Deployment', namespace: 'default', name: 'b' }]);
    await store.transact([{ op: 'delete', ref: { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'b' }, expectedVersion: b!.metadata.resourceVersion! }]);
    await poller.pollOnce(0);
    expect(await poller.pollOnce(0)).toBe(0);
    // The delete is the object's removal and its deletion marker's insert.
    expect(seen).toEqual(['default/a', 'default/b', 'default/b', '~default/b']);
    expect(errors).toEqual([]);
  });

  it('hands on nothing of a cancelled transaction, whose writes before the failed condition are undone', async () => {
    const seen: Array<string | undefined> = [];
    const { store, poller, errors } = await setUp(async (event) => void seen.push(...sortKeys(event)));
    const [a] = await store.transact([{ op: 'put', object: deployment('a'), expectedVersion: null }]);
    await poller.pollOnce(0);
    const scaled: StoredObject & { spec: unknown } = { ...deployment('a'), spec: { replicas: 5 } };
    const cancelled = store.transact([
      { op: 'put', object: scaled, expectedVersion: a!.metadata.resourceVersion! },
      { op: 'put', object: deployment('b'), expectedVersion: null },
      { op: 'put', object: deployment('c'), expectedVersion: 'stale' },
    ]);
    await expect(cancelled).rejects.toBeInstanceOf(ConflictError);
    await store.transact([{ op: 'put', object: deployment('d'), expectedVersion: null }]);
    await poller.pollOnce(0);
    expect(seen).toEqual(['default/a', 'default/d']);
    expect(await store.getMany(['a', 'b'].map((name) => ({ group: 'apps', kind: 'Deployment', namespace: 'default', name })))).toEqual([a, undefined]);
    expect(errors).toEqual([]);
  });

  it('starts again at the first record the handler reported failed, and hands on the rest afterwards', async () => {
    const seen: Array<string | undefined> = [];
    let failures = 1;
    const { store, poller, errors } = await setUp(async (event) => {
      seen.push(...sortKeys(event));
      const second = event.Records[1];
      if (second && failures-- > 0) return { batchItemFailures: [{ itemIdentifier: second.dynamodb!.SequenceNumber! }] };
      return { batchItemFailures: [] };
    });
    for (const name of ['a', 'b', 'c']) await store.transact([{ op: 'put', object: deployment(name), expectedVersion: null }]);
    await poller.pollOnce(0);
    await poller.pollOnce(0);
    expect(seen).toEqual(['default/a', 'default/b', 'default/c', 'default/b', 'default/c']);
    expect(errors).toEqual([]);
  });

  it('gives up on a record that fails every attempt, reports it, and goes on past it', async () => {
    const seen: Array<string | undefined> = [];
    const { store, poller, errors, givenUp } = await setUp(async (event) => {
      seen.push(...sortKeys(event));
      if (event.Records[0]!.dynamodb?.Keys?.sk?.S === 'default/poison') throw new Error('cannot handle it');
    }, 2);
    for (const name of ['poison', 'next']) await store.transact([{ op: 'put', object: deployment(name), expectedVersion: null }]);
    for (let round = 0; round < 3; round += 1) await poller.pollOnce(0);
    expect(seen).toEqual(['default/poison', 'default/next', 'default/poison', 'default/next', 'default/next']);
    expect(errors.map(String)).toEqual(['Error: cannot handle it', 'Error: cannot handle it', expect.stringMatching(/gave up on stream record \d+ of shard .* after 2 attempts/)]);
    // Reported as Lambda reports it to the stack's on-failure destination.
    const sequenceNumber = String(errors[2]).match(/record (\d+)/)![1];
    expect(givenUp).toEqual([
      {
        requestContext: { functionArn: expect.stringMatching(/:function:outrank-policy-change$/), condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 },
        version: '1.0',
        timestamp: expect.any(String),
        DDBStreamBatchInfo: { shardId: expect.any(String), startSequenceNumber: sequenceNumber, endSequenceNumber: sequenceNumber, batchSize: 1, streamArn: expect.stringMatching(/^arn:aws:dynamodb:/) },
      },
    ]);
  });

  it('passes a record given up on only once it is reported: one whose report failed is tried and given up on again', async () => {
    const seen: Array<string | undefined> = [];
    let reports = 0;
    const { store, poller, givenUp } = await setUp(
      async (event) => {
        seen.push(...sortKeys(event));
        throw new Error('cannot handle it');
      },
      1,
      'TRIM_HORIZON',
      async () => {
        reports += 1;
        if (reports === 1) throw new Error('the failures queue did not answer');
      },
    );
    await store.transact([{ op: 'put', object: deployment('poison'), expectedVersion: null }]);
    await expect(poller.pollOnce(0)).rejects.toThrow('the failures queue did not answer');
    expect(givenUp).toEqual([]);
    await poller.pollOnce(0);
    expect(seen).toEqual(['default/poison', 'default/poison']);
    expect(givenUp).toHaveLength(1);
    expect(await poller.pollOnce(0)).toBe(0);
  });

  it('started at the stream\'s end, hands on only what is written after its first read', async () => {
    const seen: Array<string | undefined> = [];
    const aws = await setUp(async (event) => void seen.push(...sortKeys(event)), 3, 'LATEST');
    await aws.store.transact([{ op: 'put', object: deployment('before'), expectedVersion: null }]);
    expect(await aws.poller.pollOnce(0)).toBe(0);
    await aws.store.transact([{ op: 'put', object: deployment('after'), expectedVersion: null }]);
    expect(await aws.poller.pollOnce(0)).toBe(1);
    expect(seen).toEqual(['default/after']);
  });
});
