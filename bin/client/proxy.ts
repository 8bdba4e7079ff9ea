import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { consoleAssets, consoleResponse } from '../../lib/http/console-assets';
import { loopbackRefusal, type LoopbackGuard } from '../../lib/http/loopback-guard';
import { failureStatus } from '../../lib/http/status';
import type { RequestSigner } from './sigv4-signer';

/**
 * `outrank proxy`, as `kubectl proxy`: a loopback server that forwards every request to the API, signed
 * when the API wants IAM signatures, and serves the web console beside it — so that a browser, or
 * kubectl, reaches a deployed outrank with the credentials of the person running it. Responses are
 * streamed through as they come, watches included.
 */

export interface Proxy {
  readonly url: string;
  close(): Promise<void>;
}

export interface ProxyOptions {
  readonly server: string;
  readonly port: number;
  readonly signer: RequestSigner | undefined;
  /** Where the console's built files are; without them only the API is proxied. */
  readonly consoleDir: string | undefined;
  /** The Host names served (`--accept-hosts`), and the refusal of other origins: see lib/http/loopback-guard.ts. */
  readonly guard: LoopbackGuard;
}

/** Headers a hop must not pass on, and those the signature or fetch sets afresh. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'accept-encoding', 'authorization', 'x-amz-date', 'x-amz-security-token', 'x-amz-content-sha256']);

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : Buffer.concat(chunks).toString('utf8');
}

async function forward(request: IncomingMessage, response: ServerResponse, options: ProxyOptions, signal: AbortSignal): Promise<void> {
  const url = new URL(request.url ?? '/', options.server);
  const body = await readBody(request);
  const unsigned = Object.fromEntries(
    Object.entries(request.headers).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && !NOT_FORWARDED.has(entry[0])),
  );
  const method = request.method ?? 'GET';
  const headers = options.signer ? await options.signer.sign({ method, url, headers: unsigned, ...(body === undefined ? {} : { body }) }) : unsigned;
  const answer = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }), signal });
  const passed = Object.fromEntries([...answer.headers].filter(([name]) => !NOT_FORWARDED.has(name) && name !== 'content-encoding'));
  response.writeHead(answer.status, passed).flushHeaders();
  if (answer.body) await pipeline(Readable.fromWeb(answer.body as WebReadableStream), response);
  else response.end();
}

/** Starts the proxy on 127.0.0.1 (never another address: it acts with its user's credentials). */
export async function startProxy(options: ProxyOptions): Promise<Proxy> {
  const assets = options.consoleDir ? await loadConsole(options.consoleDir) : undefined;
  const server: Server = createServer((request, response) => {
    const refusal = loopbackRefusal(request.headers, options.guard);
    if (refusal) {
      // Refused before its body is read or anything is forwarded.
      response.writeHead(403, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify(failureStatus('Forbidden', refusal)));
      request.resume();
      return;
    }
    const page = assets && consoleResponse({ method: request.method ?? 'GET', path: new URL(request.url ?? '/', 'http://localhost').pathname, query: {}, headers: {}, body: undefined }, assets);
    if (page) {
      response.writeHead(page.statusCode, page.headers).end(page.body);
      return;
    }
    const controller = new AbortController();
    response.on('close', () => controller.abort());
    forward(request, response, options, controller.signal).catch((error: Error) => {
      if (response.headersSent) response.destroy();
      else response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason: 'BadGateway', message: `the API did not answer: ${error.message}`, code: 502 }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function loadConsole(folder: string) {
  try {
    const files = await Promise.all(['index.html', 'app.js', 'style.css'].map(async (file) => [file, await readFile(join(folder, file), 'utf8')] as const));
    const byName = new Map(files);
    return consoleAssets((file) => byName.get(file)!);
  } catch {
    return undefined;
  }
}
