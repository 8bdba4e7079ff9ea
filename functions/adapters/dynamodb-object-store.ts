import { TransactionCanceledException, ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { refKey, refOf, storageKey, type ObjectRef } from '../../lib/api/kinds';
import { ConflictError, refOfWrite, StoreTimeoutError, type AddWrite, UnavailableError, withoutResourceVersion, type ChangePage, type ObjectPage, type ObjectStore, type PageRequest, type StoredChange, type StoredObject, type Write } from '../../lib/ports/object-store';
import { CHANGE_FEED_INDEX } from './definitions';

/** DynamoDB allows at most this many items in one TransactWriteItems. */
const MAX_TRANSACTION_ITEMS = 100;

/** The partition of a kind: `<kind>.<group>` (a kind has no dot; a group may have several). */
export function partitionKey(group: string, kind: string): string {
  return `${kind}.${group}`;
}

function keyOf(ref: ObjectRef) {
  return { pk: partitionKey(ref.group, ref.kind), sk: storageKey(ref.namespace, ref.name) };
}

/** DynamoDB reads at most this many items in one BatchGetItem. */
const MAX_BATCH_GET_ITEMS = 100;

/**
 * How far back a read of the change feed looks before the previous read started: a write takes its
 * version from its writer's clock before it commits, so a commit can become visible after a read that
 * started later than its version says. Covers commit latency, SDK retries and clock differences.
 */
const FEED_OVERLAP_MS = 5_000;

/** How long a deletion marker stays in the change feed; a reader that was away longer lists afresh. */
const DELETION_MARKER_TTL_SECONDS = 24 * 3600;

/** Deletion markers sort after every object of their kind (namespaces and names never start with it). */
const DELETION_MARKER_PREFIX = '~';

const TIME_DIGITS = 9;
const RANDOM_HEX_DIGITS = 12;

function timePrefix(ms: number): string {
  return ms.toString(36).padStart(TIME_DIGITS, '0');
}

/**
 * A fresh resourceVersion: the write's time in fixed-width base 36, then random digits. Unique rather
 * than a counter, so that an object deleted and created again never matches a version of its earlier
 * life; and later than the version it replaces even when the clock of this writer is behind that of
 * the previous one, so that versions order the changes of an object (the change feed's revisions).
 */
function newVersion(previous: string | null): string {
  const previousMs = previous === null ? Number.NaN : Number.parseInt(previous.slice(0, -RANDOM_HEX_DIGITS), 36);
  const ms = Number.isNaN(previousMs) ? Date.now() : Math.max(Date.now(), previousMs + 1);
  return `${timePrefix(ms)}${randomBytes(RANDOM_HEX_DIGITS / 2).toString('hex')}`;
}

interface Item {
  readonly pk: string;
  readonly sk: string;
  readonly version: string;
  readonly object: string;
  /** For an object moved by adds: the spec field its counters are, each a number attribute COUNTER_PREFIX<name>. */
  readonly counted?: string;
  /** The version that created the object; absent on items written before it was kept. */
  readonly created?: string;
}

/** An object as an item holds it: JSON, without its resourceVersion (the item's `version`). */
function objectJson(object: StoredObject): string {
  return JSON.stringify({ ...object, metadata: withoutResourceVersion(object.metadata) });
}

/** Counters are top-level attributes, as DynamoDB's ADD moves only those; the prefix keeps them apart from the item's own. */
const COUNTER_PREFIX = '+';

function fromItem<T extends StoredObject>(item: Record<string, unknown>): T {
  const { object, version, counted } = item as unknown as Item;
  const parsed = JSON.parse(object) as T & { spec?: Record<string, unknown> };
  const metadata = { ...parsed.metadata, resourceVersion: version };
  if (counted === undefined) return { ...parsed, metadata };
  const counters = Object.entries(item).flatMap(([attribute, amount]) =>
    attribute.startsWith(COUNTER_PREFIX) && amount !== 0 ? [[attribute.slice(COUNTER_PREFIX.length), amount as number] as const] : [],
  );
  return { ...parsed, metadata, spec: { ...parsed.spec, [counted]: Object.fromEntries(counters) } };
}

/**
 * An add as one Update: the counters moved by ADD, a new version set, the object written only when the
 * item is new. Its condition: each limited counter no more than its limit less the amount (a counter not
 * there yet counts as zero); the version it replaces older than the new one, so that versions keep
 * ordering the object's changes without being read first (two adds in one millisecond, or from a writer
 * whose clock is behind the last one's, conflict until the clock has moved on); and the item new or
 * made by adds, since one written whole by a put keeps its amounts in its JSON, where no add can count
 * them (an add conflicts there rather than count from zero).
 */
function addUpdate(write: AddWrite, version: string) {
  const names: Record<string, string> = { '#version': 'version', '#object': 'object', '#counted': 'counted' };
  const values: Record<string, unknown> = { ':version': version, ':object': objectJson(write.object), ':field': write.field };
  const adds: string[] = [];
  const conditions = ['(attribute_not_exists(#version) OR #version < :version)', '(attribute_not_exists(#object) OR attribute_exists(#counted))'];
  const counters = [...new Set([...Object.keys(write.amounts), ...Object.keys(write.limits)])];
  for (const [index, counter] of counters.entries()) {
    const amount = write.amounts[counter] ?? 0;
    const limit = write.limits[counter];
    // DynamoDB refuses a name the expressions do not use.
    if (amount === 0 && limit === undefined) continue;
    names[`#c${index}`] = `${COUNTER_PREFIX}${counter}`;
    if (amount !== 0) {
      values[`:a${index}`] = amount;
      adds.push(`#c${index} :a${index}`);
    }
    if (limit === undefined) continue;
    values[`:m${index}`] = limit - amount;
    // Below zero even a missing counter (zero) would pass the limit: then the counter must be there.
    conditions.push(limit - amount < 0 ? `#c${index} <= :m${index}` : `(attribute_not_exists(#c${index}) OR #c${index} <= :m${index})`);
  }
  names['#created'] = 'created';
  return {
    UpdateExpression: `SET #version = :version, #object = if_not_exists(#object, :object), #created = if_not_exists(#created, :version), #counted = :field${adds.length > 0 ? ` ADD ${adds.join(', ')}` : ''}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** An object's item as a change of the feed: the object as it is now, and the version that created it. */
function changeOf<T extends StoredObject>(item: Record<string, unknown>): StoredChange<T> {
  const object = fromItem<T>(item);
  const created = (item as unknown as Item).created;
  return { ref: refOf(object), object, revision: object.metadata.resourceVersion ?? '', ...(created === undefined ? {} : { createdRevision: created }) };
}

function refOfSortKey(group: string, kind: string, sk: string): ObjectRef {
  const slash = sk.indexOf('/');
  return { group, kind, namespace: sk.slice(0, slash), name: sk.slice(slash + 1) };
}

/** The object an item of the table is, by the item's keys; undefined for a deletion marker. */
export function refOfItemKeys(pk: string, sk: string): ObjectRef | undefined {
  if (sk.startsWith(DELETION_MARKER_PREFIX)) return undefined;
  const dot = pk.indexOf('.');
  return refOfSortKey(pk.slice(dot + 1), pk.slice(0, dot), sk);
}

/** DynamoDB's answers to a request over the table's capacity or the account's limits, once the SDK's own retries are spent. */
const THROTTLING_ERRORS = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded']);

/** The SDK's names and Node.js's codes for a request that got no answer (as the SDK's own retry rules classify them). */
const NO_ANSWER_ERRORS = new Set(['TimeoutError', 'RequestTimeout', 'RequestTimeoutException', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

function gotNoAnswer(error: Error): boolean {
  return NO_ANSWER_ERRORS.has(error.name) || NO_ANSWER_ERRORS.has((error as { code?: unknown }).code as string);
}

/**
 * The request's answer; UnavailableError when DynamoDB throttled it (nothing was written);
 * StoreTimeoutError when it did not answer, once the SDK's retries are spent.
 */
async function orUnavailable<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof Error && THROTTLING_ERRORS.has(error.name)) throw new UnavailableError(`the object store is throttling requests: ${error.message}`);
    if (error instanceof Error && gotNoAnswer(error)) throw new StoreTimeoutError(`the object store did not answer: ${error.message}`);
    throw error;
  }
}

/**
 * A put that replaces an object as one Update: its JSON and version set, its `created` kept (a Put
 * would drop it), on the condition that the version is the one the writer read.
 */
function replacement(object: StoredObject, version: string, expectedVersion: string) {
  return {
    Key: keyOf(refOf(object)),
    UpdateExpression: 'SET #object = :object, #version = :version REMOVE #counted',
    ConditionExpression: '#version = :expected',
    ExpressionAttributeNames: { '#object': 'object', '#version': 'version', '#counted': 'counted' },
    ExpressionAttributeValues: { ':object': objectJson(object), ':version': version, ':expected': expectedVersion },
  };
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
 * Every put, delete and check is conditional on the version read, every add on its limits; several
 * writes go in one TransactWriteItems, so a preemption commits the preemptor, its victims and the
 * cluster allocations together or not at all.
 *
 * The change feed is the table's local secondary index by version (keys only, consistent reads): a
 * kind's changes since a time are one Query of its partition from that time on, and the objects the
 * reader does not hold yet one BatchGetItem per hundred. A delete leaves a deletion marker in the same
 * transaction (sort key `~<namespace>/<name>`, expiring after a day) so that readers learn of it, with
 * the object as it was deleted when the writer gave it (`last`): the feed reads the markers of the
 * deletions it reports (one BatchGetItem per hundred), so that a watch's DELETED carries the last state.
 */
export class DynamoDbObjectStore implements ObjectStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async get<T extends StoredObject>(ref: ObjectRef): Promise<T | undefined> {
    const result = await orUnavailable(this.client.send(new GetCommand({ TableName: this.tableName, Key: keyOf(ref), ConsistentRead: true })));
    return result.Item ? fromItem<T>(result.Item) : undefined;
  }

  async getMany<T extends StoredObject>(refs: readonly ObjectRef[]): Promise<Array<T | undefined>> {
    const found = new Map((await this.itemsAt(refs.map(keyOf))).map((item) => fromItem<T>(item)).map((object) => [refKey(refOf(object)), object]));
    return refs.map((ref) => found.get(refKey(ref)));
  }

  async list<T extends StoredObject>(group: string, kind: string, namespace?: string): Promise<T[]> {
    const objects: T[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await this.queryKind(group, kind, namespace, startKey);
      for (const item of result.Items ?? []) objects.push(fromItem<T>(item));
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return objects;
  }

  /**
   * Queries from the key after which the page starts, for one item more than the page holds (so that
   * it knows whether more follow), continuing only where a response stopped at its 1 MB.
   */
  async listPage<T extends StoredObject>(group: string, kind: string, page: PageRequest, namespace?: string): Promise<ObjectPage<T>> {
    const objects: T[] = [];
    let startKey: Record<string, unknown> | undefined = page.after && keyOf({ group, kind, namespace: page.after[0], name: page.after[1] });
    do {
      const result = await this.queryKind(group, kind, namespace, startKey, page.limit + 1 - objects.length);
      for (const item of result.Items ?? []) objects.push(fromItem<T>(item));
      startKey = result.LastEvaluatedKey;
    } while (startKey && objects.length <= page.limit);
    return { items: objects.slice(0, page.limit), more: objects.length > page.limit };
  }

  /** One Query of a kind's objects (of a namespace), deletion markers left out, from a key on. */
  private queryKind(group: string, kind: string, namespace: string | undefined, startKey: Record<string, unknown> | undefined, limit?: number) {
    return orUnavailable(this.client.send(
      new QueryCommand({
        TableName: this.tableName,
        KeyConditionExpression: namespace === undefined ? 'pk = :pk AND sk < :markers' : 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': partitionKey(group, kind),
          ...(namespace === undefined ? { ':markers': DELETION_MARKER_PREFIX } : { ':prefix': `${namespace}/` }),
        },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
        Limit: limit,
      }),
    ));
  }

  async changes<T extends StoredObject>(group: string, kind: string, cursor?: string): Promise<ChangePage<T>> {
    const startedAt = Date.now();
    if (cursor === undefined) {
      const changes: StoredChange<T>[] = [];
      let startKey: Record<string, unknown> | undefined;
      do {
        const result = await this.queryKind(group, kind, undefined, startKey);
        for (const item of result.Items ?? []) changes.push(changeOf<T>(item));
        startKey = result.LastEvaluatedKey;
      } while (startKey);
      return { changes, cursor: String(startedAt) };
    }
    const changed = await this.changedKeys(group, kind, timePrefix(Number(cursor) - FEED_OVERLAP_MS));
    const deleted = changed.filter((key) => key.sk.startsWith(DELETION_MARKER_PREFIX));
    const written = changed.filter((key) => !key.sk.startsWith(DELETION_MARKER_PREFIX));
    // A deletion marker holds the object as it was deleted, when its writer gave it.
    const markers = new Map((await this.itemsAt(deleted.map(({ pk, sk }) => ({ pk, sk })))).map((marker) => [String(marker.sk), marker]));
    const changes: StoredChange<T>[] = deleted.map((key) => {
      const marker = markers.get(key.sk);
      const last = marker?.version === key.version && typeof marker.object === 'string' ? fromItem<T>(marker) : undefined;
      return { ref: refOfSortKey(group, kind, key.sk.slice(DELETION_MARKER_PREFIX.length)), object: undefined, ...(last ? { last } : {}), revision: key.version };
    });
    // What was written since may have been written again or deleted: the items as they are now.
    for (const item of await this.itemsAt(written.map(({ pk, sk }) => ({ pk, sk })))) changes.push(changeOf<T>(item));
    return { changes, cursor: String(startedAt) };
  }

  /**
   * A version's first digits are its write time, and the feed's cursor is a time: the feed read from
   * there (less its overlap) holds every change committed after the version. Deletion markers last a
   * day, so an older version is too old.
   */
  cursorAt(resourceVersion: string): string | undefined {
    if (!/^[0-9a-z]{9}[0-9a-f]{12}$/.test(resourceVersion)) return undefined;
    const ms = Number.parseInt(resourceVersion.slice(0, TIME_DIGITS), 36);
    return ms < Date.now() - DELETION_MARKER_TTL_SECONDS * 1000 ? undefined : String(ms);
  }

  /**
   * The cursor's time less the feed's overlap, as a version: a write still in flight when the read at
   * the cursor began took its version before that time, and at most the overlap before it.
   */
  versionAt(cursor: string): string {
    return `${timePrefix(Number(cursor) - FEED_OVERLAP_MS)}${'0'.repeat(RANDOM_HEX_DIGITS)}`;
  }

  /**
   * Now, as a version: no later than any change committed after the call, and not earlier than any
   * committed before it, so that a list read after it holds every write it is later than.
   */
  currentVersion(): string {
    return `${timePrefix(Date.now())}${'0'.repeat(RANDOM_HEX_DIGITS)}`;
  }

  async transact(writes: readonly Write[]): Promise<Array<StoredObject | undefined>> {
    const markers = writes.filter((write) => write.op === 'delete').length;
    if (writes.length + markers > MAX_TRANSACTION_ITEMS) {
      throw new Error(`a transaction holds at most ${MAX_TRANSACTION_ITEMS} items, got ${writes.length} writes and ${markers} deletion markers`);
    }
    const refs = writes.map(refOfWrite);
    const versions = writes.map((write) => (write.op === 'check' ? undefined : newVersion(write.op === 'add' ? null : write.expectedVersion)));
    try {
      if (writes.length === 1 && writes[0]!.op === 'put') await this.putOne(writes[0]!, versions[0]!);
      else await this.writeAll(writes, versions);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) throw new ConflictError(refs);
      if (error instanceof TransactionCanceledException) {
        const reasons = error.CancellationReasons ?? [];
        if (reasons.some((reason) => reason.Code === 'ThrottlingError')) throw new UnavailableError('the object store is throttling requests: a transaction was cancelled');
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

  /** A created object's item: created at its first version. */
  private item(object: StoredObject, version: string): Item {
    return { ...keyOf(refOf(object)), version, object: objectJson(object), created: version };
  }

  /** The deletion marker of a delete: the deletion's version, and the object as it was deleted when the writer gave it. */
  private deletionMarker(write: Extract<Write, { op: 'delete' }>, version: string) {
    const { pk, sk } = keyOf(write.ref);
    const last = write.last ? { object: objectJson(write.last) } : {};
    return { pk, sk: `${DELETION_MARKER_PREFIX}${sk}`, version, expiresAt: Math.floor(Date.now() / 1000) + DELETION_MARKER_TTL_SECONDS, ...last };
  }

  /**
   * One put, safe to retry: when the SDK sends it again because the first answer was lost, the
   * condition fails on what the first attempt wrote; an item holding this write's version (which has
   * random digits of its own) is that write, so it has succeeded rather than conflicted.
   */
  private async putOne(write: Extract<Write, { op: 'put' }>, version: string): Promise<void> {
    try {
      if (write.expectedVersion === null) {
        await orUnavailable(this.client.send(new PutCommand({ TableName: this.tableName, Item: this.item(write.object, version), ...condition(null), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      } else {
        await orUnavailable(this.client.send(new UpdateCommand({ TableName: this.tableName, ...replacement(write.object, version, write.expectedVersion), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })));
      }
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException && (error.Item?.version as { S?: string } | undefined)?.S === version) return;
      throw error;
    }
  }

  /** The writes in one transaction; a delete and its deletion marker count as two items, the marker last. */
  private async writeAll(writes: readonly Write[], versions: ReadonlyArray<string | undefined>): Promise<void> {
    const items = writes.map((write, index) => {
      if (write.op === 'put') {
        return write.expectedVersion === null
          ? { Put: { TableName: this.tableName, Item: this.item(write.object, versions[index]!), ...condition(null) } }
          : { Update: { TableName: this.tableName, ...replacement(write.object, versions[index]!, write.expectedVersion) } };
      }
      if (write.op === 'add') {
        return { Update: { TableName: this.tableName, Key: keyOf(refOf(write.object)), ...addUpdate(write, versions[index]!) } };
      }
      if (write.op === 'delete') {
        return { Delete: { TableName: this.tableName, Key: keyOf(write.ref), ...condition(write.expectedVersion) } };
      }
      return { ConditionCheck: { TableName: this.tableName, Key: keyOf(write.ref), ...condition(write.expectedVersion) } };
    });
    const markers = writes.flatMap((write, index) =>
      write.op === 'delete' ? [{ Put: { TableName: this.tableName, Item: this.deletionMarker(write, versions[index]!) } }] : [],
    );
    await orUnavailable(this.client.send(new TransactWriteCommand({ TransactItems: [...items, ...markers] })));
  }

  /** Keys (and versions) of a kind's items written at or after `since` (a version prefix), deletion markers included. */
  private async changedKeys(group: string, kind: string, since: string): Promise<Array<{ pk: string; sk: string; version: string }>> {
    const keys: Array<{ pk: string; sk: string; version: string }> = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const result = await orUnavailable(this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: CHANGE_FEED_INDEX.name,
          KeyConditionExpression: 'pk = :pk AND #version >= :since',
          ExpressionAttributeNames: { '#version': CHANGE_FEED_INDEX.sortKey },
          ExpressionAttributeValues: { ':pk': partitionKey(group, kind), ':since': since },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      ));
      for (const item of result.Items ?? []) keys.push(item as { pk: string; sk: string; version: string });
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return keys;
  }

  /** The items at these keys that exist, read consistently, a hundred per request. */
  private async itemsAt(keys: ReadonlyArray<{ pk: string; sk: string }>): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    for (let start = 0; start < keys.length; start += MAX_BATCH_GET_ITEMS) {
      let pending: Array<Record<string, unknown>> = keys.slice(start, start + MAX_BATCH_GET_ITEMS);
      while (pending.length > 0) {
        const result = await orUnavailable(this.client.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: pending, ConsistentRead: true } } }),
        ));
        items.push(...(result.Responses?.[this.tableName] ?? []));
        pending = result.UnprocessedKeys?.[this.tableName]?.Keys ?? [];
      }
    }
    return items;
  }
}
