import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { Context } from 'aws-lambda';
import { ScheduleCycleController, type CycleReport } from '../lib/controllers/schedule-cycle';
import { withOutbox } from './adapters/outbox';
import { controllerContext } from './context';
import { logger, metrics } from './observability';

/**
 * Time kept back for committing the binding in hand and flushing metrics before the function is
 * stopped; besides it, room for what the next step needs (the controller asks with twice the longest
 * batch before a batch, twice the longest binding before each binding): work is not started unless it
 * can finish, and bindings not attempted go back to their band at once.
 */
const SAFETY_MARGIN_MS = 15_000;

/**
 * Started by a tick on the schedule-tick queue or by the schedule: drains the band queues, highest
 * band first, until they are empty or the time budget is spent. The tick itself carries nothing.
 * Deletes of band messages are held until the next receive (outbox.ts): one request per batch, and a
 * message whose delete is lost is only received again and skipped. Sends go out at once.
 */
export const handler = middy(async (_event: unknown, context: Context): Promise<CycleReport> => {
  const cycle = new ScheduleCycleController(controllerContext());
  const report = await withOutbox({ holdSends: false }, () => cycle.run((neededMs) => context.getRemainingTimeInMillis() < SAFETY_MARGIN_MS + neededMs));
  logger.info('schedule cycle finished', { ...report });
  return report;
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
