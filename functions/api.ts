import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { Authorizer } from '../lib/auth/authorizer';
import { storedPriorityClasses } from '../lib/auth/priority-class-lookup';
import { ObjectService } from '../lib/controllers/object-service';
import type { ApiAccess } from '../lib/http/api-types';
import { answerWithin } from '../lib/http/answer-within';
import { handleApiRequest } from '../lib/http/handle-request';
import { callerIdentity, type ApiEvent } from './caller-identity';
import { controllerContext, tenancySettings } from './context';
import { logger, metrics } from './observability';

function lowerCaseHeaders(headers: ApiEvent['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** With tenancy configured, the caller's identity and the authorizer; without, none (every caller is an admin). */
function accessOf(event: ApiEvent): { access?: ApiAccess } {
  const tenancy = tenancySettings();
  if (!tenancy) return {};
  return { access: { identity: callerIdentity(event), authorizer: new Authorizer(tenancy, storedPriorityClasses(controllerContext().store)) } };
}

/** Time kept back from the function's time-out to send the answer. */
const ANSWER_MARGIN_MS = 1_500;

/** API Gateway HTTP API (payload v2) → the Kubernetes-style API, answered within the function's time (answer-within.ts). */
export const handler = middy(async (event: ApiEvent, lambda: Context): Promise<APIGatewayProxyStructuredResultV2> => {
  const context = controllerContext();
  const bytes = event.body === undefined ? undefined : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
  const method = event.requestContext.http.method;
  const work = handleApiRequest(
    {
      method,
      path: event.rawPath,
      query: event.queryStringParameters ?? {},
      headers: lowerCaseHeaders(event.headers),
      body: bytes?.toString('utf8'),
      ...(bytes ? { bodyBytes: bytes } : {}),
    },
    {
      objects: new ObjectService(context),
      store: context.store,
      events: context.events,
      queues: context.queues,
      clock: context.clock,
      onInternalError: (error) => logger.error('internal error', error as Error),
      caller: callerIdentity(event),
      ...accessOf(event),
    },
  );
  const response = await answerWithin(lambda.getRemainingTimeInMillis() - ANSWER_MARGIN_MS, method, work);
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
