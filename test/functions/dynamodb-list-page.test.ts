/** The DynamoDB store's pages of a kind: the requests a page makes, whatever the kind's size. */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbObjectStore } from '../../functions/adapters/dynamodb-object-store';

type Sent = Record<string, unknown>;

function item(name: string) {
  return { pk: 'Deployment.apps', sk: `fleet/${name}`, version: 'v1', object: JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'fleet' } }) };
}

/** A client answering each Query with the next of `responses` (a page of items and DynamoDB's LastEvaluatedKey). */
function client(sent: Sent[], responses: Array<{ names: string[]; last?: string }>): DynamoDBDocumentClient {
  return {
    send: async (command: { input: Sent }) => {
      sent.push(command.input);
      const { names, last } = responses.shift() ?? { names: [] };
      return { Items: names.map(item), ...(last ? { LastEvaluatedKey: { pk: 'Deployment.apps', sk: `fleet/${last}` } } : {}) };
    },
  } as unknown as DynamoDBDocumentClient;
}

describe('a page of a kind from DynamoDB', () => {
  it('is one Query from the key after which it starts, for one item more than it holds', async () => {
    const sent: Sent[] = [];
    const store = new DynamoDbObjectStore(client(sent, [{ names: ['b', 'c', 'd'], last: 'd' }]), 'objects');
    const page = await store.listPage('apps', 'Deployment', { limit: 2, after: ['fleet', 'a'] }, 'fleet');
    expect(page.items.map((object) => object.metadata.name)).toEqual(['b', 'c']);
    expect(page.more).toBe(true);
    expect(sent).toEqual([
      expect.objectContaining({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': 'Deployment.apps', ':prefix': 'fleet/' },
        ExclusiveStartKey: { pk: 'Deployment.apps', sk: 'fleet/a' },
        Limit: 3,
        ConsistentRead: true,
      }),
    ]);
  });

  it('reads on only where a response stopped short at its megabyte, and says no more follow at the end', async () => {
    const sent: Sent[] = [];
    const store = new DynamoDbObjectStore(client(sent, [{ names: ['a'], last: 'a' }, { names: ['b'] }]), 'objects');
    const page = await store.listPage('apps', 'Deployment', { limit: 5 });
    expect(page).toMatchObject({ more: false });
    expect(page.items.map((object) => object.metadata.name)).toEqual(['a', 'b']);
    expect(sent.map((input) => [input.ExclusiveStartKey, input.Limit])).toEqual([
      [undefined, 6],
      [{ pk: 'Deployment.apps', sk: 'fleet/a' }, 5],
    ]);
  });
});
