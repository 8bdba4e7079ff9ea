import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startHttpGateway } from '../../functions/local/http-gateway';

describe('the local HTTP gateway', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  async function gateway(hold: Promise<void> = Promise.resolve(), maxInFlight?: number): Promise<{ url: string; handled: string[] }> {
    const handled: string[] = [];
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
    );
    close = () => new Promise((resolve) => server.close(() => resolve()));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, handled };
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
    expect(await refused.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429 });
    release();
    expect((await Promise.all(held)).map((reply) => reply.status)).toEqual([200, 200]);
    expect(handled.sort()).toEqual(['1', '2']);
  });
});
