import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { ObjectService } from '../lib/controllers/object-service';
import { handleApiRequest } from '../lib/http/handle-request';
import { controllerContext } from './context';
import { logger, metrics } from './observability';

function lowerCaseHeaders(headers: APIGatewayProxyEventV2['headers']): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

/** API Gateway HTTP API (payload v2) → the Kubernetes-style API. */
export const handler = middy(async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
  const context = controllerContext();
  const body = event.body === undefined ? undefined : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  const response = await handleApiRequest(
    {
      method: event.requestContext.http.method,
      path: event.rawPath,
      query: event.queryStringParameters ?? {},
      headers: lowerCaseHeaders(event.headers),
      body,
    },
    {
      objects: new ObjectService(context),
      store: context.store,
      events: context.events,
      queues: context.queues,
      onInternalError: (error) => logger.error('internal error', error as Error),
    },
  );
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
