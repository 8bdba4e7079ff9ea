import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { withOutbox } from './adapters/outbox';

/**
 * Runs an SQS FIFO batch through a controller with partial batch responses: a failed message fails
 * the rest of its message group (order is kept) while other groups go on. What the batch sends is held
 * and sent ten to a request when it is done: should that fail, the batch's records come back and are
 * handled (idempotently) again.
 */
export function sqsFifoHandler<T>(schema: z.ZodType<T>, handle: (body: T) => Promise<void>) {
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new SqsFifoPartialProcessorAsync();
    const record = async (message: SQSRecord) => handle(schema.parse(JSON.parse(message.body)));
    return withOutbox({ holdSends: true }, () => processPartialResponse(event, record, processor, { context, skipGroupOnError: true }));
  };
}
