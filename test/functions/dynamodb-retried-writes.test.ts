/**
 * A single put the SDK sends twice — its first answer lost (a time-out under load), the write landed —
 * is answered as written, not as a conflict with itself: a create is not AlreadyExists, a replace not a
 * stale resourceVersion. A different writer's put still conflicts.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';
import { ConflictError, type StoredObject } from '../../lib/ports/object-store';
import { provisionTestAws } from '../support/aws';

const ref = { group: 'example.io', kind: 'Widget', namespace: 'default', name: 'w' };
const widget = (size: number): StoredObject => ({ apiVersion: 'example.io/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'default' }, spec: { size } }) as StoredObject;

/** A client that sends every request twice and answers with the second answer, as an SDK retry after a lost answer does. */
function sendingTwice(client: DynamoDBDocumentClient): DynamoDBDocumentClient {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property !== 'send') return Reflect.get(target, property, receiver);
      return async (command: Parameters<DynamoDBDocumentClient['send']>[0]) => {
        await target.send(command);
        return target.send(command);
      };
    },
  });
}

describe('DynamoDB single writes sent again after a lost answer', () => {
  it('a create and then a replace are each answered as written, and stored once', async () => {
    const aws = await provisionTestAws();
    const retrying = new DynamoDbObjectStore(sendingTwice(aws.clients.documents), aws.resources.objectsTable);
    const [created] = await retrying.transact([{ op: 'put', object: widget(1), expectedVersion: null }]);
    const [replaced] = await retrying.transact([{ op: 'put', object: widget(2), expectedVersion: created!.metadata.resourceVersion! }]);
    const store = new DynamoDbObjectStore(aws.clients.documents, aws.resources.objectsTable);
    expect(await store.get(ref)).toEqual(replaced);
  });

  it("another writer's create or stale replace still conflicts", async () => {
    const aws = await provisionTestAws();
    const retrying = new DynamoDbObjectStore(sendingTwice(aws.clients.documents), aws.resources.objectsTable);
    const [created] = await retrying.transact([{ op: 'put', object: widget(1), expectedVersion: null }]);
    await expect(retrying.transact([{ op: 'put', object: widget(3), expectedVersion: null }])).rejects.toBeInstanceOf(ConflictError);
    await retrying.transact([{ op: 'put', object: widget(2), expectedVersion: created!.metadata.resourceVersion! }]);
    await expect(retrying.transact([{ op: 'put', object: widget(4), expectedVersion: created!.metadata.resourceVersion! }])).rejects.toBeInstanceOf(ConflictError);
  });
});
