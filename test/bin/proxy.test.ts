/**
 * `outrank proxy`: the console and the API on 127.0.0.1, each request forwarded (signed when the API
 * wants IAM signatures) and each answer streamed back, watches included; kubectl works through it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../bin/build-console.mjs';
import { sendHttpRequest } from '../../bin/client/http-request';
import { startProxy, type Proxy } from '../../bin/client/proxy';
import { DEFAULT_ACCEPT_HOSTS, parseAcceptHosts, type LoopbackGuard } from '../../lib/http/loopback-guard';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';

const run = promisify(execFile);

let api: TestApi;
let proxy: Proxy;

const LOOPBACK: LoopbackGuard = { acceptHosts: parseAcceptHosts(DEFAULT_ACCEPT_HOSTS), setting: '--accept-hosts' };

interface Upstream {
  readonly url: string;
  /** Each request that reached it: method, path and headers. */
  readonly seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders }>;
  close(): Promise<void>;
}

/** An API that records what reaches it and answers {}. */
async function recordingUpstream(): Promise<Upstream> {
  const seen: Upstream['seen'] = [];
  const server: Server = createServer((request, response) => {
    seen.push({ method: request.method!, url: request.url!, headers: request.headers });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A request as a browser, or anyone, may send it: Host and Origin as given, whatever address it went to. */
function send(url: string, method: string, headers: Record<string, string>, body?: string) {
  return sendHttpRequest(new URL(url), { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body }), timeoutMs: 5_000 });
}

describe('outrank proxy', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const built = await mkdtemp(join(tmpdir(), 'outrank-proxy-console-'));
    await buildConsole(built);
    api = await startTestApi();
    proxy = await startProxy({ server: api.url, port: 0, signer: undefined, consoleDir: built, guard: LOOPBACK });
  });
  afterAll(async () => {
    await proxy.close();
    await api.close();
  });

  it('serves the console at / and forwards the API', async () => {
    const page = await fetch(`${proxy.url}/`);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('/console/app.js');
    const created = await fetch(`${proxy.url}/apis/scheduling.k8s.io/v1/priorityclasses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 10 }),
    });
    expect(created.status).toBe(201);
    expect(api.requests).toContain('POST /apis/scheduling.k8s.io/v1/priorityclasses');
    // The console's own calls carry its origin (a browser sends Origin on a POST, PATCH or DELETE).
    const fromConsole = await send(`${proxy.url}/apis/scheduling.k8s.io/v1/priorityclasses/high`, 'PATCH', { host: new URL(proxy.url).host, origin: proxy.url, 'content-type': 'application/merge-patch+json' }, '{"description":"from the console"}');
    expect(fromConsole.status).toBe(200);
    // A page under another name is not even given the console.
    expect((await send(`${proxy.url}/`, 'GET', { host: 'attacker.example' })).status).toBe(403);
  });

  it('streams a watch through as its events come', async () => {
    const controller = new AbortController();
    const response = await fetch(`${proxy.url}/apis/scheduling.k8s.io/v1/priorityclasses?watch=1`, { signal: controller.signal });
    const reader = response.body!.getReader();
    const { value } = await reader.read();
    expect(JSON.parse(new TextDecoder().decode(value).split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'high' } } });
    controller.abort();
  });

  it.runIf(kubectlInstalled('proxy'))('lets kubectl reach the API through it', async () => {
    const { stdout } = await run('kubectl', ['get', 'priorityclasses', '-o', 'name', '--server', proxy.url], { env: { ...process.env, KUBECONFIG: '/dev/null' } });
    expect(stdout).toBe('priorityclass.scheduling.k8s.io/high\n');
  });

  it('signs each request it forwards when the API wants signatures, never passing on a caller\'s own', async () => {
    const upstream = await recordingUpstream();
    const signing = await startProxy({
      server: upstream.url,
      port: 0,
      signer: { sign: async ({ method, url, headers }) => ({ ...headers, authorization: `signed ${method} ${url.pathname}` }) },
      consoleDir: undefined,
      guard: LOOPBACK,
    });
    await fetch(`${signing.url}/version`, { headers: { authorization: 'Bearer someone-else' } });
    expect(upstream.seen[0]!.headers.authorization).toBe('signed GET /version');
    await signing.close();
    await upstream.close();
  });

  describe('against DNS rebinding and cross-origin pages', () => {
    let upstream: Upstream;
    let signing: Proxy;
    let port: string;
    const PRIORITY_CLASS = JSON.stringify({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'stolen' }, value: 1 });
    beforeAll(async () => {
      upstream = await recordingUpstream();
      signing = await startProxy({
        server: upstream.url,
        port: 0,
        signer: { sign: async ({ headers }) => ({ ...headers, authorization: 'signed with the user\'s credentials' }) },
        consoleDir: undefined,
        guard: LOOPBACK,
      });
      port = new URL(signing.url).port;
    });
    afterAll(async () => {
      await signing.close();
      await upstream.close();
    });

    it.each(['attacker.example', 'attacker.example:PORT', 'localhost.attacker.example:PORT'])(
      'refuses a page whose name resolved to 127.0.0.1 (Host %s) with 403 Forbidden, forwarding nothing, signing nothing',
      async (host) => {
        upstream.seen.length = 0;
        const hostHeader = host.replace('PORT', port);
        for (const method of ['GET', 'POST', 'DELETE']) {
          const answer = await send(`${signing.url}/apis/scheduling.k8s.io/v1/priorityclasses`, method, { host: hostHeader }, method === 'POST' ? PRIORITY_CLASS : undefined);
          expect(answer.status).toBe(403);
          expect(JSON.parse(answer.text)).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
          expect(JSON.parse(answer.text).message).toContain(`the Host "${hostHeader}" is not one this server accepts (--accept-hosts ^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$)`);
          expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
        }
        expect(upstream.seen).toEqual([]);
      },
    );

    it.each(['http://attacker.example', `http://localhost:1`, 'null'])('refuses a request from a page of another origin (Origin %s) on a loopback Host, forwarding nothing', async (origin) => {
      upstream.seen.length = 0;
      for (const method of ['GET', 'POST']) {
        const answer = await send(`${signing.url}/apis/scheduling.k8s.io/v1/priorityclasses`, method, { host: `localhost:${port}`, origin }, method === 'POST' ? PRIORITY_CLASS : undefined);
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.text)).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
        expect(JSON.parse(answer.text).message).toContain(`the request comes from a page of another origin (Origin ${JSON.stringify(origin)})`);
        expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      }
      expect(upstream.seen).toEqual([]);
    });

    it.each(['localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', 'localhost', '[::1]'])('forwards a request by a loopback name (Host %s), signed', async (host) => {
      upstream.seen.length = 0;
      const answer = await send(`${signing.url}/apis/scheduling.k8s.io/v1/priorityclasses`, 'POST', { host: host.replace('PORT', port) }, PRIORITY_CLASS);
      expect(answer.status).toBe(200);
      expect(upstream.seen.map((request) => [request.method, request.url, request.headers.authorization])).toEqual([
        ['POST', '/apis/scheduling.k8s.io/v1/priorityclasses', 'signed with the user\'s credentials'],
      ]);
    });

    it('forwards a request from its own page (the console: Origin the proxy itself)', async () => {
      upstream.seen.length = 0;
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) {
        const answer = await send(`${signing.url}/apis/scheduling.k8s.io/v1/priorityclasses`, 'POST', { host, origin: `http://${host}` }, PRIORITY_CLASS);
        expect(answer.status).toBe(200);
      }
      expect(upstream.seen).toHaveLength(3);
    });

    it('serves the Host names --accept-hosts adds', async () => {
      const wider = await startProxy({
        server: upstream.url,
        port: 0,
        signer: undefined,
        consoleDir: undefined,
        guard: { acceptHosts: parseAcceptHosts(String.raw`^localhost$,^outrank\.test$`), setting: '--accept-hosts' },
      });
      upstream.seen.length = 0;
      const widerPort = new URL(wider.url).port;
      expect((await send(`${wider.url}/version`, 'GET', { host: `outrank.test:${widerPort}` })).status).toBe(200);
      expect((await send(`${wider.url}/version`, 'GET', { host: `outrank.test:${widerPort}`, origin: `http://outrank.test:${widerPort}` })).status).toBe(200);
      expect((await send(`${wider.url}/version`, 'GET', { host: `127.0.0.1:${widerPort}` })).status).toBe(403);
      expect((await send(`${wider.url}/version`, 'GET', { host: 'attacker.example' })).status).toBe(403);
      expect(upstream.seen).toHaveLength(2);
      await wider.close();
    });
  });
});
