import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { localLambdaContext } from './lambda-context';
import { Poller } from './poller';

export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | unknown>;

export interface PollerOptions {
  readonly functionName: string;
  readonly queueUrl: string;
  readonly queueArn: string;
  readonly batchSize: number;
  readonly timeoutMs: number;
  readonly onError: (error: unknown) => void;
}

function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  return {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'local',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      ...(attributes.MessageGroupId ? { MessageGroupId: attributes.MessageGroupId } : {}),
      ...(attributes.MessageDeduplicationId ? { MessageDeduplicationId: attributes.MessageDeduplicationId } : {}),
      ...(attributes.SequenceNumber ? { SequenceNumber: attributes.SequenceNumber } : {}),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: process.env.AWS_REGION ?? 'us-east-1',
  };
}

function failedIds(response: unknown): Set<string> {
  const failures = (response as SQSBatchResponse | undefined)?.batchItemFailures ?? [];
  return new Set(failures.map((failure) => failure.itemIdentifier));
}

/**
 * Does what a Lambda event source mapping does for an SQS queue: long-polls, invokes the handler with
 * the batch, deletes what succeeded and leaves failures to come back after their visibility timeout.
 */
export class SqsPoller extends Poller {

  constructor(
    private readonly sqs: SQSClient,
    private readonly handler: SqsHandler,
    private readonly options: PollerOptions,
  ) {
    super(options.onError);
  }

  /** One receive-invoke-delete round; returns how many messages it handled. */
  override async pollOnce(waitTimeSeconds = 1): Promise<number> {
    const received = await this.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.options.queueUrl,
        MaxNumberOfMessages: this.options.batchSize,
        WaitTimeSeconds: waitTimeSeconds,
        MessageSystemAttributeNames: ['All'],
      }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return 0;
    const event: SQSEvent = { Records: messages.map((message) => toRecord(message, this.options.queueArn)) };
    let failed: Set<string>;
    try {
      failed = failedIds(await this.handler(event, localLambdaContext(this.options.functionName, this.options.timeoutMs)));
    } catch (error) {
      this.options.onError(error);
      return messages.length;
    }
    const done = messages.filter((message) => !failed.has(message.MessageId ?? ''));
    if (done.length > 0) {
      await this.sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.options.queueUrl,
          Entries: done.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle ?? '' })),
        }),
      );
    }
    return messages.length;
  }
}
