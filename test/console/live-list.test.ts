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
    const running = watchList('/apis/work.karmada.io/v1alpha2/resourcebindings', {}, () => undefined, controller.signal);
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

  it('given what to keep: lists with the field selector, watches without it from that list, and keeps only what the selector selects', async () => {
    vi.useFakeTimers();
    const binding = (name: string, clusters: string[], resourceVersion: string) => ({ metadata: { name, namespace: 'fleet', resourceVersion }, spec: { clusters: clusters.map((c) => ({ name: c, replicas: 1 })) } });
    type Binding = ReturnType<typeof binding>;
    const asked: URLSearchParams[] = [];
    const controller = new AbortController();
    const stream = [
      { type: 'MODIFIED', object: binding('elsewhere', ['member-2'], '9') },
      { type: 'MODIFIED', object: binding('arriving', ['member-1'], '10') },
      { type: 'MODIFIED', object: binding('leaving', ['member-2'], '11') },
      { type: 'DELETED', object: binding('gone', ['member-3'], '12') },
    ];
    vi.stubGlobal('fetch', async (url: string) => {
      const query = new URL(url, 'http://console').searchParams;
      asked.push(query);
      if (!query.has('watch')) return new Response(JSON.stringify({ metadata: { resourceVersion: '8' }, items: [binding('leaving', ['member-1'], '5'), binding('staying', ['member-1'], '6')] }));
      // The watch after the first stream ends stays open until the page leaves.
      if (asked.length > 2) return new Response(new ReadableStream({ start: (stream) => controller.signal.addEventListener('abort', () => stream.error(new Error('aborted'))) }));
      return new Response(stream.map((event) => JSON.stringify(event)).join('\n') + '\n');
    });
    const handed: string[][] = [];
    const keep = (item: Binding) => item.spec.clusters.some((cluster) => cluster.name === 'member-1');
    const running = watchList<Binding>('/apis/work.karmada.io/v1alpha2/resourcebindings', { fieldSelector: 'spec.clusters.name=member-1', keep }, (items) => handed.push(items.map((item) => item.metadata.name).sort()), controller.signal);
    await vi.advanceTimersByTimeAsync(200);
    expect(asked[0]!.get('fieldSelector')).toBe('spec.clusters.name=member-1');
    expect(asked[1]!.get('fieldSelector')).toBeNull();
    expect(asked[1]!.get('resourceVersion')).toBe('8');
    expect(handed).toEqual([['leaving', 'staying'], ['arriving', 'staying']]);
    controller.abort();
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
