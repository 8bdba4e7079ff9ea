import { AsyncLocalStorage } from 'node:async_hooks';
import type { OutgoingMessage } from '../../lib/ports/message-queue';

/** A queue whose sends and deletes an outbox can hold back and hand back later. */
export interface HoldingQueue {
  /** Its messages are interchangeable wake-ups: held ones collapse to one per message group, sent after every other queue's. */
  readonly wakeUp: boolean;
  release(messages: readonly OutgoingMessage<unknown>[], receipts: readonly string[]): Promise<void>;
}

/** A table whose writes an outbox can hold back and hand back later, to be written many to a request. */
export interface HoldingTable<I> {
  writeHeld(items: readonly I[]): Promise<void>;
}

export interface OutboxPolicy {
  /**
   * Hold sends too, not only deletes. Safe only where every message the invocation sends is sent again
   * if the invocation dies before releasing them: a queue-triggered handler whose records come back.
   */
  readonly holdSends: boolean;
}

/**
 * What one invocation holds back so that it goes out ten to a request rather than one by one: the
 * messages it sends and the receipts it deletes, per queue in the order they came, and the items it
 * writes to a table that accepts held writes (events). They are released before the invocation
 * receives from any queue and when it ends, so a delete waits at most for the batch in hand, and a
 * message or an event for the records in hand.
 */
export class Outbox {
  private readonly held = new Map<HoldingQueue, { messages: OutgoingMessage<unknown>[]; receipts: string[] }>();
  private readonly heldWrites = new Map<HoldingTable<unknown>, unknown[]>();

  constructor(readonly policy: OutboxPolicy) {}

  hold(queue: HoldingQueue, messages: readonly OutgoingMessage<unknown>[], receipts: readonly string[]): void {
    let entry = this.held.get(queue);
    if (!entry) this.held.set(queue, (entry = { messages: [], receipts: [] }));
    entry.messages.push(...messages);
    entry.receipts.push(...receipts);
  }

  holdWrites<I>(table: HoldingTable<I>, items: readonly I[]): void {
    const held = this.heldWrites.get(table as HoldingTable<unknown>);
    if (held) held.push(...items);
    else this.heldWrites.set(table as HoldingTable<unknown>, [...items]);
  }

  async release(): Promise<void> {
    const writes = [...this.heldWrites];
    this.heldWrites.clear();
    for (const [table, items] of writes) await table.writeHeld(items);
    // Wake-ups last, so that what they announce is on its queue by then (sort keeps first-use order).
    const entries = [...this.held].sort(([a], [b]) => Number(a.wakeUp) - Number(b.wakeUp));
    this.held.clear();
    for (const [queue, { messages, receipts }] of entries) await queue.release(messages, receipts);
  }
}

const current = new AsyncLocalStorage<Outbox>();

/** The outbox of the invocation running now, if it has one. */
export function currentOutbox(): Outbox | undefined {
  return current.getStore();
}

/** Runs one invocation with an outbox, released when it ends, whether it succeeded or not. */
export async function withOutbox<T>(policy: OutboxPolicy, work: () => Promise<T>): Promise<T> {
  const outbox = new Outbox(policy);
  try {
    return await current.run(outbox, work);
  } finally {
    await outbox.release();
  }
}
