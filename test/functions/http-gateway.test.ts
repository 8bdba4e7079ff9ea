import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendHttpRequest } from '../../bin/client/http-request';
import { acceptedHosts, startHttpGateway } from '../../functions/local/http-gateway';
import type { LoopbackGuard } from '../../lib/http/loopback-guard';

describe('the local HTTP gateway', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function gateway(hold: Promise<void> = Promise.resolve(), maxInFlight?: number, guard = acceptedHosts({})): Promise<{ url: string; handled: string[]; watched: string[] }> {
    const handled: string[] = [];
    const watched: string[] = [];
    const server = await startHttpGateway(
      async (event) => {
        // As API Gateway passes binary bodies: base64, said by isBase64Encoded.
        handled.push(event.body === undefined ? '' : event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body);
        await hold;
        return { statusCode: 200, body: 'ok' };
      },
      0,
      () => 'admin',
      maxInFlight,
      async (event, stream) => {
        watched.push(event.rawPath);
        stream.start(200, { 'content-type': 'application/json' });
        stream.end();
      },
      guard,
    );
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, handled, watched };
  }

  /** A request as a browser, or anyone, may send it: Host and Origin as given, whatever address it went to. */
  function send(url: string, method: string, headers: Record<string, string>, body?: string) {
    return sendHttpRequest(new URL(url), { method, headers: { 'content-type': 'application/json', ...headers }, ...(body === undefined ? {} : { body }), timeoutMs: 5_000 });
  }

  it('answers a body over 2 MiB with 413 RequestEntityTooLarge as a Status, without calling the handler', async () => {
    const { url, handled } = await gateway();
    const reply = await fetch(url, { method: 'POST', body: 'x'.repeat(3 * 1024 * 1024), headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(413);
    expect(await reply.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'RequestEntityTooLarge', code: 413 });
    expect(handled).toEqual([]);
  });

  it('passes a body within the limit to the handler', async () => {
    const { url, handled } = await gateway();
    const reply = await fetch(url, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
    expect(handled).toEqual(['{"a":1}']);
  });

  it('answers requests beyond those it handles at once with 429 TooManyRequests and Retry-After, handling none of them', async () => {
    let release = () => {};
    const { url, handled } = await gateway(new Promise((resolve) => (release = resolve)), 2);
    const held = [fetch(url, { method: 'POST', body: '1' }), fetch(url, { method: 'POST', body: '2' })];
    while (handled.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await fetch(url, { method: 'POST', body: '3' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 1 } });
    release();
    expect((await Promise.all(held)).map((reply) => reply.status)).toEqual([200, 200]);
    expect(handled.sort()).toEqual(['1', '2']);
  });

  describe('against DNS rebinding and cross-origin pages', () => {
    it.each(['attacker.example', 'attacker.example:PORT'])('refuses a page whose name resolved to 127.0.0.1 (Host %s) with 403 Forbidden, handling nothing', async (host) => {
      const { url, handled, watched } = await gateway();
      const hostHeader = host.replace('PORT', new URL(url).port);
      for (const [method, path] of [['POST', 'apis/scheduling.k8s.io/v1/priorityclasses'], ['GET', ''], ['GET', 'apis/scheduling.k8s.io/v1/priorityclasses?watch=1']] as const) {
        const answer = await send(`${url}${path}`, method, { host: hostHeader }, method === 'POST' ? '{"kind":"PriorityClass"}' : undefined);
        expect(answer.status).toBe(403);
        expect(JSON.parse(answer.text)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403 });
        expect(JSON.parse(answer.text).message).toContain(`the Host "${hostHeader}" is not one this server accepts (OUTRANK_ACCEPT_HOSTS ^localhost$,^127\\.0\\.0\\.1$,^\\[::1\\]$)`);
        expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      }
      expect(handled).toEqual([]);
      expect(watched).toEqual([]);
    });

    it('refuses a request from a page of another origin on a loopback Host, handling nothing', async () => {
      const { url, handled, watched } = await gateway();
      const host = `localhost:${new URL(url).port}`;
      for (const origin of ['http://attacker.example', 'http://localhost:3000', 'null']) {
        const posted = await send(url, 'POST', { host, origin }, '{"a":1}');
        expect(posted.status).toBe(403);
        expect(JSON.parse(posted.text).message).toContain(`the request comes from a page of another origin (Origin ${JSON.stringify(origin)})`);
        expect((await send(`${url}?watch=1`, 'GET', { host, origin })).status).toBe(403);
      }
      expect(handled).toEqual([]);
      expect(watched).toEqual([]);
    });

    it('serves loopback names, and the console it serves calling it from its own origin', async () => {
      const { url, handled, watched } = await gateway();
      const port = new URL(url).port;
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost']) {
        expect((await send(url, 'POST', { host }, host)).status).toBe(200);
      }
      expect((await send(url, 'POST', { host: `localhost:${port}`, origin: `http://localhost:${port}` }, 'console')).status).toBe(200);
      expect((await send(`${url}?watch=1`, 'GET', { host: `localhost:${port}`, origin: `http://localhost:${port}` })).status).toBe(200);
      expect(handled).toEqual([`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'localhost', 'console']);
      expect(watched).toEqual(['/']);
    });

    it('serves the Host names OUTRANK_ACCEPT_HOSTS names instead', async () => {
      const guard: LoopbackGuard = acceptedHosts({ OUTRANK_ACCEPT_HOSTS: String.raw`^localhost$,^outrank\.test$` });
      const { url, handled } = await gateway(undefined, undefined, guard);
      expect((await send(url, 'POST', { host: `outrank.test:${new URL(url).port}` }, 'wider')).status).toBe(200);
      const refused = await send(url, 'POST', { host: `127.0.0.1:${new URL(url).port}` }, 'narrower');
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text).message).toContain(String.raw`(OUTRANK_ACCEPT_HOSTS ^localhost$,^outrank\.test$)`);
      expect(handled).toEqual(['wider']);
    });

    it('reads OUTRANK_ACCEPT_HOSTS, the loopback names when unset, and refuses to start on one that is no regular expression', () => {
      expect(acceptedHosts({}).acceptHosts.map((pattern) => pattern.source)).toEqual(['^localhost$', String.raw`^127\.0\.0\.1$`, String.raw`^\[::1\]$`]);
      expect(() => acceptedHosts({ OUTRANK_ACCEPT_HOSTS: '[' })).toThrow('OUTRANK_ACCEPT_HOSTS: "[" is not a regular expression');
    });
  });
});
