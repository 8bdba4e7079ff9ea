import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../lib/memory/manual-clock';
import { MemoryMessageQueue } from '../../../lib/memory/memory-message-queue';

const MINUTE = 60_000;
const message = (n: number, deduplicationId: string) => ({ body: { n }, groupId: `g${n}`, deduplicationId });

async function drain(queue: MemoryMessageQueue<{ n: number }>): Promise<number[]> {
  const deliveries = await queue.receive(10);
  await queue.delete(deliveries.map((delivery) => delivery.receipt));
  return deliveries.map((delivery) => delivery.body.n);
}

describe('the in-memory queue deduplicates as SQS FIFO does: for five minutes from the first send', () => {
  it('each id is dropped within its own five minutes and taken again after them', async () => {
    const clock = new ManualClock();
    const queue = new MemoryMessageQueue<{ n: number }>('dedup', clock);
    await queue.send([message(1, 'early')]);
    clock.advance(4 * MINUTE);
    await queue.send([message(2, 'late'), message(3, 'early')]);
    expect(await drain(queue)).toEqual([1, 2]);

    clock.advance(MINUTE + 1);
    await queue.send([message(4, 'early'), message(5, 'late')]);
    expect(await drain(queue)).toEqual([4]);

    clock.advance(4 * MINUTE);
    await queue.send([message(6, 'late'), message(7, 'early')]);
    // 'early' was taken again five minutes ago; 'late' nine minutes ago.
    expect(await drain(queue)).toEqual([6]);
  });

  it('a clock set back does not keep an id whose window has ended behind one whose has not', async () => {
    let now = Date.UTC(2026, 0, 1);
    const queue = new MemoryMessageQueue<{ n: number }>('dedup', { now: () => now });
    await queue.send([message(1, 'a')]);
    expect(await drain(queue)).toEqual([1]);
    now -= MINUTE;
    await queue.send([message(2, 'b')]);
    expect(await drain(queue)).toEqual([2]);
    // 'b' was sent a minute before 'a' by this clock: its window ends first, though 'a' is ahead of it.
    now += 5 * MINUTE + 1;
    await queue.send([message(3, 'b'), message(4, 'a')]);
    expect(await drain(queue)).toEqual([3]);
  });
});
