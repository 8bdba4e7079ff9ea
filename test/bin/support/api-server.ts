import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Authorizer } from '../../../lib/auth/authorizer';
import { storedPriorityClasses } from '../../../lib/auth/priority-class-lookup';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';
import type { ApiResponse } from '../../../lib/http/api-types';
import type { ConsoleAssets } from '../../../lib/http/console-assets';
import { isWatchRequest, type OpenWatch } from '../../../lib/http/watch';
import { testWatchTiming } from '../../support/watch-timing';
import { serveWatchRequest } from '../../../lib/http/watch-request';
import type { AddressInfo } from 'node:net';
import { handleApiRequest } from '../../../lib/http';
import type { MessageQueue } from '../../../lib/ports/message-queue';
import { MemorySystem } from '../../../lib/runtime/memory-system';

/**
 * When the in-memory system does its work:
 * - after-each-request: before the response goes out, so a client always sees a settled system;
 * - background: on a timer, as the local runtime's pollers do, so a client sees work in flight;
 * - without-scheduler: policies make bindings after each request, but nothing ever schedules them.
 */
export type SchedulingMode = 'after-each-request' | 'background' | 'without-scheduler';

export interface TestApi {
  readonly url: string;
  readonly system: MemorySystem;
  /** Every request's method and URL (path and query), in the order they arrived. */
  readonly requests: string[];
  /** Cuts every open connection, watches among them, as a network failure would; the server goes on. */
  dropConnections(): void;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<{ body?: string; bodyBytes?: Buffer }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return {};
  const bytes = Buffer.concat(chunks);
  return { body: bytes.toString('utf8'), bodyBytes: bytes };
}

/** Everything the scheduling cycle does not do: the policy controller makes bindings and queues them. */
async function runWithoutScheduler(system: MemorySystem): Promise<void> {
  const drain = async <T>(queue: MessageQueue<T>, handle: (body: T) => Promise<void>) => {
    for (let deliveries = await queue.receive(10); deliveries.length > 0; deliveries = await queue.receive(10)) {
      for (const delivery of deliveries) {
        await handle(delivery.body);
        await queue.delete([delivery.receipt]);
      }
    }
  };
  await drain(system.policyChangeQueue, (change) => system.policyChange.handle(change));
  await drain(system.bindingEnqueueQueue, (request) => system.bindingEnqueue.handle(request));
}

/** Watches read the change feed every 20 ms, so that tests see events at once; they last at most a minute. */
const TEST_WATCH_TIMING = testWatchTiming(20, 1_000);

/** A watch written as the local gateway writes one: one JSON event per line, until it ends or the client goes. */
async function streamWatch(served: ApiResponse | OpenWatch, response: ServerResponse): Promise<void> {
  if ('statusCode' in served) {
    response.writeHead(served.statusCode, served.headers).end(served.body);
    return;
  }
  const controller = new AbortController();
  response.on('close', () => controller.abort());
  // Headers go out at once: a client waits for them before it reads any event.
  response.writeHead(200, { 'content-type': 'application/json' }).flushHeaders();
  await served.run({ signal: controller.signal, send: (event) => void response.write(`${JSON.stringify(event)}\n`) });
  response.end();
}

/**
 * The HTTP API over a fresh in-memory system, on a free loopback port. With `tenancy`, the caller is
 * whoever the x-outrank-identity header names, as in the local runtime that trusts that header.
 */
export async function startTestApi(mode: SchedulingMode = 'after-each-request', console?: ConsoleAssets, tenancy?: TenancySettings): Promise<TestApi> {
  const system = new MemorySystem();
  const afterRequest = mode === 'after-each-request' ? () => system.runUntilIdle() : mode === 'without-scheduler' ? () => runWithoutScheduler(system) : async () => {};
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const apiRequest = {
        method: request.method ?? 'GET',
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : value])),
        body: undefined,
        ...(await readBody(request)),
      };
      const deps = {
        objects: system.objects,
        store: system.store,
        events: system.events,
        queues: [system.policyChangeQueue, system.bindingEnqueueQueue, ...system.bandQueues.values()],
        config: system.context.config,
        clock: system.clock,
        ...(console ? { console } : {}),
        ...(tenancy ? { access: { identity: apiRequest.headers['x-outrank-identity'], authorizer: new Authorizer(tenancy, storedPriorityClasses(system.store)) } } : {}),
      };
      if (isWatchRequest(apiRequest)) {
        await streamWatch(await serveWatchRequest(apiRequest, deps, TEST_WATCH_TIMING), response);
        return;
      }
      const reply = await handleApiRequest(apiRequest, deps);
      await afterRequest();
      // The system's clock is virtual: the Date header tells clients its time, as a server's tells its own.
      response.writeHead(reply.statusCode, { ...reply.headers, date: new Date(system.clock.now()).toUTCString() }).end(reply.body);
    })();
  });
  // Background work never overlaps itself: a run that outlasts the interval is not started twice.
  let running: Promise<void> | undefined;
  const timer =
    mode === 'background'
      ? setInterval(() => {
          running ??= system.runUntilIdle().finally(() => (running = undefined));
        }, 20)
      : undefined;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    system,
    requests,
    dropConnections: () => server.closeAllConnections(),
    close: async () => {
      clearInterval(timer);
      await running;
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}
