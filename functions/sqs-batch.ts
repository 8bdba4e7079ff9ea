import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { forBatch, type ControllerContext } from '../lib/controllers/context';
import { withOutbox } from './adapters/outbox';
import { controllerContext } from './context';
import { RecordBudget } from './record-budget';

/**
 * Runs an SQS FIFO batch through a controller made for the batch with partial batch responses: a failed message fails
 * the rest of its message group (order is kept) while other groups go on. What the batch sends is held
 * and sent ten to a request when it is done: should that fail, the batch's records come back and are
 * handled (idempotently) again.
 */
export function sqsFifoHandler<T>(schema: z.ZodType<T>, handlerFor: (context: ControllerContext) => (body: T) => Promise<void>) {
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // One batch: the informers read their change feeds once for all of its records.
    let handle: ((body: T) => Promise<void>) | undefined;
    const processor = new SqsFifoPartialProcessorAsync();
    const budget = new RecordBudget(context);
    const record = (message: SQSRecord) =>
      budget.run('redelivery', async () => {
        handle ??= handlerFor(forBatch(controllerContext()));
        return handle(schema.parse(JSON.parse(message.body)));
      });
    return withOutbox({ holdSends: true }, () => processPartialResponse(event, record, processor, { context, skipGroupOnError: true }));
  };
}
