import type { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';
import { bindingGroupId, bindingMessageId } from '../../lib/controllers/messages';

interface SentIds {
  readonly groupId: string;
  readonly deduplicationId: string;
}

/** An SQS client that records the ids of each message sent and answers that all went. */
function recordingClient(): { client: SQSClient; sent: SentIds[] } {
  const sent: SentIds[] = [];
  const client = {
    send: async (command: { input: { Entries?: { MessageGroupId?: string; MessageDeduplicationId?: string }[] } }) => {
      for (const entry of command.input.Entries ?? []) sent.push({ groupId: entry.MessageGroupId ?? '', deduplicationId: entry.MessageDeduplicationId ?? '' });
      return { Failed: [] };
    },
  };
  return { client: client as unknown as SQSClient, sent };
}

/** SQS's rule for MessageGroupId and MessageDeduplicationId: 1 to 128 alphanumerics and punctuation. */
const SQS_ID = /^[A-Za-z0-9!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]{1,128}$/;

describe('SQS message ids', () => {
  const longest = (end: string) => ({ kind: 'ResourceBinding' as const, namespace: 'n'.repeat(63), name: `${'w'.repeat(252)}${end}` });
  const ids = [
    { groupId: 'ResourceBinding/default/web-deployment', deduplicationId: 'ResourceBinding/default/web-deployment@7' },
    { groupId: bindingGroupId(longest('a')), deduplicationId: bindingMessageId(longest('a'), '1', `${bindingGroupId(longest('b'))}@2@preempted`) },
    { groupId: bindingGroupId(longest('b')), deduplicationId: bindingMessageId(longest('b'), '1', `${bindingGroupId(longest('b'))}@2@preempted`) },
    { groupId: 'with a space', deduplicationId: 'and é' },
  ];

  it('are sent as SQS takes them, kept as they are where they can be, and distinct ids stay distinct', async () => {
    const { client, sent } = recordingClient();
    await new SqsMessageQueue(client, 'q', 'https://q').send(ids.map((id, n) => ({ body: { n }, ...id })));
    for (const id of sent) {
      expect(id.groupId).toMatch(SQS_ID);
      expect(id.deduplicationId).toMatch(SQS_ID);
    }
    expect(sent[0]).toEqual(ids[0]);
    expect(new Set(sent.map((id) => id.groupId)).size).toBe(ids.length);
    expect(new Set(sent.map((id) => id.deduplicationId)).size).toBe(ids.length);
  });
});
