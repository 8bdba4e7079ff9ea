import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { announceClient } from '../adapters/aws-context';
import { localLambdaContext } from './lambda-context';
import { Poller } from './poller';

export type StreamHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<DynamoDBBatchResponse | unknown>;

export type StreamStart = 'TRIM_HORIZON' | 'LATEST';

export interface StreamPollerOptions {
  readonly functionName: string;
  readonly tableName: string;
  readonly batchSize: number;
  readonly timeoutMs: number;
  /** Attempts at a batch that keeps failing before its first failed record is given up (as the stack's retryAttempts + 1). */
  readonly maxAttempts: number;
  /** Where a shard found at the first look is read from; shards found later are read from their oldest record. */
  readonly start: StreamStart;
  readonly onError: (error: unknown) => void;
  /** Told of each record given up on, as the stack's on-failure destination is (the local runtime sends it to the stream-failures queue). */
  readonly onGiveUp: (failure: StreamFailure) => Promise<void>;
}

/**
 * What Lambda sends a stream's on-failure destination for a batch it gave up on (its invocation
 * record, without the response context), here always one record.
 */
export interface StreamFailure {
  readonly requestContext: { readonly functionArn: string; readonly condition: 'RetryAttemptsExhausted'; readonly approximateInvokeCount: number };
  readonly version: '1.0';
  readonly timestamp: string;
  readonly DDBStreamBatchInfo: {
    readonly shardId: string;
    readonly startSequenceNumber: string;
    readonly endSequenceNumber: string;
    readonly batchSize: number;
    readonly streamArn: string;
  };
}

/** Lambda reads each shard about four times a second. */
const IDLE_PAUSE_MS = 250;

/** Shards are looked up again this often: a stream splits its shards over time. */
const SHARD_REFRESH_MS = 60_000;

/** The DynamoDB Streams client of the local event source mapping, shown to the same hooks as the functions' clients. */
export function localStreamsClient(): DynamoDBStreamsClient {
  return announceClient(new DynamoDBStreamsClient({}), 'DynamoDB Streams');
}

interface ShardState {
  /** Where the next read starts; null once the shard is closed and read to its end. */
  iterator: string | null;
  readonly parent: string | undefined;
  /** Failed attempts at the record the iterator starts at. */
  failures: number;
  /** The last record handed on (or skipped at a start from the end). */
  lastSequence: string | undefined;
}

function toRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const data = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? process.env.AWS_REGION ?? 'us-east-1',
    eventSourceARN: streamArn,
    dynamodb: {
      Keys: data.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      SequenceNumber: data.SequenceNumber,
      SizeBytes: data.SizeBytes,
      StreamViewType: data.StreamViewType,
      ...(data.ApproximateCreationDateTime ? { ApproximateCreationDateTime: data.ApproximateCreationDateTime.getTime() / 1000 } : {}),
    },
  };
}

function failedSequenceNumbers(response: unknown): string[] {
  return ((response as DynamoDBBatchResponse | undefined)?.batchItemFailures ?? []).map((failure) => failure.itemIdentifier);
}

/**
 * Does what a Lambda event source mapping does for a DynamoDB stream: reads every shard from its
 * oldest record (children after their parent), invokes the handler with batches in order, and on a
 * failure starts again at the first failed record (partial batch responses) until `maxAttempts`,
 * when it reports the record (`onGiveUp`), as to an on-failure destination, and moves past it.
 * Where it has read to is kept in memory only: a restarted poller reads each shard from `start` again
 * (from its oldest record by default, which policy-change handles idempotently).
 */
export class DynamoStreamPoller extends Poller {
  private streamArn: string | undefined;
  private readonly shards = new Map<string, ShardState>();
  private shardsReadAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly dynamodb: DynamoDBClient,
    private readonly streams: DynamoDBStreamsClient,
    private readonly handler: StreamHandler,
    private readonly options: StreamPollerOptions,
  ) {
    super(options.onError);
  }

  /** One read of every open shard, each batch read handed to the handler; returns how many records were read. */
  override async pollOnce(waitTimeSeconds = IDLE_PAUSE_MS / 1000): Promise<number> {
    await this.refreshShards();
    let read = 0;
    for (const [shardId, shard] of this.shards) {
      if (shard.iterator === null) continue;
      const parent = shard.parent ? this.shards.get(shard.parent) : undefined;
      if (parent && parent.iterator !== null) continue;
      read += await this.readShard(shardId, shard);
    }
    if (read === 0 && waitTimeSeconds > 0) await new Promise((resolve) => setTimeout(resolve, waitTimeSeconds * 1000));
    return read;
  }

  private async readShard(shardId: string, shard: ShardState): Promise<number> {
    const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: shard.iterator!, Limit: this.options.batchSize }));
    const records = page.Records ?? [];
    if (records.length === 0) {
      // moto puts back a copy of the table, stream included, when a transaction fails, which strands the
      // iterators taken before: after an empty read the next one is taken afresh from where this one was.
      shard.iterator = page.NextShardIterator ? await this.iteratorAfter(shardId, shard.lastSequence) : null;
      return 0;
    }
    let failed: string | undefined;
    try {
      const event: DynamoDBStreamEvent = { Records: records.map((record) => toRecord(record, this.streamArn!)) };
      const response = await this.handler(event, localLambdaContext(this.options.functionName, this.options.timeoutMs));
      failed = failedSequenceNumbers(response)[0];
    } catch (error) {
      this.options.onError(error);
      failed = records[0]!.dynamodb?.SequenceNumber;
    }
    if (failed === undefined) {
      shard.iterator = page.NextShardIterator ?? null;
      shard.failures = 0;
      shard.lastSequence = records.at(-1)!.dynamodb?.SequenceNumber;
      return records.length;
    }
    shard.failures = failed === records[0]!.dynamodb?.SequenceNumber ? shard.failures + 1 : 1;
    if (shard.failures >= this.options.maxAttempts) {
      // Reported before it is passed: a report that fails leaves the record to be tried and given up on again.
      await this.options.onGiveUp(this.failure(shardId, failed, shard.failures));
      this.options.onError(new Error(`${this.options.functionName}: gave up on stream record ${failed} of shard ${shardId} after ${shard.failures} attempts`));
      shard.failures = 0;
      shard.lastSequence = failed;
      shard.iterator = await this.iteratorAt(shardId, 'AFTER_SEQUENCE_NUMBER', failed);
    } else {
      shard.iterator = await this.iteratorAt(shardId, 'AT_SEQUENCE_NUMBER', failed);
    }
    return records.length;
  }

  private failure(shardId: string, sequenceNumber: string, attempts: number): StreamFailure {
    const region = this.streamArn!.split(':')[3];
    return {
      requestContext: { functionArn: `arn:aws:lambda:${region}:000000000000:function:${this.options.functionName}`, condition: 'RetryAttemptsExhausted', approximateInvokeCount: attempts },
      version: '1.0',
      timestamp: new Date().toISOString(),
      DDBStreamBatchInfo: { shardId, startSequenceNumber: sequenceNumber, endSequenceNumber: sequenceNumber, batchSize: 1, streamArn: this.streamArn! },
    };
  }

  private async refreshShards(): Promise<void> {
    const now = Date.now();
    if (now - this.shardsReadAt < SHARD_REFRESH_MS && [...this.shards.values()].some((shard) => shard.iterator !== null)) return;
    this.shardsReadAt = now;
    this.streamArn ??= (await this.dynamodb.send(new DescribeTableCommand({ TableName: this.options.tableName }))).Table?.LatestStreamArn;
    if (!this.streamArn) throw new Error(`table ${this.options.tableName} has no stream`);
    const { StreamDescription } = await this.streams.send(new DescribeStreamCommand({ StreamArn: this.streamArn }));
    const firstLook = this.shards.size === 0;
    for (const shard of StreamDescription?.Shards ?? []) {
      if (!shard.ShardId || this.shards.has(shard.ShardId)) continue;
      const lastSequence = firstLook && this.options.start === 'LATEST' ? await this.lastSequenceOf(shard.ShardId) : undefined;
      const iterator = await this.iteratorAfter(shard.ShardId, lastSequence);
      this.shards.set(shard.ShardId, { iterator, parent: shard.ParentShardId, failures: 0, lastSequence });
    }
  }

  /** The shard's last record now, found by reading it to its end (a LATEST iterator would be stranded as above). */
  private async lastSequenceOf(shardId: string): Promise<string | undefined> {
    let last: string | undefined;
    for (let iterator = await this.iteratorAt(shardId, 'TRIM_HORIZON'); iterator; ) {
      const page = await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      const records = page.Records ?? [];
      if (records.length === 0) break;
      last = records.at(-1)!.dynamodb?.SequenceNumber;
      iterator = page.NextShardIterator ?? null;
    }
    return last;
  }

  /** An iterator from the record after `sequenceNumber`, or from the oldest record. */
  private iteratorAfter(shardId: string, sequenceNumber: string | undefined): Promise<string | null> {
    return sequenceNumber === undefined ? this.iteratorAt(shardId, 'TRIM_HORIZON') : this.iteratorAt(shardId, 'AFTER_SEQUENCE_NUMBER', sequenceNumber);
  }

  private async iteratorAt(shardId: string, type: 'TRIM_HORIZON' | 'AT_SEQUENCE_NUMBER' | 'AFTER_SEQUENCE_NUMBER', sequenceNumber?: string): Promise<string | null> {
    const { ShardIterator } = await this.streams.send(
      new GetShardIteratorCommand({ StreamArn: this.streamArn, ShardId: shardId, ShardIteratorType: type, SequenceNumber: sequenceNumber }),
    );
    return ShardIterator ?? null;
  }
}
