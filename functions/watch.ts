import { setTimeout as delay } from 'node:timers/promises';
import type { Context } from 'aws-lambda';
import { answerWithin } from '../lib/http/answer-within';
import { handleApiRequest } from '../lib/http/handle-request';
import { failureStatus } from '../lib/http/status';
import { isWatchRequest, type WatchTiming } from '../lib/http/watch';
import { serveWatchRequest } from '../lib/http/watch-request';
import { DEFAULT_WATCHES_PER_CALLER, WatchSlots } from '../lib/http/watch-slots';
import type { ObjectStore } from '../lib/ports/object-store';
import { apiDependenciesOf, apiRequestOf } from './api-request';
import type { ApiEvent } from './caller-identity';
import { logger } from './observability';

/**
 * The API with watch, streamed: a Lambda function URL in RESPONSE_STREAM mode on the stack, and the
 * local runtime's gateway for watch requests. A watch writes one JSON event per line as the change
 * feed gives them; every other request is answered as the api function answers it, so a client
 * pointed at the function URL (kubectl among them) has the whole API.
 *
 * The watches of one process read each kind's change feed once per poll between them
 * (lib/http/shared-change-feed.ts), and each caller holds at most OUTRANK_WATCHES_PER_CALLER of them
 * (default 20). The local runtime serves every watch from one process, so both bind there. A Lambda
 * execution environment handles one invocation at a time, a stream included: on the stack each
 * environment serves one watch, its feed shared with no other and its caller's count at most one, so
 * there the function's concurrency bounds the watches; the code path is the same.
 */

/** Where a streamed response goes: its status and headers once, then its body in pieces. */
export interface ResponseStream {
  start(statusCode: number, headers: Record<string, string>): void;
  write(chunk: string): void;
  end(): void;
}

/** Time kept back from the function's time-out to end the stream cleanly, so the client watches again. */
const END_MARGIN_MS = 5_000;

export function watchTiming(remainingMs: number, pollIntervalMs: number): WatchTiming {
  return {
    pollIntervalMs,
    bookmarkIntervalMs: 10_000,
    maxTimeoutSeconds: Math.max(1, Math.floor((remainingMs - END_MARGIN_MS) / 1000)),
    now: Date.now,
    sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
  };
}

const WATCHES_PER_CALLER_VARIABLE = 'OUTRANK_WATCHES_PER_CALLER';

/** How many watches one caller may hold open in this process: OUTRANK_WATCHES_PER_CALLER, default 20. */
export function watchesPerCaller(environment: NodeJS.ProcessEnv): number {
  const value = environment[WATCHES_PER_CALLER_VARIABLE];
  if (value === undefined || value === '') return DEFAULT_WATCHES_PER_CALLER;
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count < 1) throw new Error(`${WATCHES_PER_CALLER_VARIABLE}: must be a positive integer, not "${value}"`);
  return count;
}

let slots: WatchSlots | undefined;

/** The watches each caller holds in this process (execution environment), counted on first use. */
function watchSlots(): WatchSlots {
  slots ??= new WatchSlots(watchesPerCaller(process.env));
  return slots;
}

/**
 * Serves one request on a stream: a watch event by event, anything else in one piece. `watchStore`,
 * when given, is the store a watch reads (the local runtime's marks its requests as background).
 */
export async function streamApiRequest(event: ApiEvent, stream: ResponseStream, signal: AbortSignal, timing: WatchTiming, watchStore?: ObjectStore): Promise<void> {
  const request = apiRequestOf(event);
  const deps = apiDependenciesOf(event);
  const served = isWatchRequest(request)
    ? await serveWatchRequest(request, watchStore ? { ...deps, store: watchStore } : deps, timing, watchSlots())
    : await answerWithin(timing.maxTimeoutSeconds * 1000, request, (answered) => handleApiRequest(request, deps, AbortSignal.any([answered, signal])));
  if ('statusCode' in served) {
    stream.start(served.statusCode, served.headers);
    stream.write(served.body);
    stream.end();
    return;
  }
  stream.start(200, { 'content-type': 'application/json', 'cache-control': 'no-cache' });
  try {
    await served.run({ signal, send: (watchEvent) => stream.write(`${JSON.stringify(watchEvent)}\n`) });
  } catch (error) {
    logger.error('watch failed', error as Error);
    stream.write(`${JSON.stringify({ type: 'ERROR', object: failureStatus('InternalError', 'an internal error occurred; watch again') })}\n`);
  } finally {
    stream.end();
  }
}

/** The Lambda runtime's streaming interface (only there, as the global `awslambda`). */
interface LambdaStreaming {
  streamifyResponse(handler: (event: ApiEvent, responseStream: NodeJS.WritableStream, context: Context) => Promise<void>): unknown;
  HttpResponseStream: { from(stream: NodeJS.WritableStream, metadata: { statusCode: number; headers: Record<string, string> }): NodeJS.WritableStream };
}

/** The Lambda runtime's, when this runs in one; elsewhere (the local runtime, tests) absent or without streaming. */
const runtime = (globalThis as { awslambda?: Partial<LambdaStreaming> }).awslambda;
const streaming = typeof runtime?.streamifyResponse === 'function' ? (runtime as LambdaStreaming) : undefined;

/** How often a watch on the stack reads the change feed: one DynamoDB Query per watched kind per second in each execution environment. */
const LAMBDA_POLL_INTERVAL_MS = 1_000;

export const handler = streaming?.streamifyResponse(async (event, responseStream, context) => {
  const controller = new AbortController();
  responseStream.on('close', () => controller.abort());
  let body: NodeJS.WritableStream | undefined;
  await streamApiRequest(
    event,
    {
      start: (statusCode, headers) => (body = streaming.HttpResponseStream.from(responseStream, { statusCode, headers })),
      write: (chunk) => body?.write(chunk),
      end: () => body?.end(),
    },
    controller.signal,
    watchTiming(context.getRemainingTimeInMillis(), LAMBDA_POLL_INTERVAL_MS),
  );
});
