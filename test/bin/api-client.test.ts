import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../bin/client/api-client';

describe('ApiClient against a throttling server', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server that answers 429 (Retry-After: 0) to the first `throttled` requests, then 200. */
  async function throttling(throttled: number): Promise<{ url: string; requests: () => number }> {
    let requests = 0;
    server = createServer((_request, response) => {
      requests += 1;
      if (requests <= throttled) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0' });
        response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'TooManyRequests', message: 'slow down', code: 429 }));
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ kind: 'List', items: [] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => requests };
  }

  it('waits as Retry-After says and tries again, as kubectl does', async () => {
    const { url, requests } = await throttling(2);
    expect(await new ApiClient(url).get('/apis/apps/v1/deployments')).toEqual({ kind: 'List', items: [] });
    expect(requests()).toBe(3);
  });

  it('gives up after five attempts with the server\'s Status', async () => {
    const { url, requests } = await throttling(100);
    await expect(new ApiClient(url).get('/apis/apps/v1/deployments')).rejects.toThrow(/slow down/);
    expect(requests()).toBe(5);
  });
});

describe('ApiClient requests', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function answering(status: number, headers: Record<string, string>, seen: Array<Record<string, unknown>>): Promise<string> {
    server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(JSON.stringify({ kind: 'List', items: [] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('name outrank as their user agent, as kubectl names itself (the server makes it the field manager of writes)', async () => {
    const seen: Array<Record<string, unknown>> = [];
    await new ApiClient(await answering(200, {}, seen)).get('/version');
    expect(seen[0]!['user-agent']).toMatch(/^outrank\/\d+\.\d+\.\d+ \(\w+\/\w+\)$/);
  });

  it('say where a server redirects rather than report a bare 3xx', async () => {
    const url = await answering(308, { location: 'https://outrank.example/prod/version' }, []);
    await expect(new ApiClient(url).get('/version')).rejects.toThrow(`redirects GET /version to https://outrank.example/prod/version: pass the server that answers as --server`);
  });
});

describe('ApiClient lists as kubectl does', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('500 at a time, following each continue token, and answers the first page with every item', async () => {
    const asked: Array<Record<string, string>> = [];
    server = createServer((request, response) => {
      const query = Object.fromEntries(new URL(request.url!, 'http://x').searchParams);
      asked.push(query);
      const page = Number(query.continue ?? '0');
      const last = page === 2;
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: { resourceVersion: `v${page}`, ...(last ? {} : { continue: String(page + 1) }) }, items: [{ page }] }));
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', () => resolve()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const list = await new ApiClient(url).list('/apis/apps/v1/deployments', { labelSelector: 'app=web' });
    expect(list).toEqual({ apiVersion: 'apps/v1', kind: 'DeploymentList', metadata: { resourceVersion: 'v0' }, items: [{ page: 0 }, { page: 1 }, { page: 2 }] });
    expect(asked).toEqual([
      { labelSelector: 'app=web', limit: '500' },
      { labelSelector: 'app=web', limit: '500', continue: '1' },
      { labelSelector: 'app=web', limit: '500', continue: '2' },
    ]);
  });
});
