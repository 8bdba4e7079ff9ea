import type { SQSClient } from '@aws-sdk/client-sqs';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { DynamoDbEventLog } from '../../functions/adapters/dynamodb-event-log';
import { withOutbox } from '../../functions/adapters/outbox';
import { ScheduleTickingQueue } from '../../functions/adapters/schedule-ticking-queue';
import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';
import type { EventRecord } from '../../lib/ports/event-log';

interface Sent {
  readonly command: string;
  readonly queue: string;
  readonly entries: number;
  readonly bodies: string[];
  readonly groups: string[];
}

/** An SQS client that records each request and answers as SQS does when everything succeeds. */
function recordingClient(): { client: SQSClient; requests: Sent[] } {
  const requests: Sent[] = [];
  const client = {
    send: async (command: { constructor: { name: string }; input: { QueueUrl: string; Entries?: { MessageBody?: string; MessageGroupId?: string }[] } }) => {
      const entries = command.input.Entries ?? [];
      requests.push({
        command: command.constructor.name,
        queue: command.input.QueueUrl,
        entries: entries.length,
        bodies: entries.map((e) => e.MessageBody ?? ''),
        groups: entries.map((e) => e.MessageGroupId ?? ''),
      });
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

  it('holds sends until the invocation ends, then sends them in order ten to a request, the ticks last and once per group', async () => {
    const { client, requests } = recordingClient();
    const tick = new SqsMessageQueue<{ tick: true }>(client, 'tick', 'https://tick', { wakeUp: true });
    // A tick for every ten bindings, over four groups: the high band's twelve tick groups 0 and 1, the low band's one group 0.
    const high = new ScheduleTickingQueue(new SqsMessageQueue(client, 'high', 'https://high'), tick, 10, 4, 0);
    const low = new ScheduleTickingQueue(new SqsMessageQueue(client, 'low', 'https://low'), tick, 10, 4, 0);
    await withOutbox({ holdSends: true }, async () => {
      for (let n = 0; n < 12; n++) await high.send([message(n)]);
      await low.send([message(12)]);
      expect(requests).toEqual([]);
    });
    expect(requests.map((r) => [r.queue, r.entries])).toEqual([
      ['https://high', 10],
      ['https://high', 2],
      ['https://low', 1],
      ['https://tick', 2],
    ]);
    expect(requests.at(-1)?.groups.sort()).toEqual(['schedule-0', 'schedule-1']);
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

describe('outbox and the event log', () => {
  /** A DynamoDB document client that records each BatchWriteItem and leaves the first item of each first request unprocessed. */
  function eventTableClient(): { client: DynamoDBDocumentClient; writes: number[] } {
    const writes: number[] = [];
    const client = {
      send: async (command: { input: { RequestItems: Record<string, unknown[]> } }) => {
        const requests = command.input.RequestItems.events!;
        writes.push(requests.length);
        return { UnprocessedItems: writes.length === 1 ? { events: requests.slice(0, 1) } : {} };
      },
    };
    return { client: client as unknown as DynamoDBDocumentClient, writes };
  }

  const event = (n: number): EventRecord => ({
    type: 'Normal',
    reason: 'Scheduled',
    object: { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', namespace: 'default', name: `b${n}` },
    message: `event ${n}`,
  });

  it('writes the events of an invocation when it is released, twenty-five to a request, and writes again what was left unprocessed', async () => {
    const { client, writes } = eventTableClient();
    const log = new DynamoDbEventLog(client, 'events', { now: () => 0 });
    await withOutbox({ holdSends: false }, async () => {
      for (let n = 0; n < 30; n++) await log.record(event(n));
      expect(writes).toEqual([]);
    });
    expect(writes).toEqual([25, 1, 5]);
  });

  it('without an outbox writes each event at once (again while DynamoDB leaves it unprocessed)', async () => {
    const { client, writes } = eventTableClient();
    const log = new DynamoDbEventLog(client, 'events', { now: () => 0 });
    await log.record(event(1));
    expect(writes).toEqual([1, 1]);
    await log.record(event(2));
    expect(writes).toEqual([1, 1, 1]);
  });
});
