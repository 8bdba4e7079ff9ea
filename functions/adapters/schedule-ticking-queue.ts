import { randomUUID } from 'node:crypto';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../../lib/ports/message-queue';

/**
 * Message groups the ticks are spread over, round robin: as many as the stack's default schedule-cycle
 * concurrency. Within a group a tick sent while a cycle runs waits for it, so none is lost; a tick held
 * by a cycle that died holds up only its own group, for the queue's visibility timeout.
 */
export const TICK_GROUPS = 4;

/**
 * A band queue that, after each send, drops a tick on the tick queue: the tick queue is the event
 * source that starts the schedule-cycle function, which then pulls the bands itself.
 */
export class ScheduleTickingQueue<T> implements MessageQueue<T> {
  private ticks = 0;

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
    const group = this.ticks++ % TICK_GROUPS;
    await this.tick.send([{ body: { tick: true }, groupId: `schedule-${group}`, deduplicationId: randomUUID() }]);
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

  deadLettered(): Promise<number> {
    return this.band.deadLettered();
  }
}
