import { describe, expect, it } from 'vitest';
import { Api, cluster, job, propagationPolicy } from './support';

const ALLOCATIONS = '/apis/scheduling.outrank.io/v1alpha1/clusterallocations';

/** Two jobs of one CPU each, placed on member1 by the scheduler, which records them in member1's ClusterAllocation. */
async function placedJobs(): Promise<Api> {
  const api = new Api();
  await api.seed(cluster(), propagationPolicy(), job('report'), job('backfill'));
  return api;
}

describe('ClusterAllocations (read-only: what the scheduler placed on each cluster, for outrank check)', () => {
  it('are listed with what the placed bindings occupy', async () => {
    const reply = await (await placedJobs()).get(ALLOCATIONS);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ apiVersion: 'scheduling.outrank.io/v1alpha1', kind: 'ClusterAllocationList' });
    expect(reply.body.items).toEqual([
      expect.objectContaining({ kind: 'ClusterAllocation', metadata: expect.objectContaining({ name: 'member1' }), spec: { placed: { cpu: 2000, pods: 2 } } }),
    ]);
  });

  it('are read one by one, and a cluster with nothing placed has none', async () => {
    const api = await placedJobs();
    expect((await api.get(`${ALLOCATIONS}/member1`)).body).toMatchObject({ kind: 'ClusterAllocation', spec: { placed: { pods: 2 } } });
    expect((await api.get(`${ALLOCATIONS}/member2`)).statusCode).toBe(404);
  });

  it.each([
    ['POST', ALLOCATIONS],
    ['PUT', `${ALLOCATIONS}/member1`],
    ['PATCH', `${ALLOCATIONS}/member1`],
    ['DELETE', `${ALLOCATIONS}/member1`],
  ])('cannot be written with %s: 405, nothing written', async (method, path) => {
    const api = await placedJobs();
    const existing = (await api.get(`${ALLOCATIONS}/member1`)).body;
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body: { ...existing, spec: { placed: {} } }, contentType: method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' });
    expect(reply.statusCode).toBe(405);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
    expect(reply.body.message).toContain('get, list');
    expect(await api.snapshot()).toEqual(before);
  });
});
