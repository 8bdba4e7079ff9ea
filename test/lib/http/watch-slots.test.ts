/**
 * Each caller holds at most so many watches open in a process: past that a watch is refused 429
 * TooManyRequests with Retry-After, another caller still gets one, and a watch that ends frees its slot.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRequest, ApiResponse } from '../../../lib/http/api-types';
import type { OpenWatch } from '../../../lib/http/watch';
import { serveWatch } from '../../../lib/http/watch-request';
import { WatchSlots } from '../../../lib/http/watch-slots';
import { testWatchTiming } from '../../support/watch-timing';
import { Api } from './support';

const TIMING = testWatchTiming(5, 1_000);

function request(query: Record<string, string> = {}): ApiRequest {
  return { method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments', query: { watch: '1', ...query }, headers: {}, body: undefined };
}

/** A watch served and running until stopped, or the response refusing it. */
function open(api: Api, slots: WatchSlots, caller: string, query: Record<string, string> = {}): { refused?: ApiResponse; stop(): Promise<void> } {
  const served: ApiResponse | OpenWatch = serveWatch(request(query), { objects: api.system.objects, store: api.system.store, events: api.system.events, caller }, TIMING, slots);
  if ('statusCode' in served) return { refused: served, stop: async () => {} };
  const controller = new AbortController();
  const ended = served.run({ signal: controller.signal, send: () => undefined });
  return {
    stop: async () => {
      controller.abort();
      await ended;
    },
  };
}

describe('watches per caller', () => {
  it('refuses the watch past the limit with 429 and Retry-After; another caller gets one; an ended watch frees its slot', async () => {
    const api = new Api();
    const slots = new WatchSlots(2);
    const alice = [open(api, slots, 'alice'), open(api, slots, 'alice')];
    expect(alice.map((watch) => watch.refused)).toEqual([undefined, undefined]);

    const third = open(api, slots, 'alice').refused!;
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('1');
    expect(JSON.parse(third.body)).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 1 } });

    const bob = open(api, slots, 'bob');
    expect(bob.refused).toBeUndefined();

    await alice[0]!.stop();
    const again = open(api, slots, 'alice');
    expect(again.refused).toBeUndefined();
    await Promise.all([alice[1]!.stop(), again.stop(), bob.stop()]);
  });

  it('answers a bad watch request for what it is, and takes no slot for it', async () => {
    const api = new Api();
    const slots = new WatchSlots(1);
    expect(open(api, slots, 'alice', { timeoutSeconds: '-1' }).refused?.statusCode).toBe(400);
    const watch = open(api, slots, 'alice');
    expect(watch.refused).toBeUndefined();
    await watch.stop();
  });

  it('frees the slot of a watch that ends by its timeout', async () => {
    const api = new Api();
    const slots = new WatchSlots(1);
    const served = serveWatch(request({ timeoutSeconds: '0' }), { objects: api.system.objects, store: api.system.store, events: api.system.events, caller: 'alice' }, TIMING, slots);
    if ('statusCode' in served) throw new Error(served.body);
    await served.run({ signal: new AbortController().signal, send: () => undefined });
    const next = open(api, slots, 'alice');
    expect(next.refused).toBeUndefined();
    await next.stop();
  });

  it.each([0, -1, 1.5, Number.NaN])('is a positive whole number of watches, not %s', (limit) => {
    expect(() => new WatchSlots(limit)).toThrow(/watches per caller: must be a positive integer/);
  });
});
