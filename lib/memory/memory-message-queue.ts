import type { Clock } from '../ports/clock';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../ports/message-queue';

interface StoredMessage<T> {
  readonly body: T;
  readonly groupId: string;
  readonly sentAt: number;
  visibleAt: number;
  receiveCount: number;
  receipt: string | undefined;
}

export interface MemoryQueueOptions {
  readonly visibilityTimeoutMs?: number;
  /** After this many receives without a delete the message moves to the dead-letter queue. */
  readonly maxReceiveCount?: number;
  readonly deadLetterQueue?: MemoryMessageQueue<unknown>;
}

const DEDUPLICATION_WINDOW_MS = 5 * 60 * 1000;

/** In-memory queue with SQS FIFO semantics (groups, deduplication window, visibility, redrive). */
export class MemoryMessageQueue<T> implements MessageQueue<T> {
  private messages: StoredMessage<T>[] = [];
  private readonly seen = new Map<string, number>();
  private receipts = 0;

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    private readonly options: MemoryQueueOptions = {},
  ) {}

  async send(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    const now = this.clock.now();
    for (const message of messages) {
      const seenUntil = this.seen.get(message.deduplicationId);
      if (seenUntil !== undefined && seenUntil > now) continue;
      this.seen.set(message.deduplicationId, now + DEDUPLICATION_WINDOW_MS);
      this.messages.push({
        body: structuredClone(message.body),
        groupId: message.groupId,
        sentAt: now,
        visibleAt: now,
        receiveCount: 0,
        receipt: undefined,
      });
    }
  }

  async receive(maxMessages: number): Promise<Delivery<T>[]> {
    const now = this.clock.now();
    // FIFO: a message in flight or waiting holds back the rest of its group; within one receive the
    // visible head of a group may come with its followers, in order, as SQS does.
    const heldGroups = new Set<string>();
    const deliveries: Delivery<T>[] = [];
    for (const message of [...this.messages]) {
      if (deliveries.length >= maxMessages) break;
      if (heldGroups.has(message.groupId)) continue;
      if (message.visibleAt > now) {
        heldGroups.add(message.groupId);
        continue;
      }
      if (this.options.maxReceiveCount !== undefined && message.receiveCount >= this.options.maxReceiveCount) {
        this.moveToDeadLetterQueue(message);
        continue;
      }
      message.receiveCount += 1;
      message.visibleAt = now + (this.options.visibilityTimeoutMs ?? 30_000);
      message.receipt = `${this.name}#${++this.receipts}`;
      deliveries.push({
        body: structuredClone(message.body),
        receipt: message.receipt,
        receiveCount: message.receiveCount,
        sentAt: message.sentAt,
      });
    }
    return deliveries;
  }

  async delete(receipts: readonly string[]): Promise<void> {
    const gone = new Set(receipts);
    this.messages = this.messages.filter((m) => m.receipt === undefined || !gone.has(m.receipt));
  }

  async retryAfter(receipt: string, delayMs: number): Promise<void> {
    const message = this.messages.find((m) => m.receipt === receipt);
    if (message) message.visibleAt = this.clock.now() + delayMs;
  }

  /** Messages still held, visible or not; synchronous for tests. */
  held(): number {
    return this.messages.length;
  }

  async depth(): Promise<QueueDepth> {
    const now = this.clock.now();
    const visible = this.messages.filter((m) => m.visibleAt <= now).length;
    return { visible, inFlight: this.messages.length - visible };
  }

  private moveToDeadLetterQueue(message: StoredMessage<T>): void {
    this.messages = this.messages.filter((m) => m !== message);
    void this.options.deadLetterQueue?.send([
      { body: message.body, groupId: message.groupId, deduplicationId: `dead-letter-${++this.receipts}` },
    ]);
  }
}
