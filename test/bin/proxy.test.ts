/**
 * `outrank proxy`: the console and the API on 127.0.0.1, each request forwarded (signed when the API
 * wants IAM signatures) and each answer streamed back, watches included; kubectl works through it.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildConsole } from '../../bin/build-console.mjs';
import { startProxy, type Proxy } from '../../bin/client/proxy';
import { startTestApi, type TestApi } from './support/api-server';
import { kubectlInstalled } from './support/kubectl-installed';

const run = promisify(execFile);

let api: TestApi;
let proxy: Proxy;

describe('outrank proxy', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    const built = await mkdtemp(join(tmpdir(), 'outrank-proxy-console-'));
    await buildConsole(built);
    api = await startTestApi();
    proxy = await startProxy({ server: api.url, port: 0, signer: undefined, consoleDir: built });
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
    const seen: IncomingHttpHeaders[] = [];
    const upstream = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const signing = await startProxy({
      server: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      port: 0,
      signer: { sign: async ({ method, url, headers }) => ({ ...headers, authorization: `signed ${method} ${url.pathname}` }) },
      consoleDir: undefined,
    });
    await fetch(`${signing.url}/version`, { headers: { authorization: 'Bearer someone-else' } });
    expect(seen[0]!.authorization).toBe('signed GET /version');
    await signing.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });
});
