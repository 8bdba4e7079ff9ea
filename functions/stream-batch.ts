import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { forBatch, type ControllerContext } from '../lib/controllers/context';
import { withOutbox } from './adapters/outbox';
import { controllerContext } from './context';
import { RecordBudget } from './record-budget';

/**
 * Runs a batch of DynamoDB stream records through a controller made for the batch, one record after
 * another, with partial batch responses: the event source mapping starts again from the first record
 * that failed (those after it are handled again, idempotently). `toMessage` gives undefined for a
 * record the controller has nothing to do with. As with queues, records are not started with too
 * little time left, and what the batch sends is held until it is done.
 */
export function dynamoStreamHandler<T>(toMessage: (record: DynamoDBRecord) => T | undefined, handlerFor: (context: ControllerContext) => (message: T) => Promise<void>) {
  return async (event: DynamoDBStreamEvent, context: Context): Promise<DynamoDBBatchResponse> => {
    let handle: ((message: T) => Promise<void>) | undefined;
    const processor = new BatchProcessor(EventType.DynamoDBStreams);
    const budget = new RecordBudget(context);
    const record = async (streamRecord: DynamoDBRecord) => {
      const message = toMessage(streamRecord);
      if (message === undefined) return;
      await budget.run('a retry', async () => {
        handle ??= handlerFor(forBatch(controllerContext()));
        await handle(message);
      });
    };
    return withOutbox({ holdSends: true }, () => processPartialResponse(event, record, processor, { context, processInParallel: false }));
  };
}
