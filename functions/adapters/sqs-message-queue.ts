import {
  ChangeMessageVisibilityBatchCommand,
  ChangeMessageVisibilityCommand,
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  GetQueueUrlCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { createHash } from 'node:crypto';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../../lib/ports/message-queue';
import { currentOutbox, type HoldingQueue } from './outbox';

/** SQS takes at most ten messages per batch call. */
const BATCH = 10;
/** What SQS takes as a group or deduplication id: 1 to 128 alphanumerics and punctuation (printable ASCII but space). */
const SQS_ID = /^[\x21-\x7e]{1,128}$/;

/** The id as SQS takes it: itself when it can be, else its SHA-256 (hex), so that distinct ids stay distinct. */
function sqsId(id: string): string {
  return SQS_ID.test(id) ? id : createHash('sha256').update(id).digest('hex');
}

/**
 * Receives one receive makes while it finds only malformed messages: more than any queue's
 * maxReceiveCount (definitions.ts), so that the redrive policy has moved them by the last.
 */
const MALFORMED_RECEIVES = 12;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += BATCH) result.push(items.slice(start, start + BATCH));
  return result;
}

export interface SqsQueueOptions<T> {
  /** Long-poll wait for receive; 0 returns at once (the schedule cycle drains bands without waiting). */
  readonly waitTimeSeconds?: number;
  /**
   * Checks each received body, throwing when it is malformed. A malformed message is not handed on
   * and not deleted: it is made visible again at once and received again, within the same receive, until
   * the queue's redrive policy moves it to the dead-letter queue (after maxReceiveCount receives), while
   * the rest of its batch is handled. So poison reaches the dead-letter queue within one receive even
   * on a quiet system, rather than after one visibility timeout per receive.
   */
  readonly parse?: (body: unknown) => T;
  /** Messages are interchangeable wake-ups that carry nothing (the schedule tick); see HoldingQueue. */
  readonly wakeUp?: boolean;
}

/** Interchangeable wake-ups held by an outbox: one per message group is as good as all of them. */
function lastOfEachGroup<M extends { readonly groupId: string }>(messages: readonly M[]): M[] {
  return [...new Map(messages.map((message) => [message.groupId, message])).values()];
}

/** The body, or undefined when it is not JSON or `parse` refuses it. */
function parsed<T>(text: string | undefined, parse: ((body: unknown) => T) | undefined): { body: T } | undefined {
  try {
    const json: unknown = JSON.parse(text ?? 'null');
    return { body: parse ? parse(json) : (json as T) };
  } catch {
    return undefined;
  }
}

/** Every message a queue holds, received or not (approximate, as SQS counts them). */
export async function messagesIn(client: SQSClient, queueUrl: string): Promise<number> {
  const result = await client.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
  );
  return Number(result.Attributes?.ApproximateNumberOfMessages ?? 0) + Number(result.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0);
}

/**
 * MessageQueue on an SQS FIFO queue; bodies travel as JSON. Within an invocation that has an outbox
 * (outbox.ts), sends and deletes are held and go out in batches when it is released.
 */
export class SqsMessageQueue<T> implements MessageQueue<T>, HoldingQueue {
  constructor(
    private readonly client: SQSClient,
    readonly name: string,
    private readonly queueUrl: string,
    private readonly options: SqsQueueOptions<T> = {},
  ) {}

  /** Found once, from the redrive policy (deadLettered). */
  private deadLetterUrl: Promise<string | undefined> | undefined;

  get wakeUp(): boolean {
    return this.options.wakeUp ?? false;
  }

  async send(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    const outbox = currentOutbox();
    if (outbox?.policy.holdSends) outbox.hold(this, messages, []);
    else await this.sendNow(messages);
  }

  async receive(maxMessages: number): Promise<Delivery<T>[]> {
    await currentOutbox()?.release();
    return this.receiveNow(maxMessages);
  }

  async delete(receipts: readonly string[]): Promise<void> {
    const outbox = currentOutbox();
    if (outbox) outbox.hold(this, [], receipts);
    else await this.deleteNow(receipts);
  }

  async release(messages: readonly OutgoingMessage<unknown>[], receipts: readonly string[]): Promise<void> {
    await this.sendNow((this.wakeUp ? lastOfEachGroup(messages) : messages) as readonly OutgoingMessage<T>[]);
    await this.deleteNow(receipts);
  }

  private async sendNow(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    for (const batch of chunks(messages)) {
      const result = await this.client.send(
        new SendMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((message, index) => ({
            Id: String(index),
            MessageBody: JSON.stringify(message.body),
            MessageGroupId: sqsId(message.groupId),
            MessageDeduplicationId: sqsId(message.deduplicationId),
          })),
        }),
      );
      const failed = result.Failed ?? [];
      if (failed.length > 0) {
        throw new Error(`${this.name}: ${failed.length} message(s) not sent: ${failed.map((f) => f.Message ?? f.Code).join('; ')}`);
      }
    }
  }

  private async receiveNow(maxMessages: number): Promise<Delivery<T>[]> {
    for (let attempt = 1; ; attempt += 1) {
      const result = await this.client.send(
        new ReceiveMessageCommand({
          QueueUrl: this.queueUrl,
          MaxNumberOfMessages: Math.max(1, Math.min(BATCH, maxMessages)),
          WaitTimeSeconds: this.options.waitTimeSeconds ?? 0,
          MessageSystemAttributeNames: ['ApproximateReceiveCount', 'SentTimestamp'],
        }),
      );
      const deliveries: Delivery<T>[] = [];
      const malformed: string[] = [];
      for (const message of result.Messages ?? []) {
        const content = parsed(message.Body, this.options.parse);
        if (!content) {
          malformed.push(message.ReceiptHandle ?? '');
          continue;
        }
        deliveries.push({
          body: content.body,
          receipt: message.ReceiptHandle ?? '',
          receiveCount: Number(message.Attributes?.ApproximateReceiveCount ?? '1'),
          sentAt: Number(message.Attributes?.SentTimestamp ?? Date.now()),
        });
      }
      if (malformed.length > 0) await this.makeVisible(malformed);
      if (deliveries.length > 0 || malformed.length === 0 || attempt >= MALFORMED_RECEIVES) return deliveries;
    }
  }

  private async makeVisible(receipts: readonly string[]): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityBatchCommand({
        QueueUrl: this.queueUrl,
        Entries: receipts.map((receipt, index) => ({ Id: String(index), ReceiptHandle: receipt, VisibilityTimeout: 0 })),
      }),
    );
  }

  private async deleteNow(receipts: readonly string[]): Promise<void> {
    for (const batch of chunks(receipts)) {
      const result = await this.client.send(
        new DeleteMessageBatchCommand({
          QueueUrl: this.queueUrl,
          Entries: batch.map((receipt, index) => ({ Id: String(index), ReceiptHandle: receipt })),
        }),
      );
      // A receipt that expired means the message was redelivered meanwhile; its new holder deletes it.
      const failed = (result.Failed ?? []).filter((f) => f.Code !== 'ReceiptHandleIsInvalid');
      if (failed.length > 0) throw new Error(`${this.name}: ${failed.length} message(s) not deleted: ${failed.map((f) => f.Message ?? f.Code).join('; ')}`);
    }
  }

  async retryAfter(receipt: string, delayMs: number): Promise<void> {
    await this.client.send(
      new ChangeMessageVisibilityCommand({
        QueueUrl: this.queueUrl,
        ReceiptHandle: receipt,
        VisibilityTimeout: Math.min(43_200, Math.ceil(delayMs / 1000)),
      }),
    );
  }

  async depth(): Promise<QueueDepth> {
    const result = await this.client.send(
      new GetQueueAttributesCommand({
        QueueUrl: this.queueUrl,
        AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
      }),
    );
    return {
      visible: Number(result.Attributes?.ApproximateNumberOfMessages ?? 0),
      inFlight: Number(result.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0),
    };
  }

  async deadLettered(): Promise<number> {
    this.deadLetterUrl ??= this.findDeadLetterUrl();
    const url = await this.deadLetterUrl;
    return url === undefined ? 0 : messagesIn(this.client, url);
  }

  /** The queue's redrive policy names its dead-letter queue by ARN, whose last part is the queue's name. */
  private async findDeadLetterUrl(): Promise<string | undefined> {
    const { Attributes } = await this.client.send(new GetQueueAttributesCommand({ QueueUrl: this.queueUrl, AttributeNames: ['RedrivePolicy'] }));
    if (!Attributes?.RedrivePolicy) return undefined;
    const { deadLetterTargetArn } = JSON.parse(Attributes.RedrivePolicy) as { deadLetterTargetArn?: string };
    const name = deadLetterTargetArn?.split(':').pop();
    if (!name) return undefined;
    return (await this.client.send(new GetQueueUrlCommand({ QueueName: name }))).QueueUrl;
  }
}
