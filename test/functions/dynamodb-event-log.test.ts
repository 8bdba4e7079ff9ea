import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { EVENTS_BY_REASON_INDEX } from '../../functions/adapters/definitions';
import { DynamoDbEventLog } from '../../functions/adapters/dynamodb-event-log';
import { ManualClock } from '../../lib/memory/manual-clock';
import type { EventSelection } from '../../lib/ports/event-log';

type Sent = { readonly command: string; readonly input: Record<string, unknown> };

/** A client that records what it is sent and answers with no items. */
function recordingClient(sent: Sent[]): DynamoDBDocumentClient {
  return {
    send: async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      sent.push({ command: command.constructor.name, input: command.input });
      return { Items: [] };
    },
  } as unknown as DynamoDBDocumentClient;
}

const batch = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', namespace: 'default', name: 'batch' };

describe('the DynamoDB event log reads only what a list selects', () => {
  it.each<{ selection: EventSelection | undefined; command: string; index?: string }>([
    { selection: { object: batch }, command: 'QueryCommand' },
    { selection: { reason: 'Preempted' }, command: 'QueryCommand', index: EVENTS_BY_REASON_INDEX.name },
    { selection: { reason: 'ScheduleBindingFailed' }, command: 'ScanCommand' },
    { selection: undefined, command: 'ScanCommand' },
  ])('$selection: one $command of $index', async ({ selection, command, index }) => {
    const sent: Sent[] = [];
    await new DynamoDbEventLog(recordingClient(sent), 'events', new ManualClock()).list(selection);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ command });
    expect(sent[0]!.input.IndexName).toBe(index);
    // A Query reads from an hour ago (the events' time to live) on: DynamoDB removes expired items late.
    if (command === 'QueryCommand') expect(sent[0]!.input.ExpressionAttributeValues).toMatchObject({ ':since': '2025-12-31T23:00:00.000Z' });
  });

  it('indexes only the events of an indexed reason (a sparse index: the many scheduling events stay out of it)', async () => {
    const sent: Sent[] = [];
    const log = new DynamoDbEventLog(recordingClient(sent), 'events', new ManualClock());
    await log.record({ type: 'Warning', reason: 'Preempted', object: batch, message: 'preempted' });
    await log.record({ type: 'Warning', reason: 'ScheduleBindingFailed', object: batch, message: 'no cluster fits' });
    const items = sent.map((request) => (request.input.RequestItems as Record<string, Array<{ PutRequest: { Item: Record<string, unknown> } }>>).events![0]!.PutRequest.Item);
    expect(items.map((item) => item[EVENTS_BY_REASON_INDEX.partitionKey])).toEqual(['Preempted', undefined]);
  });
});
