import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { BindingEnqueueController } from '../lib/controllers/binding-enqueue';
import { bindingRequestSchema } from './messages';
import { logger, metrics } from './observability';
import { sqsFifoHandler } from './sqs-batch';

/** binding-enqueue queue → decides whether a binding needs scheduling and queues it in its priority band. */
export const handler = middy(
  sqsFifoHandler(bindingRequestSchema, (context) => {
    const controller = new BindingEnqueueController(context);
    return (request) => controller.handle(request);
  }),
)
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
