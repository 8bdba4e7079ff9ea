import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { PolicyChangeController } from '../lib/controllers/policy-change';
import { objectChangeSchema } from './messages';
import { logger, metrics } from './observability';
import { sqsFifoHandler } from './sqs-batch';

/** policy-change queue → claims templates, creates and updates bindings. */
export const handler = middy(
  sqsFifoHandler(objectChangeSchema, (context) => {
    const controller = new PolicyChangeController(context);
    return (change) => controller.handle(change);
  }),
)
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
