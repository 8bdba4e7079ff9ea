/** The status subresource: writes there change the status alone; a binding's status stays the scheduler's. */
import { describe, expect, it } from 'vitest';
import { Api, cluster, clusterPropagationPolicy, workload } from './support';

const CLUSTER = '/apis/cluster.karmada.io/v1alpha1/clusters/member1';
const DEPLOYMENT = '/apis/apps/v1/namespaces/default/deployments/web';

describe('status subresource', () => {
  it('PATCH changes the status alone: a cluster reports its capacity, and what else the patch says is ignored', async () => {
    const api = new Api();
    await api.seed(cluster('member1', '8'));
    const reply = await api.send('PATCH', `${CLUSTER}/status`, {
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { sneaked: 'in' } }, spec: { region: 'eu' }, status: { resourceSummary: { allocatable: { cpu: '16' } } } },
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.status.resourceSummary.allocatable.cpu).toBe('16');
    expect(reply.body.metadata.labels).toBeUndefined();
    expect(reply.body.spec).toBeUndefined();
  });

  it('PUT replaces the status with the body\'s, and a stale resourceVersion is a Conflict', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'web'));
    const current = (await api.get(DEPLOYMENT)).body;
    const put = await api.send('PUT', `${DEPLOYMENT}/status`, { body: { ...current, spec: { ...current.spec, replicas: 9 }, status: { readyReplicas: 1 } } });
    expect(put.statusCode).toBe(200);
    expect(put.body.status).toEqual({ readyReplicas: 1 });
    expect(put.body.spec.replicas).toBe(1);
    const stale = await api.send('PUT', `${DEPLOYMENT}/status`, { body: { ...current, status: { readyReplicas: 2 } } });
    expect(stale.statusCode).toBe(409);
  });

  it("GET answers the object; the status of outrank's binding cannot be written (scheduling suspension (003): users change spec.suspension only), and it is never replaced", async () => {
    const api = new Api();
    await api.seed(cluster(), clusterPropagationPolicy(), workload('apps/v1', 'Deployment', 'web'));
    expect((await api.get(`${DEPLOYMENT}/status`)).body.metadata.name).toBe('web');
    const bindingStatus = '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/web-deployment/status';
    const patched = await api.send('PATCH', bindingStatus, { contentType: 'application/merge-patch+json', body: { status: { conditions: [] } } });
    expect(patched.statusCode).toBe(422);
    expect(patched.body.details.causes).toContainEqual(expect.objectContaining({ field: 'status' }));
    const current = (await api.get(bindingStatus)).body;
    expect((await api.send('PUT', bindingStatus, { body: { ...current, status: {} } })).statusCode).toBe(405);
  });

  it('is not served where Kubernetes has none', async () => {
    const api = new Api();
    expect((await api.get('/apis/scheduling.k8s.io/v1/priorityclasses/high/status')).statusCode).toBe(404);
    expect((await api.get('/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies/p/status')).statusCode).toBe(404);
  });
});
