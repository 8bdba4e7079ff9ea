import { TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  PutCommand,
  DeleteCommand,
  QueryCommand,
  TransactWriteCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { refOf, type ObjectRef } from '../../lib/api/kinds';
import { ConflictError, type ObjectStore, type StoredObject, type Write } from '../../lib/ports/object-store';

/** DynamoDB allows at most this many items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

function partitionKey(group: string, kind: string): string {
  return `${kind}.${group}`;
}

function sortKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function keyOf(ref: ObjectRef) {
  return { pk: partitionKey(ref.group, ref.kind), sk: sortKey(ref.namespace, ref.name) };
}

/**
 * A fresh opaque resourceVersion. Versions are unique rather than counters so that an object deleted
 * and created again never matches a version read from its earlier life.
 */
function newVersion(): string {
  return `${Date.now().toString(36)}${randomBytes(6).toString('hex')}`;
}

interface Item {
  readonly pk: string;
  readonly sk: string;
  readonly version: string;
  readonly object: string;
}

function fromItem<T extends StoredObject>(item: Record<string, unknown>): T {
  const { object, version } = item as unknown as Item;
  const parsed = JSON.parse(object) as T;
  return { ...parsed, metadata: { ...parsed.metadata, resourceVersion: version } };
}

function condition(expectedVersion: string | null) {
  return expectedVersion === null
    ? { ConditionExpression: 'attribute_not_exists(pk)' }
    : {
        ConditionExpression: '#version = :expected',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':expected': expectedVersion },
      };
}

/**
 * ObjectStore on one DynamoDB table (partition key `<kind>.<group>`, sort key `<namespace>/<name>`).
 * Every write is conditional on the version read; several writes go in one TransactWriteItems, so a
 * preemption commits the preemptor, its victims and the cluster allocations together or not at all.
 */
export class DynamoDbObjectStore implements ObjectStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: keyOf(ref), ConsistentRead: true }));
    return result.Item ? fromItem<T>(result.Item) : undefined;
  }

  async list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]> {
    const objects: T[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: namespace === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: {
            ':pk': partitionKey(group, kind),
            ...(namespace === undefined ? {} : { ':prefix': `${namespace}/` }),
          },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of result.Items ?? []) objects.push(fromItem<T>(item));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return objects;
  }

  async transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>> {
    if (writes.length > MAX_TRANSACTION_ITEMS) {
      throw new Error(`a transaction holds at most ${MAX_TRANSACTION_ITEMS} writes, got ${writes.length}`);
    }
    const refs = writes.map((write) => (write.op === 'put' ? refOf(write.object) : write.ref));
    const versions = writes.map((write) => (write.op === 'put' ? newVersion() : undefined));
    try {
      if (writes.length === 1) await this.writeOne(writes[0]!, versions[0]);
      else await this.writeAll(writes, versions);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConflictError(refs);
      if (error instanceof TransactionCanceledException) {
        const reasons = error.CancellationReasons ?? [];
        const failed = refs.filter((_, index) => {
          const code = reasons[index]?.Code;
          return code !== undefined && code !== 'None';
        });
        throw new ConflictError(failed.length > 0 ? failed : refs);
      }
      throw error;
    }
    return writes.map((write, index) =>
      write.op === 'put'
        ? { ...write.object, metadata: { ...write.object.metadata, resourceVersion: versions[index]! } }
        : undefined,
    );
  }

  private item(object: StoredObject, version: string): Item {
    const { resourceVersion: _ignored, ...metadata } = object.metadata;
    return { ...keyOf(refOf(object)), version, object: JSON.stringify({ ...object, metadata }) };
  }

  private async writeOne(write: Write, version: string | undefined): Promise<void> {
    if (write.op === 'put') {
      await this.client.send(new PutCommand({ TableName: this.tableName, Item: this.item(write.object, version!), ...condition(write.expectedVersion) }));
    } else if (write.op === 'delete') {
      await this.client.send(new DeleteCommand({ TableName: this.tableName, Key: keyOf(write.ref), ...condition(write.expectedVersion) }));
    } else {
      await this.writeAll([write], [undefined]);
    }
  }

  private async writeAll(writes: readonly Write[], versions: ReadonlyArray<string | undefined>): Promise<void> {
    await this.client.send(
      new TransactWriteCommand({
        TransactItems: writes.map((write, index) => {
          if (write.op === 'put') {
            return { Put: { TableName: this.tableName, Item: this.item(write.object, versions[index]!), ...condition(write.expectedVersion) } };
          }
          if (write.op === 'delete') {
            return { Delete: { TableName: this.tableName, Key: keyOf(write.ref), ...condition(write.expectedVersion) } };
          }
          return { ConditionCheck: { TableName: this.tableName, Key: keyOf(write.ref), ...condition(write.expectedVersion) } };
        }),
      }),
    );
  }
}
