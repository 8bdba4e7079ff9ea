import { randomInt, randomUUID } from 'node:crypto';
import type { Delivery, MessageQueue, OutgoingMessage, QueueDepth } from '../../lib/ports/message-queue';

/** How many schedule cycles may run at once unless the stack says otherwise (its reserved concurrency). */
export const DEFAULT_SCHEDULE_CYCLES = 4;

/**
 * A band queue that, after each send, drops ticks on the tick queue: the tick queue is the event source
 * that starts the schedule-cycle function (one tick to an invocation), which then pulls the bands
 * itself, a batch of `bindingsPerTick` at a time.
 *
 * The ticks follow the bindings sent: the bindings this queue has sent are counted off in blocks of
 * `bindingsPerTick`, each block in the next of `cycles` message groups, and a send drops a tick in the
 * group of every block it reaches into (at least one, at most `cycles`). Ticks an invocation holds in its
 * outbox collapse to one per group, so a burst of bindings starts as many cycles as it can keep busy, up
 * to `cycles` at once. The count starts at a random block, so that the first sends of many fresh
 * execution environments do not all tick the same group. Within a group a tick sent while a cycle runs
 * waits for it, so none is lost; a tick held by a cycle that died holds up only its own group, for the
 * queue's visibility timeout.
 */
export class ScheduleTickingQueue<T> implements MessageQueue<T> {
  private sent: number;

  constructor(
    private readonly band: MessageQueue<T>,
    private readonly tick: MessageQueue<{ tick: true }>,
    private readonly bindingsPerTick: number,
    private readonly cycles: number,
    firstGroup = randomInt(cycles),
  ) {
    this.sent = firstGroup * bindingsPerTick;
  }

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
