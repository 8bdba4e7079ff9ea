import type { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { withOutbox } from '../../functions/adapters/outbox';
import { ScheduleTickingQueue } from '../../functions/adapters/schedule-ticking-queue';
import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';

interface Sent {
  readonly command: string;
  readonly queue: string;
  readonly entries: number;
  readonly bodies: string[];
}

/** An SQS client that records each request and answers as SQS does when everything succeeds. */
function recordingClient(): { client: SQSClient; requests: Sent[] } {
  const requests: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: { QueueUrl: string; Entries?: { MessageBody?: string }[] } }) => {
      const entries = command.input.Entries ?? [];
      requests.push({ command: command.constructor.name, queue: command.input.QueueUrl, entries: entries.length, bodies: entries.map((e) => e.MessageBody ?? '') });
      return { Messages: [], Failed: [] };
    },
  };
  return { client: client as unknown as SQSClient, requests };
}

const message = (n: number) => ({ body: { n }, groupId: `g${n % 3}`, deduplicationId: `d${n}` });

describe('outbox', () => {
  it('without one, each send and delete is a request of its own', async () => {
    const { client, requests } = recordingClient();
    const queue = new SqsMessageQueue(client, 'q', 'https://q');
    await queue.send([message(1)]);
    await queue.send([message(2)]);
    await queue.delete(['r1']);
    expect(requests.map((r) => r.command)).toEqual(['SendMessageBatchCommand', 'SendMessageBatchCommand', 'DeleteMessageBatchCommand']);
  });

  it('holds sends until the invocation ends, then sends them in order ten to a request, the tick once and last', async () => {
    const { client, requests } = recordingClient();
    const tick = new SqsMessageQueue<{ tick: true }>(client, 'tick', 'https://tick', { wakeUp: true });
    const high = new ScheduleTickingQueue(new SqsMessageQueue(client, 'high', 'https://high'), tick);
    const low = new ScheduleTickingQueue(new SqsMessageQueue(client, 'low', 'https://low'), tick);
    await withOutbox({ holdSends: true }, async () => {
      for (let n = 0; n < 12; n++) await high.send([message(n)]);
      await low.send([message(12)]);
      expect(requests).toEqual([]);
    });
    expect(requests.map((r) => [r.queue, r.entries])).toEqual([
      ['https://high', 10],
      ['https://high', 2],
      ['https://low', 1],
      ['https://tick', 1],
    ]);
    expect(requests.slice(0, 2).flatMap((r) => r.bodies)).toEqual(Array.from({ length: 12 }, (_, n) => JSON.stringify({ n })));
  });

  it('holding deletes only, sends at once and deletes before the next receive', async () => {
    const { client, requests } = recordingClient();
    const band = new SqsMessageQueue(client, 'band', 'https://band');
    const other = new SqsMessageQueue(client, 'other', 'https://other');
    await withOutbox({ holdSends: false }, async () => {
      await band.delete(['r1']);
      await other.send([message(1)]);
      await band.delete(['r2']);
      expect(requests.map((r) => r.command)).toEqual(['SendMessageBatchCommand']);
      await band.receive(10);
      expect(requests.map((r) => [r.command, r.entries])).toEqual([
        ['SendMessageBatchCommand', 1],
        ['DeleteMessageBatchCommand', 2],
        ['ReceiveMessageCommand', 0],
      ]);
    });
  });

  it('releases what it holds when the invocation fails', async () => {
    const { client, requests } = recordingClient();
    const queue = new SqsMessageQueue(client, 'q', 'https://q');
    const failing = withOutbox({ holdSends: true }, async () => {
      await queue.send([message(1)]);
      throw new Error('handler failed');
    });
    await expect(failing).rejects.toThrow('handler failed');
    expect(requests.map((r) => r.command)).toEqual(['SendMessageBatchCommand']);
  });
});
