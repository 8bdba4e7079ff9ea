import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpTimeoutError, sendHttpRequest } from '../../bin/client/http-request';

let server: Server | undefined;

async function serve(handler: Parameters<typeof createServer>[1]): Promise<URL> {
  server = createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/x?watch=0`);
}

afterEach(async () => {
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server!.close(resolve));
  server = undefined;
});

describe("the command line's HTTP request", () => {
  it('sends the method, headers and body, and reads the whole answer with its status and headers', async () => {
    const url = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        response.writeHead(409, 'Conflict', { 'retry-after': '2', 'content-type': 'application/json' });
        response.end(JSON.stringify({ method: request.method, url: request.url, type: request.headers['content-type'], body }));
      });
    });
    const answer = await sendHttpRequest(url, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: '{"a":1}', timeoutMs: 5_000 });
    expect(answer).toMatchObject({ status: 409, statusText: 'Conflict', headers: { 'retry-after': '2' } });
    expect(JSON.parse(answer.text)).toEqual({ method: 'PATCH', url: '/apis/x?watch=0', type: 'application/merge-patch+json', body: '{"a":1}' });
  });

  it('gives up with HttpTimeoutError when the server does not answer in time', async () => {
    const url = await serve(() => undefined);
    await expect(sendHttpRequest(url, { method: 'GET', headers: {}, timeoutMs: 200 })).rejects.toBeInstanceOf(HttpTimeoutError);
  });

  it('fails with the connection error when nothing listens', async () => {
    const url = await serve(() => undefined);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    await expect(sendHttpRequest(url, { method: 'GET', headers: {}, timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
