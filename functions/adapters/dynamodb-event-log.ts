import { BatchWriteCommand, QueryCommand, ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import type { InvolvedObject, KubeEvent } from '../../lib/api/event';
import type { Clock } from '../../lib/ports/clock';
import { EventPositionError, INDEXED_REASONS, isSelected, kubeEvent, type EventFeedPage, type EventLog, type EventPage, type EventRecord, type EventSelection } from '../../lib/ports/event-log';
import { randomUids } from '../../lib/ports/uids';
import { EVENTS_BY_REASON_INDEX, EVENTS_BY_WRITE_TIME_INDEX } from './definitions';
import { currentOutbox, type HoldingTable } from './outbox';

/** Events expire after this long, as a Kubernetes API server's event TTL (one hour by default). */
const EVENT_TTL_SECONDS = 60 * 60;

function partitionKey(object: InvolvedObject): string {
  return `${object.kind}/${object.namespace ?? ''}/${object.name}`;
}

/** The table key a position of listPage names. */
function positionKey(position: string): { pk: string; sk: string } {
  try {
    const { pk, sk } = JSON.parse(position) as { pk?: unknown; sk?: unknown };
    if (typeof pk === 'string' && typeof sk === 'string' && pk.length > 0 && sk.length > 0) return { pk, sk };
  } catch {
    // falls through to the refusal
  }
  throw new EventPositionError(`not a position of this event log: ${position.slice(0, 100)}`);
}

/**
 * How far back a read of the feed looks before the version it reads after: an event's version is taken
 * as its batch is sent, so one can become readable after a read that started later than its version.
 */
const FEED_OVERLAP_MS = 5_000;

/** The partitions of each minute of the feed index (EVENTS_BY_WRITE_TIME_INDEX). */
const EVENT_FEED_SHARDS = 4;

const TIME_DIGITS = 9;

/** An event version: the time it was written in fixed-width base 36, then its sort key's twelve hex digits (sequence and random). */
function eventVersion(ms: number, uniqueHex: string): string {
  return `${ms.toString(36).padStart(TIME_DIGITS, '0')}${uniqueHex}`;
}

const EVENT_VERSION = /^[0-9a-z]{9}[0-9a-f]{12}$/;

/** The feed index's partition of a minute and shard. */
function writeMinute(ms: number, shard: number): string {
  return `${new Date(ms).toISOString().slice(0, 16)}#${shard}`;
}

/** DynamoDB's limit on the writes of one BatchWriteItem. */
const MAX_BATCH_WRITE_ITEMS = 25;

type EventItem = {
  readonly pk: string;
  readonly sk: string;
  readonly expiresAt: number;
  readonly event: string;
  /** The event's reason when it is indexed (INDEXED_REASONS): the key of EVENTS_BY_REASON_INDEX. */
  readonly indexedReason?: string;
  /** The event's version, set as it is written: the sort key of EVENTS_BY_WRITE_TIME_INDEX. */
  readonly written?: string;
  /** The minute it was written and its shard: the partition key of EVENTS_BY_WRITE_TIME_INDEX. */
  readonly writeMinute?: string;
};

type BatchWriteRequest = { PutRequest: { Item: Record<string, unknown> } };

/** EventLog on a DynamoDB table keyed by the involved object, time-ordered, expiring by TTL. */
export class DynamoDbEventLog implements EventLog, HoldingTable<EventItem> {
  private recorded = 0;

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
    const stored = kubeEvent(event, `${event.object.name}.${now.toString(16)}${suffix}`, time, randomUids.next());
    // Events this writer records within one millisecond keep their order; the suffix keeps writers apart.
    const sequence = (this.recorded++ % 0x10000).toString(16).padStart(4, '0');
    const item: EventItem = {
      pk: partitionKey(event.object),
      sk: `${time}#${sequence}${suffix}`,
      expiresAt: Math.floor(now / 1000) + EVENT_TTL_SECONDS,
      event: JSON.stringify(stored),
      ...(INDEXED_REASONS.has(event.reason) ? { indexedReason: event.reason } : {}),
    };
    const outbox = currentOutbox();
    if (outbox) outbox.holdWrites(this, [item]);
    else await this.writeHeld([item]);
  }

  /**
   * Each event gets its version as its batch is written, not when it was recorded (an outbox holds
   * events until its invocation's end): the feed then needs to look back only as far as a write takes.
   */
  async writeHeld(items: readonly EventItem[]): Promise<void> {
    for (let start = 0; start < items.length; start += MAX_BATCH_WRITE_ITEMS) {
      const now = this.clock.now();
      const batch = items.slice(start, start + MAX_BATCH_WRITE_ITEMS).map((item) => {
        const unique = item.sk.slice(-12);
        return { ...item, written: eventVersion(now, unique), writeMinute: writeMinute(now, Number.parseInt(unique.slice(-2), 16) % EVENT_FEED_SHARDS) };
      });
      let pending: BatchWriteRequest[] = batch.map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 1; pending.length > 0; attempt += 1) {
        // Items left unprocessed were throttled (the table or its index): give them a moment, as the SDK's own retries do.
        if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** (attempt - 2), 1_000)));
        const result = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: pending } }));
        pending = (result.UnprocessedItems?.[this.tableName] ?? []) as BatchWriteRequest[];
      }
    }
  }

  /**
   * One object's events: a Query of its partition. An indexed reason's: a Query of the index. Else a
   * Scan of the table, filtered here. The Queries read from an hour ago on (the sort key starts with the
   * time), since DynamoDB may keep expired items for days before removing them.
   */
  async list(selection?: EventSelection): Promise<KubeEvent[]> {
    const items: Record<string, unknown>[] = [];
    const since = new Date(this.clock.now() - EVENT_TTL_SECONDS * 1000).toISOString();
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.client.send(this.readCommand(selection, since, startKey));
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    const sorted = items.sort((a, b) => String(a.sk).localeCompare(String(b.sk)));
    return this.unexpired(sorted).filter((event) => isSelected(event, selection));
  }

  /**
   * Scans from the position (the key of the last item read) for no more than the page lacks, again while
   * expired items (left by DynamoDB's late removal) leave it short; the next page starts after the last
   * item read. Scan order is the table's, not time.
   */
  async listPage(limit: number, from?: string): Promise<EventPage> {
    const events: KubeEvent[] = [];
    let startKey: Record<string, unknown> | undefined = from === undefined ? undefined : positionKey(from);
    do {
      const result = await this.client.send(new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey, Limit: limit - events.length }));
      events.push(...this.unexpired(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey && events.length < limit);
    return { events, ...(startKey ? { next: JSON.stringify({ pk: startKey.pk, sk: startKey.sk }) } : {}) };
  }

  /** The events of the items read that have not expired (DynamoDB removes expired items days late), with their versions. */
  private unexpired(items: readonly Record<string, unknown>[]): KubeEvent[] {
    const now = Math.floor(this.clock.now() / 1000);
    return items.filter((item) => Number(item.expiresAt) > now).map((item) => {
      const event = JSON.parse(String(item.event)) as KubeEvent;
      return typeof item.written === 'string' ? { ...event, metadata: { ...event.metadata, resourceVersion: item.written } } : event;
    });
  }

  /**
   * Now, as a version: every event written after the call is later, and a list read after it holds
   * every event before it, so a watch from the list's version sends none of them again. (A batch
   * whose write is in flight as the call is made may be older, and be in neither.)
   */
  currentVersion(): string {
    return eventVersion(this.clock.now(), '0'.repeat(12));
  }

  /**
   * The feed index's partitions of each minute from the version (less the overlap) to now, read from
   * that time on: a read costs the events written since, one Query per shard for each minute it spans
   * (four, or eight across a minute's end, for a watch reading every second). Events last an hour.
   */
  async recordedAfter(version: string): Promise<EventFeedPage | undefined> {
    if (!EVENT_VERSION.test(version)) return undefined;
    const now = this.clock.now();
    const from = Number.parseInt(version.slice(0, TIME_DIGITS), 36) - FEED_OVERLAP_MS;
    if (from < now - EVENT_TTL_SECONDS * 1000) return undefined;
    // Where the next read goes on from: now less the overlap, so that a batch in flight now is read then.
    const next = eventVersion(now - FEED_OVERLAP_MS, '0'.repeat(12));
    const partitions: string[] = [];
    for (let minute = Math.floor(from / 60_000) * 60_000; minute <= now; minute += 60_000) {
      for (let shard = 0; shard < EVENT_FEED_SHARDS; shard++) partitions.push(writeMinute(minute, shard));
    }
    const items = (await Promise.all(partitions.map((partition) => this.writtenSince(partition, eventVersion(from, ''))))).flat();
    items.sort((a, b) => (String(a.written) < String(b.written) ? -1 : 1));
    return { events: this.unexpired(items), version: next };
  }

  private async writtenSince(partition: string, since: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: EVENTS_BY_WRITE_TIME_INDEX.name,
          KeyConditionExpression: '#minute = :minute AND #written >= :since',
          ExpressionAttributeNames: { '#minute': EVENTS_BY_WRITE_TIME_INDEX.partitionKey, '#written': EVENTS_BY_WRITE_TIME_INDEX.sortKey },
          ExpressionAttributeValues: { ':minute': partition, ':since': since },
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(result.Items ?? []));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return items;
  }

  /** The request for one page of `selection`'s events recorded at `since` or later (by sort key). */
  private readCommand(selection: EventSelection | undefined, since: string, startKey: Record<string, unknown> | undefined): QueryCommand | ScanCommand {
    if (selection !== undefined && 'object' in selection) {
      return new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND sk >= :since',
        ExpressionAttributeValues: { ':pk': partitionKey(selection.object), ':since': since },
        ExclusiveStartKey: startKey,
      });
    }
    if (selection !== undefined && INDEXED_REASONS.has(selection.reason)) {
      return new QueryCommand({
        TableName: this.tableName,
        IndexName: EVENTS_BY_REASON_INDEX.name,
        KeyConditionExpression: '#reason = :reason AND sk >= :since',
        ExpressionAttributeNames: { '#reason': EVENTS_BY_REASON_INDEX.partitionKey },
        ExpressionAttributeValues: { ':reason': selection.reason, ':since': since },
        ExclusiveStartKey: startKey,
      });
    }
    return new ScanCommand({ TableName: this.tableName, ExclusiveStartKey: startKey });
  }
}
