import { afterEach, describe, expect, it, vi } from 'vitest';
import { readList } from '../../console/list-pages';

describe('the console reads a list as kubectl does', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('500 at a time, following each continue token, with the first page\'s version', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      const page = Number(new URL(url, 'http://console').searchParams.get('continue') ?? '0');
      const metadata = { resourceVersion: `v${page}`, ...(page < 1 ? { continue: String(page + 1) } : {}) };
      return new Response(JSON.stringify({ kind: 'EventList', metadata, items: [{ page }] }), { status: 200 });
    });
    const list = await readList<{ page: number }>('/api/v1/events', { fieldSelector: 'reason=Preempted' });
    expect(list).toEqual({ items: [{ page: 0 }, { page: 1 }], resourceVersion: 'v0' });
    expect(asked).toEqual(['/api/v1/events?fieldSelector=reason%3DPreempted&limit=500', '/api/v1/events?fieldSelector=reason%3DPreempted&limit=500&continue=1']);
  });

  it('fails with the path and the status when the API refuses', async () => {
    vi.stubGlobal('fetch', async () => new Response('{}', { status: 403, statusText: 'Forbidden' }));
    await expect(readList('/apis/work.karmada.io/v1alpha2/resourcebindings', {})).rejects.toThrow('/apis/work.karmada.io/v1alpha2/resourcebindings: 403 Forbidden');
  });
});
