import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context, DynamoDBStreamEvent, SQSEvent } from 'aws-lambda';
import type { ControllerContext } from '../lib/controllers/context';
import type { ObjectChange } from '../lib/controllers/messages';
import { PolicyChangeController } from '../lib/controllers/policy-change';
import { objectChangeOfRecord } from './adapters/object-stream';
import { objectChangeSchema } from './messages';
import { logger, metrics } from './observability';
import { sqsFifoHandler } from './sqs-batch';
import { dynamoStreamHandler } from './stream-batch';

function controllerFor(context: ControllerContext): (change: ObjectChange) => Promise<void> {
  const controller = new PolicyChangeController(context);
  return (change) => controller.handle(change);
}

const fromStream = dynamoStreamHandler(objectChangeOfRecord, controllerFor);
const fromQueue = sqsFifoHandler(objectChangeSchema, controllerFor);

function isStreamEvent(event: SQSEvent | DynamoDBStreamEvent): event is DynamoDBStreamEvent {
  return event.Records[0]?.eventSource === 'aws:dynamodb';
}

/**
 * The objects table's stream (every write of a policy, template or cluster) and the policy-change
 * queue (the template resync) → claims templates, creates and updates bindings, fails over.
 */
export const handler = middy((event: SQSEvent | DynamoDBStreamEvent, context: Context) =>
  isStreamEvent(event) ? fromStream(event, context) : fromQueue(event, context),
)
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
