import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusedWatchDelayMs, watchList } from '../../console/live-list';

describe('the console keeps a list up to date as an informer does', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('a watch refused for now (429, too many open) is asked again after Retry-After, backing off, without listing again', async () => {
    vi.useFakeTimers();
    const asked: string[] = [];
    let watches = 0;
    const controller = new AbortController();
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(new URL(url, 'http://console').searchParams.has('watch') ? 'watch' : 'list');
      if (!url.includes('watch=')) return new Response(JSON.stringify({ metadata: { resourceVersion: '7' }, items: [] }), { status: 200 });
      watches += 1;
      if (watches <= 2) return new Response('{}', { status: 429, headers: { 'retry-after': '2' } });
      controller.abort();
      return new Response('', { status: 200 });
    });
    const running = watchList('/apis/work.karmada.io/v1alpha2/resourcebindings', undefined, () => undefined, controller.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual(['list', 'watch']);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(asked).toEqual(['list', 'watch']);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(['list', 'watch', 'watch']);
    // The second refusal in a row waits twice as long.
    await vi.advanceTimersByTimeAsync(3_999);
    expect(asked).toEqual(['list', 'watch', 'watch']);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(['list', 'watch', 'watch', 'watch']);
    await running;
  });

  it.each([
    ['Retry-After 2, first refusal', '2', 1, 2_000],
    ['no Retry-After: a second', null, 1, 1_000],
    ['doubling', '1', 3, 4_000],
    ['at most 30 s', '5', 6, 30_000],
  ])('%s', (_, retryAfter, refusals, delay) => {
    const headers = new Headers(retryAfter === null ? {} : { 'retry-after': retryAfter });
    expect(refusedWatchDelayMs({ headers }, refusals)).toBe(delay);
  });
});
