import { describe, expect, it } from 'vitest';
import { Api, cluster, job, propagationPolicy } from './support';

const NAMESPACE = '/api/v1/namespaces/team-a';
const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } };
const configMap = (name: string, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'team-a', ...extra }, data: { a: 'b' } });

describe('namespace deletion, as Kubernetes\' namespace controller does it', () => {
  it('marks the namespace Terminating, deletes what it holds (bindings with their templates), then the namespace', async () => {
    const api = new Api();
    await api.seed(cluster(), namespace, propagationPolicy('jobs', 'team-a'), job('report', 'team-a'), configMap('settings'), job('other', 'default'), propagationPolicy('jobs', 'default'));
    expect((await api.get('/apis/work.karmada.io/v1alpha2/namespaces/team-a/resourcebindings/report-job')).statusCode).toBe(200);
    const reply = await api.send('DELETE', NAMESPACE);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'Namespace', spec: { finalizers: ['kubernetes'] }, status: { phase: 'Terminating' } });
    expect(reply.body.metadata.deletionTimestamp).toBeDefined();
    await api.system.runUntilIdle();
    for (const path of [
      NAMESPACE,
      '/apis/batch/v1/namespaces/team-a/jobs/report',
      '/api/v1/namespaces/team-a/configmaps/settings',
      '/apis/policy.karmada.io/v1alpha1/namespaces/team-a/propagationpolicies/jobs',
      '/apis/work.karmada.io/v1alpha2/namespaces/team-a/resourcebindings/report-job',
    ]) {
      expect((await api.get(path)).statusCode, path).toBe(404);
    }
    // Another namespace keeps what it holds.
    expect((await api.get('/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/other-job')).statusCode).toBe(200);
  });

  it('stays Terminating while an object in it waits for its finalizers, and goes once it has gone', async () => {
    const api = new Api();
    await api.seed(namespace, configMap('held', { finalizers: ['example.com/hold'] }));
    await api.send('DELETE', NAMESPACE);
    await api.system.runUntilIdle();
    expect((await api.get(NAMESPACE)).body.status).toEqual({ phase: 'Terminating' });
    expect((await api.get('/api/v1/namespaces/team-a/configmaps/held')).body.metadata.deletionTimestamp).toBeDefined();
    await api.send('PATCH', '/api/v1/namespaces/team-a/configmaps/held', { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
    await api.system.runUntilIdle();
    expect((await api.get('/api/v1/namespaces/team-a/configmaps/held')).statusCode).toBe(404);
    expect((await api.get(NAMESPACE)).statusCode).toBe(404);
  });
});
