import { PutCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { InvolvedObject, KubeEvent } from '../../lib/api/event';
import type { Clock } from '../../lib/ports/clock';
import { kubeEvent, type EventLog, type EventRecord } from '../../lib/ports/event-log';

/** Events expire after this long, as a Kubernetes API server's event TTL (one hour by default). */
const EVENT_TTL_SECONDS = 60 * 60;

function partitionKey(object: InvolvedObject): string {
  return `${object.kind}/${object.namespace ?? ''}/${object.name}`;
}

/** EventLog on a DynamoDB table keyed by the involved object, time-ordered, expiring by TTL. */
export class DynamoDbEventLog implements EventLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  async record(event: EventRecord): Promise<void> {
    const now = this.clock.now();
    const time = new Date(now).toISOString();
    const suffix = randomBytes(4).toString('hex');
    const stored = kubeEvent(event, `${event.object.name}.${now.toString(16)}${suffix}`, time);
    await this.client.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          pk: partitionKey(event.object),
          sk: `${time}#${suffix}`,
          expiresAt: Math.floor(now / 1000) + EVENT_TTL_SECONDS,
          event: JSON.stringify(stored),
        },
      }),
    );
  }

  async list(object?: InvolvedObject): Promise<KubeEvent[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = object
        ? await this.client.send(
            new QueryCommand({
              TableName: this.tableName,
              KeyConditionExpression: 'pk = :pk',
              ExpressionAttributeValues: { ':pk': partitionKey(object) },
              ExclusiveStartKey: startKey,
            }),
          )
        : await this.client.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey }));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    const now = Math.floor(this.clock.now() / 1000);
    return items
      .filter((item) => Number(item.expiresAt) > now)
      .sort((a, b) => String(a.sk).localeCompare(String(b.sk)))
      .map((item) => JSON.parse(String(item.event)) as KubeEvent);
  }
}
