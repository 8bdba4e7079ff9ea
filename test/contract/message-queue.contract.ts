import { beforeEach, describe, expect, it } from 'vitest';
import { bindingGroupId, bindingMessageId } from '../../lib/controllers/messages';
import type { MessageQueue } from '../../lib/ports/message-queue';

export interface QueueUnderTest {
  readonly queue: MessageQueue<{ n: number }>;
  /** Lets time pass: the virtual clock for the in-memory queue, real time for SQS. */
  wait(milliseconds: number): Promise<void>;
}

const message = (n: number, groupId = 'g', deduplicationId = `m${n}`) => ({ body: { n }, groupId, deduplicationId });

/** SQS FIFO semantics every MessageQueue must have; run against the in-memory queue and SQS. */
export function messageQueueContract(name: string, makeQueue: () => Promise<QueueUnderTest>): void {
  describe(`MessageQueue contract: ${name}`, () => {
    let subject: QueueUnderTest;
    beforeEach(async () => {
      subject = await makeQueue();
    });

    it('delivers a group in order and holds the group while a message is in flight', async () => {
      await subject.queue.send([message(1), message(2), message(3, 'other')]);
      const first = await subject.queue.receive(1);
      expect(first.map((d) => d.body.n)).toEqual([1]);
      const others = await subject.queue.receive(10);
      expect(others.map((d) => d.body.n)).toEqual([3]);
      await subject.queue.delete([...first, ...others].map((d) => d.receipt));
      const second = await subject.queue.receive(10);
      expect(second.map((d) => d.body.n)).toEqual([2]);
      expect(second[0]!.receiveCount).toBe(1);
    });

    it('may hand out several messages of one group in one receive, in order', async () => {
      await subject.queue.send([message(1), message(2)]);
      const deliveries = await subject.queue.receive(10);
      expect(deliveries.map((d) => d.body.n)).toEqual([1, 2]);
    });

    it('drops a message whose deduplication id was sent moments ago', async () => {
      await subject.queue.send([message(1, 'g', 'same')]);
      await subject.queue.send([message(2, 'g', 'same')]);
      const deliveries = await subject.queue.receive(10);
      expect(deliveries.map((d) => d.body.n)).toEqual([1]);
    });

    it('delivers again after retryAfter, counting receives', async () => {
      await subject.queue.send([message(1)]);
      const [first] = await subject.queue.receive(1);
      await subject.queue.retryAfter(first!.receipt, 1_000);
      expect(await subject.queue.receive(1)).toEqual([]);
      await subject.wait(1_100);
      const [again] = await subject.queue.receive(1);
      expect(again!.body).toEqual({ n: 1 });
      expect(again!.receiveCount).toBe(2);
    });

    it('takes the ids of a binding of the longest names, far past 128 characters, keeping apart ids that differ only at their end', async () => {
      const namespace = 'n'.repeat(63);
      const [a, b] = ['a', 'b'].map((end) => ({ kind: 'ResourceBinding' as const, namespace, name: `${'w'.repeat(252)}${end}` }));
      const cause = `${bindingGroupId(a!)}@${'9'.repeat(21)}@unschedulable`;
      await subject.queue.send([
        { body: { n: 1 }, groupId: bindingGroupId(a!), deduplicationId: bindingMessageId(a!, '1', cause) },
        { body: { n: 2 }, groupId: bindingGroupId(b!), deduplicationId: bindingMessageId(b!, '1', cause) },
      ]);
      // Two groups: the first in flight holds back nothing of the second.
      const first = await subject.queue.receive(1);
      const second = await subject.queue.receive(10);
      expect([...first, ...second].map((d) => d.body.n)).toEqual([1, 2]);
    });

    it('sends more than one batch worth of messages', async () => {
      await subject.queue.send(Array.from({ length: 25 }, (_, n) => message(n, `g${n}`)));
      const received: number[] = [];
      for (let round = 0; round < 10 && received.length < 25; round += 1) {
        const deliveries = await subject.queue.receive(10);
        received.push(...deliveries.map((d) => d.body.n));
        await subject.queue.delete(deliveries.map((d) => d.receipt));
      }
      expect(received.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, n) => n));
    });
  });
}
