import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { SqsMessageQueue } from '../../functions/adapters/sqs-message-queue';
import { queuedBindingSchema } from '../../functions/messages';
import { deadLetterUrl, depthOf } from '../reliability/support/aws-state';
import { provisionTestAws } from '../support/aws';

describe('a malformed message on a band queue, with the queues as deployed (visibility 60 s, 10 receives)', () => {
  it('reaches the dead-letter queue within one receive of the schedule cycle, and the valid message behind it is handed on', async () => {
    const aws = await provisionTestAws();
    const url = aws.resources.bandQueueUrls.default!;
    const { sqs } = aws.clients;
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: '<xml/>', MessageGroupId: 'poison', MessageDeduplicationId: 'poison' }));
    const valid = { binding: { kind: 'ResourceBinding', namespace: 'default', name: 'web-deployment' }, priority: 0, enqueuedAt: 1 };
    await sqs.send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(valid), MessageGroupId: 'valid', MessageDeduplicationId: 'valid' }));

    const band = new SqsMessageQueue(sqs, 'schedule-default', url, { parse: (body) => queuedBindingSchema.parse(body) });
    const handedOn = [...(await band.receive(10)), ...(await band.receive(10))];
    expect(handedOn.map((delivery) => delivery.body)).toEqual([valid]);

    // Found through the band's redrive policy, as the queue status of the API reports it.
    expect(await band.deadLettered()).toBe(1);
    const dead = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: await deadLetterUrl(aws, aws.definitions.bandQueues.get('default')!), MaxNumberOfMessages: 10 }),
    );
    expect((dead.Messages ?? []).map((message) => message.Body)).toEqual(['<xml/>']);
    await band.delete(handedOn.map((delivery) => delivery.receipt));
    expect(await depthOf(aws, url)).toEqual({ visible: 0, inFlight: 0 });
  });
});
