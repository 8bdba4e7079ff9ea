import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { ConflictError, StoreTimeoutError, UnavailableError } from '../../lib/ports/object-store';

const ref = { group: 'apps', kind: 'Deployment', namespace: 'default', name: 'web' };
const object = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' } };

/** A client whose every request fails with `error`, as DynamoDB answers once the SDK's retries are spent. */
function failingWith(error: Error): DynamoDBDocumentClient {
  return { send: async () => Promise.reject(error) } as unknown as DynamoDBDocumentClient;
}

const named = (name: string) => Object.assign(new Error(`${name} (from DynamoDB)`), { name });
const cancelled = (codes: string[]) =>
  new TransactionCanceledException({ message: 'Transaction cancelled', $metadata: {}, CancellationReasons: codes.map((Code) => ({ Code })) });

describe('DynamoDB throttling becomes UnavailableError (the API answers 503 with Retry-After); other failures stay what they are', () => {
  it.each(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded'])('%s on a read and on a write', async (name) => {
    const store = new DynamoDbObjectStore(failingWith(named(name)), 'objects');
    await expect(store.get(ref)).rejects.toBeInstanceOf(UnavailableError);
    await expect(store.list('apps', 'Deployment')).rejects.toBeInstanceOf(UnavailableError);
    await expect(store.transact([{ op: 'put', object, expectedVersion: null }])).rejects.toBeInstanceOf(UnavailableError);
  });

  it('a transaction cancelled for throttling is unavailable; one cancelled by a condition is a conflict', async () => {
    const writes = [{ op: 'put' as const, object, expectedVersion: null }, { op: 'check' as const, ref, expectedVersion: '1' }];
    await expect(new DynamoDbObjectStore(failingWith(cancelled(['None', 'ThrottlingError'])), 'objects').transact(writes)).rejects.toBeInstanceOf(UnavailableError);
    await expect(new DynamoDbObjectStore(failingWith(cancelled(['None', 'ConditionalCheckFailed'])), 'objects').transact(writes)).rejects.toBeInstanceOf(ConflictError);
  });

  it.each([
    { failure: 'the SDK timing out', error: named('TimeoutError') },
    { failure: 'the connection reset after sending', error: Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }) },
  ])('no answer ($failure) becomes StoreTimeoutError on a read and on a write: a write may have been made', async ({ error }) => {
    const store = new DynamoDbObjectStore(failingWith(error), 'objects');
    await expect(store.get(ref)).rejects.toBeInstanceOf(StoreTimeoutError);
    await expect(store.transact([{ op: 'put', object, expectedVersion: null }])).rejects.toBeInstanceOf(StoreTimeoutError);
  });

  it('any other failure is passed on unchanged', async () => {
    const failure = named('InternalServerError');
    await expect(new DynamoDbObjectStore(failingWith(failure), 'objects').get(ref)).rejects.toBe(failure);
  });
});
