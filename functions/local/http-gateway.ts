import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2WithIAMAuthorizer, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { DEFAULT_ACCEPT_HOSTS, loopbackRefusal, parseAcceptHosts, type LoopbackGuard } from '../../lib/http/loopback-guard';
import { failureStatus, statusResponse, type StatusDetails, type StatusReason } from '../../lib/http/status';
import type { ApiEvent } from '../caller-identity';
import type { ResponseStream } from '../watch';
import { localLambdaContext } from './lambda-context';
import { localIdentity, type LocalIdentity } from './local-identity';

export type HttpApiHandler = (event: ApiEvent, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** What the gateway reads of a body; the API refuses bodies over 1 MiB itself, with a Status saying so. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * Requests handled at once; more are answered 429 Too Many Requests with Retry-After, as the stack's
 * API Gateway throttles, rather than queued until every one of them times out.
 */
const MAX_IN_FLIGHT = 64;

/** Watches stay open for minutes: they are counted apart from requests, and bounded on their own. */
const MAX_WATCHES = 256;

class BodyTooLargeError extends Error {}

/** As a Lambda function URL in RESPONSE_STREAM mode calls its handler: the event, a stream for the answer, and a signal for a client gone. */
export type StreamingHandler = (event: APIGatewayProxyEventV2WithIAMAuthorizer, stream: ResponseStream, signal: AbortSignal) => Promise<void>;

function isWatch(request: IncomingMessage): boolean {
  const watch = new URL(request.url ?? '/', 'http://localhost').searchParams.get('watch');
  return request.method === 'GET' && (watch === '1' || watch === 'true');
}

async function streamTo(response: ServerResponse, streamHandler: StreamingHandler, request: IncomingMessage, identify: LocalIdentity): Promise<void> {
  const controller = new AbortController();
  response.on('close', () => controller.abort());
  try {
    await streamHandler(
      toEvent(request, await readBody(request), identify),
      {
        // Headers go out at once: a watching client waits for them before it reads any event.
        start: (statusCode, headers) => response.writeHead(statusCode, headers).flushHeaders(),
        write: (chunk) => response.write(chunk),
        end: () => response.end(),
      },
      controller.signal,
    );
  } catch {
    if (!response.headersSent) failure(response, 'InternalError', 'an internal error occurred');
    else response.end();
  }
}

/** The body as API Gateway passes any body it does not take for text: base64, so that binary bodies (protobuf) arrive intact. */
async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new BodyTooLargeError(`the request body is too large: at most ${MAX_BODY_BYTES} bytes are read`);
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('base64');
}

/** A Kubernetes Status answered by the gateway itself, as the API answers its own (Retry-After from its details). */
function failure(response: ServerResponse, reason: StatusReason, message: string, details?: StatusDetails): void {
  const answer = statusResponse(failureStatus(reason, message, details));
  response.writeHead(answer.statusCode, { ...answer.headers, connection: 'close' });
  response.end(answer.body);
}

const LOCAL_ACCOUNT = '000000000000';

/** As API Gateway's IAM authorizer reports the signer; here the principal is whatever the local identity says. */
function iamAuthorizer(principal: string): APIGatewayProxyEventV2WithIAMAuthorizer['requestContext']['authorizer'] {
  return {
    iam: { accessKey: '', accountId: LOCAL_ACCOUNT, callerId: principal, cognitoIdentity: null, principalOrgId: '', userArn: principal, userId: principal },
  };
}

function toEvent(request: IncomingMessage, body: string | undefined, identify: LocalIdentity): APIGatewayProxyEventV2WithIAMAuthorizer {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers = Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value]),
  );
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: url.search ? Object.fromEntries(url.searchParams) : undefined,
    requestContext: {
      accountId: LOCAL_ACCOUNT,
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: 'HTTP/1.1',
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId: `${now}`,
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toISOString(),
      timeEpoch: now,
      authorizer: iamAuthorizer(identify(request.headers)),
    },
    body,
    isBase64Encoded: body !== undefined,
  };
}

/** The Host names the gateway serves: OUTRANK_ACCEPT_HOSTS, as `outrank proxy --accept-hosts` takes them (default the loopback names). */
export function acceptedHosts(environment: NodeJS.ProcessEnv): LoopbackGuard {
  try {
    return { acceptHosts: parseAcceptHosts(environment.OUTRANK_ACCEPT_HOSTS || DEFAULT_ACCEPT_HOSTS), setting: 'OUTRANK_ACCEPT_HOSTS' };
  } catch (error) {
    throw new Error(`OUTRANK_ACCEPT_HOSTS: ${(error as Error).message}`);
  }
}

/**
 * Serves an HTTP API handler on a loopback port, shaping requests as API Gateway's payload v2 does
 * with IAM authorization, the caller being who `identify` says (by default from OUTRANK_IDENTITY and
 * OUTRANK_TRUST_IDENTITY_HEADER: see local-identity.ts). Every caller acts as that identity, so a
 * request by a foreign Host or from a page of another origin is refused first (lib/http/loopback-guard.ts).
 */
export function startHttpGateway(
  handler: HttpApiHandler,
  port: number,
  identify: LocalIdentity = localIdentity(process.env),
  maxInFlight = MAX_IN_FLIGHT,
  streamHandler?: StreamingHandler,
  guard: LoopbackGuard = acceptedHosts(process.env),
): Promise<Server> {
  let inFlight = 0;
  let watching = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const refusal = loopbackRefusal(request.headers, guard);
    if (refusal) {
      failure(response, 'Forbidden', refusal);
      request.resume();
      return;
    }
    if (streamHandler && isWatch(request)) {
      if (watching >= MAX_WATCHES) {
        failure(response, 'TooManyRequests', `more than ${MAX_WATCHES} watches at once; retry after 1 s`, { retryAfterSeconds: 1 });
        request.resume();
        return;
      }
      watching += 1;
      void streamTo(response, streamHandler, request, identify).finally(() => (watching -= 1));
      return;
    }
    if (inFlight >= maxInFlight) {
      failure(response, 'TooManyRequests', `more than ${maxInFlight} requests at once; retry after 1 s`, { retryAfterSeconds: 1 });
      request.resume();
      return;
    }
    inFlight += 1;
    void (async () => {
      try {
        const result = await handler(toEvent(request, await readBody(request), identify), localLambdaContext('outrank-api', 29_000));
        response.writeHead(result.statusCode ?? 200, result.headers as Record<string, string>);
        response.end(result.body ?? '');
      } catch (error) {
        if (error instanceof BodyTooLargeError) failure(response, 'RequestEntityTooLarge', error.message);
        else failure(response, 'InternalError', 'an internal error occurred');
      } finally {
        inFlight -= 1;
      }
    })();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}
