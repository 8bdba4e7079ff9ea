import { processPartialResponse, SqsFifoPartialProcessorAsync } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type * as z from 'zod';
import { forBatch, type ControllerContext } from '../lib/controllers/context';
import { withOutbox } from './adapters/outbox';
import { controllerContext } from './context';

/**
 * Records are not started with less time than this left: they fail instead and come back after the
 * queue's visibility timeout, rather than being cut off mid-way when the function times out.
 */
export const STOP_TAKING_WORK_MS = 5_000;

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
    const record = async (message: SQSRecord) => {
      if (context.getRemainingTimeInMillis() < STOP_TAKING_WORK_MS) {
        throw new Error(`left for redelivery: under ${STOP_TAKING_WORK_MS} ms of the invocation's time remained`);
      }
      handle ??= handlerFor(forBatch(controllerContext()));
      return handle(schema.parse(JSON.parse(message.body)));
    };
    return withOutbox({ holdSends: true }, () => processPartialResponse(event, record, processor, { context, skipGroupOnError: true }));
  };
}
