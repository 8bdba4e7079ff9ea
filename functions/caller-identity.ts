import type { APIGatewayProxyEventV2, APIGatewayProxyEventV2WithIAMAuthorizer } from 'aws-lambda';

/** An HTTP API event; every route of the stack uses IAM authorization, which adds the signer's identity. */
export type ApiEvent = APIGatewayProxyEventV2 | APIGatewayProxyEventV2WithIAMAuthorizer;

/**
 * The caller as API Gateway's IAM authorizer verified it: the ARN of the signer (for a role session,
 * `arn:aws:sts::<account>:assumed-role/<role>/<session>`). Nothing the client sends (no header) is
 * consulted, since a client could send anything. Undefined when the event carries no authorizer.
 */
export function callerIdentity(event: ApiEvent): string | undefined {
  const userArn = 'authorizer' in event.requestContext ? event.requestContext.authorizer?.iam?.userArn : undefined;
  return typeof userArn === 'string' && userArn.length > 0 ? userArn : undefined;
}
