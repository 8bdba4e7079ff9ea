import type { ApiEvent } from '../../functions/caller-identity';

/**
 * An HTTP API payload v2 event as API Gateway sends it: for a route with IAM authorization, signed by
 * `userArn`, when one is given; else as a route without an authorizer would (a misconfigured stack).
 */
export function apiEvent(method: string, path: string, options: { body?: unknown; userArn?: string; contentType?: string } = {}): ApiEvent {
  const now = Date.now();
  const { userArn } = options;
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': options.contentType ?? 'application/json' },
    requestContext: {
      accountId: '111111111111',
      apiId: 'api',
      domainName: 'api.example.com',
      domainPrefix: 'api',
      http: { method, path, protocol: 'HTTP/1.1', sourceIp: '192.0.2.1', userAgent: 'test' },
      requestId: `${now}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
      ...(userArn === undefined
        ? {}
        : {
            authorizer: {
              iam: {
                accessKey: 'ASIAEXAMPLE',
                accountId: '111111111111',
                callerId: 'AROAEXAMPLE:session',
                cognitoIdentity: null,
                principalOrgId: 'o-example',
                userArn,
                userId: 'AROAEXAMPLE:session',
              },
            },
          }),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    isBase64Encoded: false,
  };
}
