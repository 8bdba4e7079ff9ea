import { frozenCopy } from './frozen-copy';
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
  /** In the order sent (a Map keeps insertion order), by a number of their own. */
  private readonly messages = new Map<number, StoredMessage<T>>();
  /** The message each receipt was handed out for. */
  private readonly byReceipt = new Map<string, number>();
  /** Deduplication ids until their window ends, in the order their windows began. */
  private readonly seen = new Map<string, number>();
  private receipts = 0;
  private sent = 0;

  constructor(
    readonly name: string,
    private readonly clock: Clock,
    private readonly options: MemoryQueueOptions = {},
  ) {}

  async send(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    const now = this.clock.now();
    this.forgetDeduplicationIds(now);
    for (const message of messages) {
      const seenUntil = this.seen.get(message.deduplicationId);
      if (seenUntil !== undefined && seenUntil > now) continue;
      // Sent again after its window: to the end, where the ids of this window are.
      this.seen.delete(message.deduplicationId);
      this.seen.set(message.deduplicationId, now + DEDUPLICATION_WINDOW_MS);
      this.messages.set(++this.sent, {
        body: frozenCopy(message.body),
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
    const dead: number[] = [];
    for (const [id, message] of this.messages) {
      if (deliveries.length >= maxMessages) break;
      if (heldGroups.has(message.groupId)) continue;
      if (message.visibleAt > now) {
        heldGroups.add(message.groupId);
        continue;
      }
      if (this.options.maxReceiveCount !== undefined && message.receiveCount >= this.options.maxReceiveCount) {
        dead.push(id);
        continue;
      }
      if (message.receipt !== undefined) this.byReceipt.delete(message.receipt);
      message.receiveCount += 1;
      message.visibleAt = now + (this.options.visibilityTimeoutMs ?? 30_000);
      message.receipt = `${this.name}#${++this.receipts}`;
      this.byReceipt.set(message.receipt, id);
      deliveries.push({
        body: message.body,
        receipt: message.receipt,
        receiveCount: message.receiveCount,
        sentAt: message.sentAt,
      });
    }
    for (const id of dead) this.moveToDeadLetterQueue(id);
    return deliveries;
  }

  async delete(receipts: readonly string[]): Promise<void> {
    for (const receipt of receipts) {
      const id = this.byReceipt.get(receipt);
      if (id === undefined) continue;
      this.byReceipt.delete(receipt);
      this.messages.delete(id);
    }
  }

  async retryAfter(receipt: string, delayMs: number): Promise<void> {
    const id = this.byReceipt.get(receipt);
    const message = id === undefined ? undefined : this.messages.get(id);
    if (message) message.visibleAt = this.clock.now() + delayMs;
  }

  /** Messages still held, visible or not; synchronous for tests. */
  held(): number {
    return this.messages.size;
  }

  async depth(): Promise<QueueDepth> {
    const now = this.clock.now();
    let visible = 0;
    for (const message of this.messages.values()) if (message.visibleAt <= now) visible += 1;
    return { visible, inFlight: this.messages.size - visible };
  }

  async deadLettered(): Promise<number> {
    return this.options.deadLetterQueue?.held() ?? 0;
  }

  /**
   * Ids whose window has ended, so that the map holds five minutes of ids, not every one ever sent.
   * From the oldest on, up to one still open (a clock set back leaves some ended behind it: send checks the time).
   */
  private forgetDeduplicationIds(now: number): void {
    for (const [id, until] of this.seen) {
      if (until > now) return;
      this.seen.delete(id);
    }
  }

  private moveToDeadLetterQueue(id: number): void {
    const message = this.messages.get(id)!;
    this.messages.delete(id);
    if (message.receipt !== undefined) this.byReceipt.delete(message.receipt);
    void this.options.deadLetterQueue?.send([
      { body: message.body, groupId: message.groupId, deduplicationId: `dead-letter-${++this.receipts}` },
    ]);
  }
}
