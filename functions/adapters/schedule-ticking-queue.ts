import { randomUUID } from 'node:crypto';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../../lib/ports/message-queue';

/** How many schedule cycles may run at once unless the stack says otherwise (its reserved concurrency). */
export const DEFAULT_SCHEDULE_CYCLES = 4;

/**
 * A band queue that, after each send, drops ticks on the tick queue: the tick queue is the event source
 * that starts the schedule-cycle function (one tick to an invocation), which then pulls the bands
 * itself, a batch of `bindingsPerTick` at a time.
 *
 * The ticks follow the bindings sent: one for every `bindingsPerTick` of them, each in the next of
 * `cycles` message groups, so that a burst of bindings starts as many cycles as it can keep busy, up to
 * `cycles` at once. Within a group a tick sent while a cycle runs waits for it, so none is lost; a tick
 * held by a cycle that died holds up only its own group, for the queue's visibility timeout. Ticks an
 * invocation holds in its outbox collapse to one per group.
 */
export class ScheduleTickingQueue<T> implements MessageQueue<T> {
  private sent = 0;

  constructor(
    private readonly band: MessageQueue<T>,
    private readonly tick: MessageQueue<{ tick: true }>,
    private readonly bindingsPerTick: number,
    private readonly cycles: number,
  ) {}

  get name(): string {
    return this.band.name;
  }

  async send(messages: readonly OutgoingMessage<T>[]): Promise<void> {
    await this.band.send(messages);
    if (messages.length === 0) return;
    const first = Math.floor(this.sent / this.bindingsPerTick);
    this.sent += messages.length;
    const last = Math.floor((this.sent - 1) / this.bindingsPerTick);
    const ticks = Array.from({ length: Math.min(this.cycles, last - first + 1) }, (_, index) => ({
      body: { tick: true as const },
      groupId: `schedule-${(first + index) % this.cycles}`,
      deduplicationId: randomUUID(),
    }));
    await this.tick.send(ticks);
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
