import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpRequest {
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly timeoutMs: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One header of an answer as a single value (repeated headers joined), or null when absent. */
export function headerOf(answer: HttpAnswer, name: string): string | null {
  const value = answer.headers[name.toLowerCase()];
  return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
}

/** Raised when the server did not answer within the request's time. */
export class HttpTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
    this.name = 'HttpTimeoutError';
  }
}

/**
 * One request and its whole answer, on node:http. The command line makes a few requests per call;
 * fetch's parser is WebAssembly that V8 optimises in the background, and every process that used it
 * waits about a fifth of a second at exit for that to finish.
 */
export function sendHttpRequest(url: URL, request: HttpRequest): Promise<HttpAnswer> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const signal = AbortSignal.timeout(request.timeoutMs);
  return new Promise((resolve, reject) => {
    const failed = (error: Error) => reject(signal.aborted ? new HttpTimeoutError(request.timeoutMs) : error);
    const outgoing = send(url, { method: request.method, headers: request.headers, signal }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', failed);
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, statusText: incoming.statusMessage ?? '', headers: incoming.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', failed);
    outgoing.end(request.body);
  });
}
