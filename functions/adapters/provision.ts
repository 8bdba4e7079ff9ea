import {
  CreateTableCommand,
  DescribeTableCommand,
  ResourceNotFoundException,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, type SQSClient } from '@aws-sdk/client-sqs';
import { allQueues, type GlobalIndexDefinition, type QueueDefinition, type ResourceDefinitions, type TableDefinition } from './definitions';

export interface ProvisionedQueues {
  /** Queue URL by queue name. */
  readonly urls: ReadonlyMap<string, string>;
}

const KEYS_STREAM = { StreamEnabled: true, StreamViewType: 'KEYS_ONLY' as const };

/** The attributes the table's indexes are keyed by, besides the table's own keys. */
function indexKeyAttributes(table: TableDefinition): string[] {
  const keys = [
    ...(table.localIndexes ?? []).map((index) => index.sortKey),
    ...(table.globalIndexes ?? []).flatMap((index) => [index.partitionKey, index.sortKey]),
  ];
  return [...new Set(keys)].filter((key) => key !== table.partitionKey && key !== table.sortKey);
}

function globalIndex(index: GlobalIndexDefinition) {
  return {
    IndexName: index.name,
    KeySchema: [
      { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
    ],
    Projection: { ProjectionType: 'ALL' as const },
  };
}

/** DynamoDB takes one change of a table at a time: wait until the last one is done (the emulators are at once). */
async function untilActive(client: DynamoDBClient, tableName: string): Promise<void> {
  for (let tries = 0; tries < 120; tries += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    const indexesActive = (Table?.GlobalSecondaryIndexes ?? []).every((index) => index.IndexStatus === undefined || index.IndexStatus === 'ACTIVE');
    if (Table?.TableStatus === 'ACTIVE' && indexesActive) return;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`table ${tableName} did not become active within two minutes`);
}

async function ensureTable(client: DynamoDBClient, table: TableDefinition): Promise<void> {
  try {
    const { Table: existing } = await client.send(new DescribeTableCommand({ TableName: table.name }));
    // A table made before it had a stream gets one; what was written before that was announced then.
    if (table.keysStream && !existing?.StreamSpecification?.StreamEnabled) {
      await client.send(new UpdateTableCommand({ TableName: table.name, StreamSpecification: KEYS_STREAM }));
      await untilActive(client, table.name);
    }
    // A table made before an index gets it, one index per update. Items are indexed as DynamoDB
    // backfills the index; items written without the index's key attribute (events recorded before the
    // index was made) are never in it.
    const indexed = new Set((existing?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
    for (const index of (table.globalIndexes ?? []).filter((candidate) => !indexed.has(candidate.name))) {
      await client.send(
        new UpdateTableCommand({
          TableName: table.name,
          AttributeDefinitions: [index.partitionKey, index.sortKey].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
          GlobalSecondaryIndexUpdates: [{ Create: globalIndex(index) }],
        }),
      );
      await untilActive(client, table.name);
    }
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  await client.send(
    new CreateTableCommand({
      TableName: table.name,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [
        { AttributeName: table.partitionKey, AttributeType: 'S' },
        { AttributeName: table.sortKey, AttributeType: 'S' },
        ...indexKeyAttributes(table).map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
      ],
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: 'HASH' },
        { AttributeName: table.sortKey, KeyType: 'RANGE' },
      ],
      ...(table.localIndexes?.length
        ? {
            LocalSecondaryIndexes: table.localIndexes.map((index) => ({
              IndexName: index.name,
              KeySchema: [
                { AttributeName: table.partitionKey, KeyType: 'HASH' as const },
                { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
              ],
              Projection: { ProjectionType: 'KEYS_ONLY' as const },
            })),
          }
        : {}),
      ...(table.globalIndexes?.length
        ? {
            GlobalSecondaryIndexes: table.globalIndexes.map(globalIndex),
          }
        : {}),
      ...(table.keysStream ? { StreamSpecification: KEYS_STREAM } : {}),
    }),
  );
  if (table.timeToLiveAttribute) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: table.name,
        TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true },
      }),
    );
  }
}

async function ensureQueue(client: SQSClient, queue: QueueDefinition): Promise<[string, string]> {
  const fifo = { FifoQueue: 'true', ContentBasedDeduplication: 'false' };
  const deadLetter = await client.send(new CreateQueueCommand({ QueueName: queue.deadLetterName, Attributes: fifo }));
  const deadLetterArn = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ['QueueArn'] }),
  );
  const created = await client.send(
    new CreateQueueCommand({
      QueueName: queue.name,
      Attributes: {
        ...fifo,
        VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: deadLetterArn.Attributes?.QueueArn,
          maxReceiveCount: queue.maxReceiveCount,
        }),
      },
    }),
  );
  return [queue.name, created.QueueUrl!];
}

/** As the stack keeps it: a standard queue (Lambda sends to no FIFO queue on failure), its messages kept 14 days. */
async function ensureFailureQueue(client: SQSClient, name: string): Promise<[string, string]> {
  const created = await client.send(new CreateQueueCommand({ QueueName: name, Attributes: { MessageRetentionPeriod: String(14 * 24 * 3600) } }));
  return [name, created.QueueUrl!];
}

/** Creates whatever of the tables and queues is missing (CreateQueue is idempotent for equal attributes). */
export async function provision(
  dynamodb: DynamoDBClient,
  sqs: SQSClient,
  definitions: ResourceDefinitions,
): Promise<ProvisionedQueues> {
  await ensureTable(dynamodb, definitions.objectsTable);
  await ensureTable(dynamodb, definitions.eventsTable);
  const urls = new Map<string, string>();
  for (const queue of allQueues(definitions)) {
    const [name, url] = await ensureQueue(sqs, queue);
    urls.set(name, url);
  }
  urls.set(...(await ensureFailureQueue(sqs, definitions.objectStreamFailuresQueueName)));
  return { urls };
}
