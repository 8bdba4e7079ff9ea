import { describe, expect, it } from 'vitest';
import { Api, cluster, job, propagationPolicy } from './support';

const BINDINGS = '/apis/work.karmada.io/v1alpha2/namespaces/tenant-a/resourcebindings';
const REPORT = `${BINDINGS}/report-job`;
const MERGE = 'application/merge-patch+json';

/** examples/003-scheduling-suspension.yaml: a policy creates its bindings with scheduling suspended. */
async function suspendedBindings(): Promise<Api> {
  const api = new Api();
  await api.seed(cluster(), propagationPolicy('queued', 'tenant-a', { suspension: { scheduling: true } }), job('report', 'tenant-a'), job('backfill', 'tenant-a'));
  return api;
}

async function resumedReport(): Promise<Api> {
  const api = await suspendedBindings();
  const reply = await api.send('PATCH', REPORT, { body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE });
  expect(reply.statusCode).toBe(200);
  await api.system.runUntilIdle();
  return api;
}

describe('ResourceBindings (scheduling suspension (003))', () => {
  it('are listed per namespace and across namespaces', async () => {
    const api = await suspendedBindings();
    const reply = await api.get(BINDINGS);
    expect(reply.body).toMatchObject({ apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBindingList' });
    expect(reply.body.items.map((b: any) => b.metadata.name)).toEqual(['backfill-job', 'report-job']);
    expect((await api.get('/apis/work.karmada.io/v1alpha2/resourcebindings')).body.items).toHaveLength(2);
  });

  it('are read one by one', async () => {
    const reply = await (await suspendedBindings()).get(REPORT);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'ResourceBinding', metadata: { name: 'report-job' }, spec: { suspension: { scheduling: true } } });
  });

  it.each([
    ['POST', BINDINGS],
    ['PUT', REPORT],
    ['DELETE', REPORT],
  ])('cannot be written with %s: 405, nothing written', async (method, path) => {
    const api = await suspendedBindings();
    const existing = (await api.get(REPORT)).body;
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body: existing });
    expect(reply.statusCode).toBe(405);
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'MethodNotAllowed', code: 405 });
    expect(reply.body.message).toContain('get, list, patch');
    expect(await api.snapshot()).toEqual(before);
  });

  it('resume with a patch of spec.suspension, and are then scheduled', async () => {
    const api = await resumedReport();
    const report = (await api.get(REPORT)).body;
    expect(report.spec.clusters).toEqual([{ name: 'member1', replicas: 1 }]);
    expect((await api.get(`${BINDINGS}/backfill-job`)).body.spec.clusters).toBeUndefined();
  });

  it('take a strategic merge patch (kubectl patch\'s default) as a merge patch', async () => {
    const api = await suspendedBindings();
    const reply = await api.send('PATCH', REPORT, { body: { spec: { suspension: { scheduling: false } } }, contentType: 'application/strategic-merge-patch+json' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.suspension).toEqual({ scheduling: false });
  });

  it.each([
    ['suspending a binding that is already scheduled', { spec: { suspension: { scheduling: true } } }, 'spec.suspension.scheduling'],
    ['changing what the scheduler writes', { spec: { replicas: 7 } }, 'spec.replicas'],
    ['changing the status', { status: { conditions: null } }, 'status'],
    ['renaming it', { metadata: { name: 'other' } }, 'metadata.name'],
  ])('refuse %s with 422, nothing written', async (_, patch, field) => {
    const api = await resumedReport();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', REPORT, { body: patch, contentType: MERGE });
    expect(reply.statusCode).toBe(422);
    expect(reply.body).toMatchObject({ reason: 'Invalid', details: { name: expect.any(String), kind: 'ResourceBinding' } });
    expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field }));
    expect(await api.snapshot()).toEqual(before);
  });

  it('refuse a server-side apply that would create one: outrank creates them', async () => {
    const api = await suspendedBindings();
    const before = await api.snapshot();
    const existing = (await api.get(REPORT)).body;
    const config = { ...existing, metadata: { name: 'other-job', namespace: 'tenant-a' } };
    const reply = await api.send('PATCH', `${BINDINGS}/other-job`, { body: config, contentType: 'application/apply-patch+yaml' });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field: 'kind' }));
    expect(await api.snapshot()).toEqual(before);
  });

  it('are not found by a name that does not exist', async () => {
    const api = await suspendedBindings();
    const reply = await api.send('PATCH', `${BINDINGS}/nothing`, { body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE });
    expect(reply.statusCode).toBe(404);
    expect(reply.body.message).toBe('resourcebindings.work.karmada.io "nothing" not found');
  });
});

describe('ResourceBindings by the clusters they are placed on (spec.clusters.name)', () => {
  const names = (reply: { body: { items: Array<{ metadata: { name: string } }> } }) => reply.body.items.map((b) => b.metadata.name);

  it.each([
    ['spec.clusters.name=member1', ['report-job']],
    ['spec.clusters.name==member1', ['report-job']],
    ['spec.clusters.name=', ['backfill-job']],
    ['spec.clusters.name!=member1', ['backfill-job']],
    ['spec.clusters.name=member2', []],
    ['spec.clusters.name=member1,metadata.name=backfill-job', []],
  ])('%s selects %o, in a namespace and across namespaces', async (fieldSelector, expected) => {
    const api = await resumedReport();
    expect(names(await api.get(BINDINGS, { fieldSelector }))).toEqual(expected);
    expect(names(await api.get('/apis/work.karmada.io/v1alpha2/resourcebindings', { fieldSelector }))).toEqual(expected);
  });

  it('pages hold only what the selector selects', async () => {
    const api = await resumedReport();
    const first = await api.get(BINDINGS, { fieldSelector: 'spec.clusters.name=', limit: '1' });
    expect(names(first)).toEqual(['backfill-job']);
    const rest = await api.get(BINDINGS, { fieldSelector: 'spec.clusters.name=', limit: '1', continue: first.body.metadata.continue });
    expect(names(rest)).toEqual([]);
  });

  it('select ClusterResourceBindings too', async () => {
    const reply = await (await resumedReport()).get('/apis/work.karmada.io/v1alpha2/clusterresourcebindings', { fieldSelector: 'spec.clusters.name=member1' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'ClusterResourceBindingList', items: [] });
  });

  it.each([
    ['a field bindings do not have selectable', BINDINGS, 'spec.clusters.replicas=1', 'field label not supported: spec.clusters.replicas'],
    ['the field on another kind', '/apis/apps/v1/deployments', 'spec.clusters.name=member1', 'field label not supported: spec.clusters.name'],
  ])('refuse %s with 400, as kube-apiserver refuses an unsupported field', async (_, path, fieldSelector, message) => {
    const reply = await (await resumedReport()).get(path, { fieldSelector });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(reply.body.message).toContain(message);
  });
});

describe('events', () => {
  async function withEvents(): Promise<Api> {
    const api = await resumedReport();
    const { events } = api.system;
    await events.record({ type: 'Warning', reason: 'Tested', object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'tenant-b', name: 'web' }, message: 'one' });
    await events.record({ type: 'Normal', reason: 'Tested', object: { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', name: 'member1' }, message: 'two' });
    await events.record({ type: 'Normal', reason: 'Tested', object: { apiVersion: 'batch/v1', kind: 'Job', namespace: 'tenant-a', name: 'report-job' }, message: 'three' });
    await events.record({ type: 'Warning', reason: 'Preempted', object: { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'tenant-a', name: 'batch' }, message: 'four' });
    return api;
  }
  const messages = (reply: { body: any }) => reply.body.items.map((e: any) => `${e.involvedObject.kind}/${e.involvedObject.name}: ${e.reason}`);

  it('are listed across namespaces as an EventList', async () => {
    const reply = await (await withEvents()).get('/api/v1/events');
    expect(reply.body).toMatchObject({ apiVersion: 'v1', kind: 'EventList', metadata: { resourceVersion: expect.any(String) } });
    expect(reply.body.items).toHaveLength(5);
  });

  it('are selected by uid as kubectl describe selects them: the object\'s own, not those of an earlier object of the same name', async () => {
    const api = await withEvents();
    const binding = (await api.get('/apis/work.karmada.io/v1alpha2/namespaces/tenant-a/resourcebindings/report-job')).body as { metadata: { uid: string } };
    const describe = (uid: string) => ({ fieldSelector: `involvedObject.name=report-job,involvedObject.namespace=tenant-a,involvedObject.kind=ResourceBinding,involvedObject.uid=${uid}`, limit: '500' });
    expect(messages(await api.get('/api/v1/namespaces/tenant-a/events', describe(binding.metadata.uid)))).toEqual(['ResourceBinding/report-job: ScheduleBindingSucceed']);
    expect(messages(await api.get('/api/v1/namespaces/tenant-a/events', describe('00000000-0000-0000-0000-000000000000')))).toEqual([]);
  });

  it.each([
    [
      'kubectl describe of a namespaced object',
      '/api/v1/namespaces/tenant-a/events',
      'involvedObject.name=report-job,involvedObject.namespace=tenant-a,involvedObject.kind=ResourceBinding',
      ['ResourceBinding/report-job: ScheduleBindingSucceed'],
    ],
    ['kubectl describe of a cluster-scoped object', '/api/v1/events', 'involvedObject.name=member1,involvedObject.namespace=,involvedObject.kind=Cluster', ['Cluster/member1: Tested']],
    ['a kind and a name', '/api/v1/events', 'involvedObject.kind=Deployment,involvedObject.name=web', ['Deployment/web: Tested']],
    ['a uid, on an event recorded without one: not excluded by it', '/api/v1/namespaces/tenant-b/events', 'involvedObject.kind=Deployment,involvedObject.name=web,involvedObject.namespace=tenant-b,involvedObject.uid=1234', ['Deployment/web: Tested']],
    ['a name in a namespace it is not in', '/api/v1/namespaces/tenant-b/events', 'involvedObject.name=report-job', []],
    ['the type', '/api/v1/events', 'type=Warning', ['Deployment/batch: Preempted', 'Deployment/web: Tested']],
    ['no kind', '/api/v1/namespaces/tenant-a/events', 'involvedObject.kind!=ResourceBinding', ['Deployment/batch: Preempted', 'Job/report-job: Tested']],
    ['a reason the event log indexes (the Preemptions page, outrank check)', '/api/v1/events', 'reason=Preempted', ['Deployment/batch: Preempted']],
    ['an indexed reason and a type', '/api/v1/events', 'reason=Preempted,type=Normal', []],
    ['a reason in a namespace', '/api/v1/namespaces/tenant-b/events', 'reason=Tested', ['Deployment/web: Tested']],
    ['an indexed reason in a namespace it has no event in', '/api/v1/namespaces/tenant-b/events', 'reason=Preempted', []],
    ['an indexed reason in its namespace', '/api/v1/namespaces/tenant-a/events', 'reason=Preempted', ['Deployment/batch: Preempted']],
  ])('are selected by fieldSelector: %s', async (_, path, fieldSelector, expected) => {
    // A page (kubectl asks for chunks of 500) of a selector that names no object or reason is read in
    // the log's own order, not by name: what is selected is compared here, not the order.
    const reply = await (await withEvents()).get(path, { fieldSelector, limit: '500' });
    expect(reply.statusCode).toBe(200);
    expect(messages(reply).sort()).toEqual([...expected].sort());
  });

  it('are paged in the log\'s order, each event once, a page read from where the last stopped', async () => {
    const api = await withEvents();
    const pages: string[][] = [];
    let token = '';
    do {
      const reply = await api.get('/api/v1/events', { limit: '2', continue: token });
      expect(reply.statusCode).toBe(200);
      pages.push(messages(reply));
      token = reply.body.metadata.continue;
    } while (token !== undefined && pages.length < 10);
    expect(pages.flat().sort()).toEqual(messages(await api.get('/api/v1/events')).sort());
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
  });

  it('are paged within a namespace, and a page token is not taken by another namespace\'s or kind\'s list, nor a name token by events', async () => {
    const api = await withEvents();
    const first = await api.get('/api/v1/namespaces/tenant-a/events', { limit: '1' });
    const second = await api.get('/api/v1/namespaces/tenant-a/events', { limit: '1', continue: first.body.metadata.continue });
    const third = await api.get('/api/v1/namespaces/tenant-a/events', { limit: '1', continue: second.body.metadata.continue });
    const seen = [first, second, third].flatMap((reply) => messages(reply));
    expect(seen.sort()).toEqual(messages(await api.get('/api/v1/namespaces/tenant-a/events')).sort());
    expect(third.body.metadata.continue).toBeUndefined();

    const elsewhere = await api.get('/api/v1/namespaces/tenant-b/events', { limit: '1', continue: first.body.metadata.continue });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body.message).toMatch(/^continue:/);
    // As Kubernetes, a continue without a limit lists the rest.
    const rest = await api.get('/api/v1/namespaces/tenant-a/events', { continue: first.body.metadata.continue });
    expect([...messages(first), ...messages(rest)].sort()).toEqual(messages(await api.get('/api/v1/namespaces/tenant-a/events')).sort());
    expect(rest.body.metadata.continue).toBeUndefined();

    const bindings = await api.get(BINDINGS, { limit: '1', continue: first.body.metadata.continue });
    expect(bindings.statusCode).toBe(400);
    expect(bindings.body.message).toMatch(/^continue:/);
    const named: string = (await api.get(BINDINGS, { limit: '1' })).body.metadata.continue;
    expect(named).toEqual(expect.any(String));
    const events = await api.get('/api/v1/events', { limit: '1', continue: named });
    expect(events.statusCode).toBe(400);
    expect(events.body.message).toMatch(/^continue:/);
  });

  it('are read one by one', async () => {
    const api = await withEvents();
    const [first] = (await api.get('/api/v1/namespaces/tenant-a/events')).body.items;
    expect((await api.get(`/api/v1/namespaces/tenant-a/events/${first.metadata.name}`)).body).toEqual(first);
    expect((await api.get(`/api/v1/namespaces/tenant-b/events/${first.metadata.name}`)).statusCode).toBe(404);
  });

  it('refuse an unsupported field with 400', async () => {
    const reply = await (await withEvents()).get('/api/v1/events', { fieldSelector: 'involvedObject.color=red' });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toContain('field label not supported: involvedObject.color');
  });

  it.each([
    ['POST', '/api/v1/namespaces/tenant-a/events'],
    ['PUT', '/api/v1/namespaces/tenant-a/events/x'],
    ['PATCH', '/api/v1/namespaces/tenant-a/events/x'],
    ['DELETE', '/api/v1/namespaces/tenant-a/events/x'],
  ])('cannot be written with %s: 405', async (method, path) => {
    const api = await withEvents();
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body: { apiVersion: 'v1', kind: 'Event', metadata: { name: 'x' } }, contentType: MERGE });
    expect(reply.statusCode).toBe(405);
    expect(await api.snapshot()).toEqual(before);
  });
});
