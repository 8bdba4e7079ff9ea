import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { Api } from './support';

async function get(path: string, query: Record<string, string> = {}, identity?: string) {
  const api = new Api();
  const response = await handleApiRequest(
    { method: 'GET', path, query, headers: {}, body: undefined },
    // With tenancy and no identity every other path is a 401: health is public, as kube-apiserver's.
    { objects: api.system.objects, store: api.system.store, events: api.system.events, access: { identity, authorizer: undefined as never } },
  );
  return response;
}

describe('health endpoints, as kube-apiserver serves them', () => {
  it.each(['/healthz', '/livez', '/readyz'])('%s answers ok in plain text, to any caller', async (path) => {
    const response = await get(path);
    expect(response).toMatchObject({ statusCode: 200, body: 'ok' });
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('?verbose lists each check and the verdict', async () => {
    expect((await get('/readyz', { verbose: '' })).body).toBe('[+]ping ok\nreadyz check passed\n');
    expect((await get('/livez', { verbose: '', exclude: 'ping' })).body).toBe('[+]ping excluded: ok\nlivez check passed\n');
  });

  it('answers one check by name, and a check not served is a 404 Status', async () => {
    expect(await get('/readyz/ping')).toMatchObject({ statusCode: 200, body: 'ok' });
    const unknown = await get('/readyz/etcd', {}, 'alice');
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ kind: 'Status', reason: 'NotFound' });
  });

  it('other paths still need a caller', async () => {
    expect((await get('/api/v1/namespaces')).statusCode).toBe(401);
  });
});
