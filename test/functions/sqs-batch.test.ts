import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { localLambdaContext } from '../../functions/local/lambda-context';
import { sqsFifoHandler } from '../../functions/sqs-batch';

const record = (id: string): SQSRecord =>
  ({ messageId: id, receiptHandle: `r-${id}`, body: JSON.stringify({ id }), attributes: { MessageGroupId: id } }) as unknown as SQSRecord;

describe('an SQS FIFO batch handler', () => {
  it('takes no record when too little of the invocation\'s time is left: the batch fails whole and comes back', async () => {
    const handled: string[] = [];
    const handler = sqsFifoHandler(z.object({ id: z.string() }), () => async (body) => {
      handled.push(body.id);
    });
    const event: SQSEvent = { Records: [record('a'), record('b')] };
    await expect(handler(event, localLambdaContext('outrank-policy-change', 1_000))).rejects.toThrow(/All records failed/);
    expect(handled).toEqual([]);
  });
});
