/** The DynamoDB store's adds beyond the ObjectStore contract: how counters kept apart from the object meet the rest of the item. */
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { ConflictError, type AddWrite, type StoredObject } from '../../lib/ports/object-store';
import { provisionTestAws } from '../support/aws';

const ref = { group: 'scheduling.example.io', kind: 'Tally', namespace: '', name: 'm1' };
const tally = { apiVersion: 'scheduling.example.io/v1', kind: 'Tally', metadata: { name: 'm1' }, spec: {} };
const add = (amounts: Record<string, number>, limits: Record<string, number> = {}): AddWrite => ({ op: 'add', object: tally, field: 'counts', amounts, limits });

async function newStore(): Promise<DynamoDbObjectStore> {
  const aws = await provisionTestAws();
  return new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
}

describe('DynamoDB adds', () => {
  it('refuse an object written whole by a put, whose amounts no add can count, rather than count from zero', async () => {
    const store = await newStore();
    const whole: StoredObject = { ...tally, spec: { counts: { cpu: 3000 } } } as StoredObject;
    const [written] = await store.transact([{ op: 'put', object: whole, expectedVersion: null }]);
    const failure = await store.transact([add({ cpu: 1000 }, { cpu: 4000 })]).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConflictError);
    expect((failure as ConflictError).refs).toEqual([ref]);
    expect(await store.get(ref)).toEqual(written);
  });

  it('take a counter moved by zero, or limited without being moved, as the memory store does', async () => {
    const store = await newStore();
    await store.transact([add({ cpu: 1000, pods: 0 })]);
    await store.transact([add({ pods: 1 }, { cpu: 1000, pods: 1 })]);
    await expect(store.transact([add({ pods: 1 }, { cpu: 999 })])).rejects.toBeInstanceOf(ConflictError);
    expect((await store.get<typeof tally & { spec: { counts: Record<string, number> } }>(ref))?.spec.counts).toEqual({ cpu: 1000, pods: 1 });
  });
});
