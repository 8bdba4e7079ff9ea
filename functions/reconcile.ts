import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import { ReconcileController } from '../lib/controllers/reconcile';
import { controllerContext } from './context';
import { logger, metrics } from './observability';

/** EventBridge schedule → queues again unschedulable bindings that are due and bindings needing failover. */
export const handler = middy(async (): Promise<{ requeued: number }> => {
  const requeued = await new ReconcileController(controllerContext()).run();
  logger.info('reconcile finished', { requeued });
  return { requeued };
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
