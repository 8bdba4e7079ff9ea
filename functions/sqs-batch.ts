import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { z } from 'zod';

/**
 * Runs an SQS FIFO batch through a controller with partial batch responses: a failed message fails
 * the rest of its message group (order is kept) while other groups go on.
 */
export function sqsFifoHandler<T>(schema: z.ZodType<T>, handle: (body: T) => Promise<void>) {
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new SqsFifoPartialProcessorAsync();
    const record = async (message: SQSRecord) => handle(schema.parse(JSON.parse(message.body)));
    return processPartialResponse(event, record, processor, { context, skipGroupOnError: true });
  };
}
