import { describe, expect, it } from 'vitest';
import { Api, cluster, job, priorityClass, propagationPolicy } from './support';

const CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';
const HOLD = 'example.com/hold';

const held = (name = 'gold') => ({ ...priorityClass(name), metadata: { name, finalizers: [HOLD] } });

describe('deletion held by finalizers, as kube-apiserver does it', () => {
  it('marks an object carrying a finalizer, answering it marked, and keeps it', async () => {
    const api = new Api();
    await api.seed(held());
    const reply = await api.send('DELETE', `${CLASSES}/gold`);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'PriorityClass', metadata: { name: 'gold', finalizers: [HOLD], deletionGracePeriodSeconds: 0 } });
    expect(reply.body.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await api.get(`${CLASSES}/gold`)).body.metadata.deletionTimestamp).toBe(reply.body.metadata.deletionTimestamp);
    // Deleting again changes nothing.
    const again = await api.send('DELETE', `${CLASSES}/gold`);
    expect(again.body.metadata).toEqual(reply.body.metadata);
  });

  it('removes the object once an update removes its last finalizer', async () => {
    const api = new Api();
    await api.seed({ ...held(), metadata: { name: 'gold', finalizers: [HOLD, 'example.com/audit'] } });
    await api.send('DELETE', `${CLASSES}/gold`);
    const one = await api.send('PATCH', `${CLASSES}/gold`, { body: { metadata: { finalizers: ['example.com/audit'] } }, contentType: 'application/merge-patch+json' });
    expect(one.statusCode).toBe(200);
    expect((await api.get(`${CLASSES}/gold`)).statusCode).toBe(200);
    const last = await api.send('PATCH', `${CLASSES}/gold`, { body: { metadata: { finalizers: null } }, contentType: 'application/merge-patch+json' });
    expect(last.statusCode).toBe(200);
    expect((await api.get(`${CLASSES}/gold`)).statusCode).toBe(404);
  });

  it('keeps the deletion marks through other updates, and refuses a new finalizer with 422', async () => {
    const api = new Api();
    await api.seed(held());
    const marked = (await api.send('DELETE', `${CLASSES}/gold`)).body;
    const relabelled = await api.send('PATCH', `${CLASSES}/gold`, {
      body: { metadata: { labels: { tier: 'top' }, deletionTimestamp: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(relabelled.body.metadata).toMatchObject({ labels: { tier: 'top' }, deletionTimestamp: marked.metadata.deletionTimestamp, deletionGracePeriodSeconds: 0 });
    const before = await api.snapshot();
    const added = await api.send('PATCH', `${CLASSES}/gold`, { body: { metadata: { finalizers: [HOLD, 'example.com/more'] } }, contentType: 'application/merge-patch+json' });
    expect(added.statusCode).toBe(422);
    expect(added.body.message).toBe('PriorityClass "gold" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ["example.com/more"]');
    expect(await api.snapshot()).toEqual(before);
  });

  it('ignores a deletionTimestamp a client writes', async () => {
    const api = new Api();
    const reply = await api.send('POST', CLASSES, { body: { ...held(), metadata: { name: 'gold', finalizers: [HOLD], deletionTimestamp: '2020-01-01T00:00:00Z' } } });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata).not.toHaveProperty('deletionTimestamp');
  });

  it('deletes at once an object carrying only Karmada\'s own finalizers, whose work outrank does', async () => {
    const api = new Api();
    await api.seed({ ...cluster('member1'), metadata: { name: 'member1', finalizers: ['karmada.io/cluster-controller'] } });
    const reply = await api.send('DELETE', '/apis/cluster.karmada.io/v1alpha1/clusters/member1');
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Success' });
    expect((await api.get('/apis/cluster.karmada.io/v1alpha1/clusters/member1')).statusCode).toBe(404);
  });

  it('a template being deleted loses its binding at once, as if gone; the template goes with its last finalizer', async () => {
    const api = new Api();
    const template = job('report');
    await api.seed(cluster(), propagationPolicy(), { ...template, metadata: { ...template.metadata, finalizers: [HOLD] } });
    const binding = '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/report-job';
    expect((await api.get(binding)).statusCode).toBe(200);
    await api.send('DELETE', '/apis/batch/v1/namespaces/default/jobs/report');
    await api.system.runUntilIdle();
    expect((await api.get(binding)).statusCode).toBe(404);
    expect((await api.get('/apis/batch/v1/namespaces/default/jobs/report')).body.metadata.deletionTimestamp).toBeDefined();
    await api.send('PATCH', '/apis/batch/v1/namespaces/default/jobs/report', { body: [{ op: 'remove', path: '/metadata/finalizers' }], contentType: 'application/json-patch+json' });
    await api.system.runUntilIdle();
    expect((await api.get('/apis/batch/v1/namespaces/default/jobs/report')).statusCode).toBe(404);
    expect((await api.get(binding)).statusCode).toBe(404);
  });
});
