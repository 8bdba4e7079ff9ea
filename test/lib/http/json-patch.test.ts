/** RFC 6902 JSON patch (kubectl patch --type=json), through the same write path as every patch. */
import { describe, expect, it } from 'vitest';
import { Api, workload } from './support';

const item = '/apis/apps/v1/namespaces/default/deployments/web';
const JSON_PATCH = 'application/json-patch+json';

async function withDeployment(): Promise<Api> {
  const api = new Api();
  await api.seed(workload('apps/v1', 'Deployment', 'web'));
  return api;
}

describe('JSON patch', () => {
  it('applies its operations in order', async () => {
    const api = await withDeployment();
    const reply = await api.send('PATCH', item, {
      contentType: JSON_PATCH,
      body: [
        { op: 'test', path: '/spec/replicas', value: 1 },
        { op: 'replace', path: '/spec/replicas', value: 3 },
        { op: 'add', path: '/metadata/labels/tier', value: 'web' },
      ],
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.replicas).toBe(3);
    expect(reply.body.metadata.labels).toEqual({ tier: 'web' });
  });

  it('takes a patch of no operations as Kubernetes does: 200, the object as it was, nothing written', async () => {
    const api = await withDeployment();
    const before = await api.snapshot();
    const stored = await api.get(item);
    const reply = await api.send('PATCH', item, { contentType: JSON_PATCH, body: [] });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.metadata.resourceVersion).toBe(stored.body.metadata.resourceVersion);
    expect(await api.snapshot()).toEqual(before);
  });

  it.each([
    ['a failed test', [{ op: 'test', path: '/spec/replicas', value: 9 }, { op: 'replace', path: '/spec/replicas', value: 3 }], 422],
    ['a path that does not resolve', [{ op: 'remove', path: '/spec/nothing' }], 422],
    ['an unknown operation', [{ op: 'bogus', path: '/spec' }], 422],
    ['an operation on __proto__', [{ op: 'add', path: '/__proto__/polluted', value: true }], 422],
    ['a body that is not an array', { op: 'replace', path: '/spec/replicas', value: 3 }, 400],
  ])('refuses %s and writes nothing', async (_, body, code) => {
    const api = await withDeployment();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', item, { contentType: JSON_PATCH, body });
    expect(reply.statusCode).toBe(code);
    expect(reply.body.kind).toBe('Status');
    expect(await api.snapshot()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('is validated like any write: an unknown field it adds is refused under Strict', async () => {
    const api = await withDeployment();
    const reply = await api.send('PATCH', item, { contentType: JSON_PATCH, body: [{ op: 'add', path: '/spec/replica', value: 3 }] });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes[0]).toMatchObject({ field: 'spec.replica', message: 'unknown field' });
  });
});
