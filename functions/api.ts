import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { answerWithin } from '../lib/http/answer-within';
import { handleApiRequest } from '../lib/http/handle-request';
import { apiDependenciesOf, apiRequestOf } from './api-request';
import { deliverableAnswer } from './deliverable-answer';
import type { ApiEvent } from './caller-identity';
import { logger, metrics } from './observability';

/** Time kept back from the function's time-out to send the answer. */
const ANSWER_MARGIN_MS = 1_500;

/** API Gateway HTTP API (payload v2) → the Kubernetes-style API, answered within the function's time (answer-within.ts). */
export const handler = middy(async (event: ApiEvent, lambda: Context): Promise<APIGatewayProxyStructuredResultV2> => {
  const request = apiRequestOf(event);
  const deps = apiDependenciesOf(event);
  const answer = await answerWithin(lambda.getRemainingTimeInMillis() - ANSWER_MARGIN_MS, request, (answered) => handleApiRequest(request, deps, answered));
  const response = deliverableAnswer(answer);
  return { statusCode: response.statusCode, headers: response.headers, body: response.body };
})
  .use(injectLambdaContext(logger))
  .use(logMetrics(metrics));
