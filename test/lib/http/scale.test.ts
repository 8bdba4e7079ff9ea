/** The scale subresource of workload templates (kubectl scale), with the binding following the template. */
import { describe, expect, it } from 'vitest';
import { Api, cluster, propagationPolicy, workload } from './support';

const SCALE = '/apis/apps/v1/namespaces/default/deployments/web/scale';

async function placed(): Promise<Api> {
  const api = new Api();
  await api.seed(cluster('member1'), propagationPolicy('web', 'default', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] }), workload('apps/v1', 'Deployment', 'web'));
  return api;
}

describe('scale subresource', () => {
  it('GET answers an autoscaling/v1 Scale: replicas wanted, and replicas placed', async () => {
    const api = await placed();
    const reply = await api.get(SCALE);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1 }, status: { replicas: 1 } });
  });

  it.each([
    ['a merge patch', 'application/merge-patch+json', { spec: { replicas: 3 } }],
    ['a JSON patch', 'application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 3 }]],
  ])('PATCH with %s sets the template\'s replicas, and the binding follows', async (_, contentType, body) => {
    const api = await placed();
    const reply = await api.send('PATCH', SCALE, { contentType, body });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.replicas).toBe(3);
    expect((await api.get('/apis/apps/v1/namespaces/default/deployments/web')).body.spec.replicas).toBe(3);
    await api.system.runUntilIdle();
    expect((await api.get('/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/web-deployment')).body.spec.replicas).toBe(3);
  });

  it('PUT with a stale resourceVersion is a Conflict and changes nothing', async () => {
    const api = await placed();
    const before = await api.snapshot();
    const reply = await api.send('PUT', SCALE, { body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web', namespace: 'default', resourceVersion: '999' }, spec: { replicas: 5 } } });
    expect(reply.statusCode).toBe(409);
    expect(await api.snapshot()).toEqual(before);
  });

  it.each([-1, 1.5, 'three'])('refuses replicas %j with 422 naming spec.replicas', async (replicas) => {
    const api = await placed();
    const reply = await api.send('PATCH', SCALE, { contentType: 'application/merge-patch+json', body: { spec: { replicas } } });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.message).toMatch(/^spec\.replicas/);
  });

  it('is served for Deployments, StatefulSets and ReplicaSets only, as in Kubernetes (a Job has none)', async () => {
    const api = await placed();
    expect((await api.get('/apis/batch/v1/namespaces/default/jobs/report/scale')).statusCode).toBe(404);
    expect((await api.get('/apis/apps/v1/namespaces/default/deployments/missing/scale')).statusCode).toBe(404);
  });
});
