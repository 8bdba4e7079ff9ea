import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import * as z from 'zod';
import { ReconcileController } from '../lib/controllers/reconcile';
import { controllerContext } from './context';
import { logger, metrics } from './observability';

/** An EventBridge scheduled event, or the resync schedule's input `{ "resync": true }`. */
const reconcileEventSchema = z.looseObject({ resync: z.boolean().optional() });

/**
 * EventBridge schedules → queues again unschedulable bindings that are due and bindings needing
 * failover; on the slower resync schedule, sends the templates whose binding is out of step to
 * policy-change again.
 */
export const handler = middy(async (event: unknown): Promise<{ requeued: number } | { resynced: number }> => {
  const { resync } = reconcileEventSchema.parse(event ?? {});
  const controller = new ReconcileController(controllerContext());
  if (resync) {
    const resynced = await controller.resync();
    logger.info('resync finished', { resynced });
    return { resynced };
  }
  const { requeued, needs } = await controller.run();
  logger.info('reconcile finished', { requeued, needs });
  return { requeued };
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
