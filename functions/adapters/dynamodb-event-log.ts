import { BatchWriteCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { InvolvedObject, KubeEvent } from '../../lib/api/event';
import type { Clock } from '../../lib/ports/clock';
import { kubeEvent, type EventLog, type EventRecord } from '../../lib/ports/event-log';
import { currentOutbox, type HoldingTable } from './outbox';

/** Events expire after this long, as a Kubernetes API server's event TTL (one hour by default). */
const EVENT_TTL_SECONDS = 60 * 60;

function partitionKey(object: InvolvedObject): string {
  return `${object.kind}/${object.namespace ?? ''}/${object.name}`;
}

/** DynamoDB's limit on the writes of one BatchWriteItem. */
const MAX_BATCH_WRITE_ITEMS = 25;

type EventItem = {
  readonly pk: string;
  readonly sk: string;
  readonly expiresAt: number;
  readonly event: string;
};

type BatchWriteRequest = { PutRequest: { Item: Record<string, unknown> } };

/** EventLog on a DynamoDB table keyed by the involved object, time-ordered, expiring by TTL. */
export class DynamoDbEventLog implements EventLog, HoldingTable<EventItem> {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  /**
   * In an invocation with an outbox, the event is written when the outbox is released, with the others
   * of its batch, twenty-five to a request. Events are a record of what happened, not state anything
   * is decided on: one recorded by an invocation that dies before its release is lost, as a Kubernetes
   * event can be.
   */
  async record(event: EventRecord): Promise<void> {
    const now = this.clock.now();
    const time = new Date(now).toISOString();
    const suffix = randomBytes(4).toString('hex');
    const stored = kubeEvent(event, `${event.object.name}.${now.toString(16)}${suffix}`, time);
    const item: EventItem = {
      pk: partitionKey(event.object),
      sk: `${time}#${suffix}`,
      expiresAt: Math.floor(now / 1000) + EVENT_TTL_SECONDS,
      event: JSON.stringify(stored),
    };
    const outbox = currentOutbox();
    if (outbox) outbox.holdWrites(this, [item]);
    else await this.writeHeld([item]);
  }

  async writeHeld(items: readonly EventItem[]): Promise<void> {
    for (let start = 0; start < items.length; start += MAX_BATCH_WRITE_ITEMS) {
      let pending: BatchWriteRequest[] = items.slice(start, start + MAX_BATCH_WRITE_ITEMS).map((Item) => ({ PutRequest: { Item } }));
      while (pending.length > 0) {
        const result = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
        pending = (result.UnprocessedItems?.[this.tableName] ?? []) as BatchWriteRequest[];
      }
    }
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
