import { randomUUID } from 'node:crypto';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../../lib/ports/message-queue';

/**
 * A band queue that, after each send, drops a tick on the tick queue: the tick queue is the event
 * source that starts the schedule-cycle function, which then pulls the bands itself. Ticks share one
 * message group, so cycles started by them run one after another and a tick sent while a cycle runs
 * is never lost.
 */
export class ScheduleTickingQueue<T> implements MessageQueue<T> {
  constructor(
    private readonly band: MessageQueue<T>,
    private readonly tick: MessageQueue<{ tick: true }>,
  ) {}

  get name(): string {
    return this.band.name;
  }

  async send(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    await this.band.send(messages);
    if (messages.length === 0) return;
    await this.tick.send([{ body: { tick: true }, groupId: 'schedule', deduplicationId: randomUUID() }]);
  }

  receive(maxMessages: number): Promise<Delivery<T>[]> {
    return this.band.receive(maxMessages);
  }

  delete(receipts: readonly string[]): Promise<void> {
    return this.band.delete(receipts);
  }

  retryAfter(receipt: string, delayMs: number): Promise<void> {
    return this.band.retryAfter(receipt, delayMs);
  }

  depth(): Promise<QueueDepth> {
    return this.band.depth();
  }
}
