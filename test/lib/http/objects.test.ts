import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http/handle-request';
import type { ObjectStore } from '../../../lib/ports/object-store';
import { Api, cluster, clusterPropagationPolicy, parseReply, priorityClass, propagationPolicy, workload } from './support';

interface KindCase {
  readonly kind: string;
  readonly collection: string;
  readonly object: (name: string) => Record<string, any>;
}

/** Every kind kept in the object store that users write, with a valid object of it. */
const KINDS: readonly KindCase[] = [
  { kind: 'PriorityClass', collection: '/apis/scheduling.k8s.io/v1/priorityclasses', object: (name) => priorityClass(name) },
  { kind: 'Cluster', collection: '/apis/cluster.karmada.io/v1alpha1/clusters', object: (name) => cluster(name) },
  { kind: 'PropagationPolicy', collection: '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies', object: (name) => propagationPolicy(name) },
  { kind: 'ClusterPropagationPolicy', collection: '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies', object: (name) => clusterPropagationPolicy(name) },
  { kind: 'Deployment', collection: '/apis/apps/v1/namespaces/default/deployments', object: (name) => workload('apps/v1', 'Deployment', name) },
  { kind: 'StatefulSet', collection: '/apis/apps/v1/namespaces/default/statefulsets', object: (name) => workload('apps/v1', 'StatefulSet', name) },
  { kind: 'ReplicaSet', collection: '/apis/apps/v1/namespaces/default/replicasets', object: (name) => workload('apps/v1', 'ReplicaSet', name) },
  { kind: 'Job', collection: '/apis/batch/v1/namespaces/default/jobs', object: (name) => workload('batch/v1', 'Job', name) },
];

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function withLabels(object: Record<string, any>, labels: Record<string, string>, resourceVersion?: string) {
  return { ...object, metadata: { ...object.metadata, labels, ...(resourceVersion ? { resourceVersion } : {}) } };
}

describe.each(KINDS)('$kind', ({ kind, collection, object }) => {
  const item = `${collection}/first`;

  async function created(): Promise<{ api: Api; stored: any }> {
    const api = new Api();
    const reply = await api.send('POST', collection, { body: object('first') });
    expect(reply.statusCode).toBe(201);
    return { api, stored: reply.body };
  }

  it('POST creates it (201) and GET returns what was stored', async () => {
    const { api, stored } = await created();
    expect(stored).toMatchObject({ kind, metadata: { name: 'first', resourceVersion: expect.any(String), generation: 1 } });
    const reply = await api.get(item);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toEqual(stored);
  });

  it('GET of the collection is a List sorted by name', async () => {
    const { api } = await created();
    await api.send('POST', collection, { body: object('another') });
    const reply = await api.get(collection, { limit: '500', continue: '' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ apiVersion: object('x').apiVersion, kind: `${kind}List`, metadata: { resourceVersion: expect.any(String) } });
    expect(reply.body.items.map((i: any) => i.metadata.name)).toEqual(['another', 'first']);
    expect(reply.body.metadata.resourceVersion).toBe(reply.body.items[0].metadata.resourceVersion);
  });

  it('POST of a name that exists is 409 AlreadyExists and writes nothing', async () => {
    const { api } = await created();
    const before = await api.snapshot();
    const reply = await api.send('POST', collection, { body: withLabels(object('first'), { changed: 'yes' }) });
    expect(reply.statusCode).toBe(409);
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'AlreadyExists', code: 409, details: { name: 'first' } });
    expect(await api.snapshot()).toEqual(before);
  });

  it('POST is announced to policy-change by the store as it commits (PriorityClasses are not), and a repeated POST is 409 and announces nothing', async () => {
    const api = new Api();
    const queue = api.system.policyChangeQueue;
    expect((await api.send('POST', collection, { body: object('first') })).statusCode).toBe(201);
    const announced = kind === 'PriorityClass' ? 0 : 1;
    expect(queue.held()).toBe(announced);
    expect((await api.send('POST', collection, { body: object('first') })).statusCode).toBe(409);
    expect(queue.held()).toBe(announced);
  });

  it('PUT replaces it, and with a stale resourceVersion is 409 Conflict and writes nothing', async () => {
    const { api, stored } = await created();
    const replaced = await api.send('PUT', item, { body: withLabels(object('first'), { team: 'a' }, stored.metadata.resourceVersion) });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body.metadata.labels).toEqual({ team: 'a' });
    expect(replaced.body.metadata.resourceVersion).not.toBe(stored.metadata.resourceVersion);

    const before = await api.snapshot();
    const stale = await api.send('PUT', item, { body: withLabels(object('first'), { team: 'b' }, stored.metadata.resourceVersion) });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toMatchObject({ reason: 'Conflict', code: 409 });
    expect(stale.body.message).toContain('the object has been modified');
    expect(await api.snapshot()).toEqual(before);
  });

  it('PUT without a resourceVersion replaces the current version', async () => {
    const { api } = await created();
    const reply = await api.send('PUT', item, { body: withLabels(object('first'), { team: 'c' }) });
    expect(reply.statusCode).toBe(200);
    expect((await api.get(item)).body.metadata.labels).toEqual({ team: 'c' });
  });

  it('PATCH merges, and a stale resourceVersion in the patch is 409 Conflict', async () => {
    const { api, stored } = await created();
    const patched = await api.send('PATCH', item, { body: { metadata: { labels: { team: 'd' } } }, contentType: 'application/merge-patch+json' });
    expect(patched.statusCode).toBe(200);
    expect(patched.body.metadata.labels).toEqual({ team: 'd' });

    const before = await api.snapshot();
    const stale = await api.send('PATCH', item, {
      body: { metadata: { resourceVersion: stored.metadata.resourceVersion, labels: { team: 'e' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(stale.statusCode).toBe(409);
    expect(await api.snapshot()).toEqual(before);
  });

  it('DELETE answers a Success Status; then GET, PUT, PATCH and DELETE are 404', async () => {
    const { api } = await created();
    const group = collection.startsWith('/apis/') ? collection.split('/')[2] : '';
    const reply = await api.send('DELETE', item, { body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'first', group, kind: collection.split('/').at(-1) },
      code: 200,
    });
    const before = await api.snapshot();
    for (const [method, body, contentType] of [
      ['GET', undefined, undefined],
      ['PUT', object('first'), 'application/json'],
      ['PATCH', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json'],
      ['DELETE', undefined, undefined],
    ] as const) {
      const missing = await api.send(method, item, { ...(body ? { body, contentType } : {}) });
      expect(missing.statusCode, method).toBe(404);
      expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, details: { name: 'first', group } });
      expect(missing.body.message).toContain('"first" not found');
    }
    expect(await api.snapshot()).toEqual(before);
  });

  it('metadata.uid is a UUID given at creation, whatever the client sent, kept by PUT, PATCH and server-side apply; naming another is 422 and writes nothing (as kube-apiserver)', async () => {
    const api = new Api();
    const sent = { ...object('first'), metadata: { ...object('first').metadata, uid: 'chosen-by-the-client' } };
    const created = await api.send('POST', collection, { body: sent });
    expect(created.statusCode).toBe(201);
    const { uid } = created.body.metadata;
    expect(uid).toMatch(UUID_V4);
    expect((await api.send('POST', collection, { body: object('second') })).body.metadata.uid).not.toBe(uid);

    const replaced = await api.send('PUT', item, { body: withLabels(object('first'), { team: 'a' }) });
    const patched = await api.send('PATCH', item, { body: { metadata: { labels: { team: 'b' } } }, contentType: 'application/merge-patch+json' });
    const applied = await api.send('PATCH', item, { body: withLabels(object('first'), { applied: 'yes' }), contentType: 'application/apply-patch+yaml' });
    for (const reply of [replaced, patched, applied]) {
      expect(reply.statusCode).toBe(200);
      expect(reply.body.metadata.uid).toBe(uid);
    }

    const before = await api.snapshot();
    const other = await api.send('PATCH', item, { body: { metadata: { uid: 'another' } }, contentType: 'application/merge-patch+json' });
    expect(other.statusCode).toBe(422);
    expect(other.body.details.causes).toContainEqual(expect.objectContaining({ field: 'metadata.uid', message: `is immutable: the object's uid is ${uid}` }));
    expect(await api.snapshot()).toEqual(before);
  });

  it('takes a YAML body', async () => {
    const api = new Api();
    const yaml = `apiVersion: ${object('x').apiVersion}\nkind: ${kind}\nmetadata:\n  name: from-yaml\n${kind === 'PriorityClass' ? 'value: 7\n' : ''}${
      'spec' in object('x') ? `spec: ${JSON.stringify(object('x').spec)}\n` : ''
    }`;
    const reply = await api.send('POST', collection, { text: yaml, contentType: 'application/yaml; charset=utf-8' });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata.name).toBe('from-yaml');
  });
});

describe('lists', () => {
  async function deployments(): Promise<Api> {
    const api = new Api();
    await api.seed(
      workload('apps/v1', 'Deployment', 'web', 'tenant-b', { app: 'web', tier: 'front' }),
      workload('apps/v1', 'Deployment', 'api', 'tenant-b', { app: 'api' }),
      workload('apps/v1', 'Deployment', 'web', 'tenant-a', { app: 'web' }),
      workload('apps/v1', 'Deployment', 'batch', 'tenant-a'),
    );
    return api;
  }
  const names = (reply: { body: any }) => reply.body.items.map((i: any) => `${i.metadata.namespace}/${i.metadata.name}`);

  it('lists a namespaced kind across namespaces, in storage order (`<namespace>/<name>`)', async () => {
    const api = await deployments();
    const reply = await api.get('/apis/apps/v1/deployments');
    expect(reply.body.kind).toBe('DeploymentList');
    expect(names(reply)).toEqual(['tenant-a/batch', 'tenant-a/web', 'tenant-b/api', 'tenant-b/web']);
  });

  it('lists one namespace', async () => {
    const api = await deployments();
    expect(names(await api.get('/apis/apps/v1/namespaces/tenant-b/deployments'))).toEqual(['tenant-b/api', 'tenant-b/web']);
    // An empty list answers the store's version now, as Kubernetes does: a watch from it starts there.
    const newest = (await api.get('/apis/apps/v1/namespaces/tenant-a/deployments/web')).body.metadata.resourceVersion;
    expect((await api.get('/apis/apps/v1/namespaces/empty/deployments')).body).toEqual({
      apiVersion: 'apps/v1',
      kind: 'DeploymentList',
      metadata: { resourceVersion: expect.any(String) },
      items: [],
    });
    expect(Number((await api.get('/apis/apps/v1/namespaces/empty/deployments')).body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(newest));
  });

  it.each([
    ['app=web', ['tenant-a/web', 'tenant-b/web']],
    ['app!=web', ['tenant-a/batch', 'tenant-b/api']],
    ['app in (api,web),tier', ['tenant-b/web']],
    ['app notin (web)', ['tenant-a/batch', 'tenant-b/api']],
    ['app', ['tenant-a/web', 'tenant-b/api', 'tenant-b/web']],
    ['!app', ['tenant-a/batch']],
  ])('selects by labelSelector %s', async (labelSelector, expected) => {
    const api = await deployments();
    expect(names(await api.get('/apis/apps/v1/deployments', { labelSelector }))).toEqual(expected);
  });

  it('selects by metadata.name and metadata.namespace, as kubectl delete --wait does', async () => {
    const api = await deployments();
    expect(names(await api.get('/apis/apps/v1/deployments', { fieldSelector: 'metadata.name=web' }))).toEqual(['tenant-a/web', 'tenant-b/web']);
    expect(names(await api.get('/apis/apps/v1/deployments', { fieldSelector: 'metadata.namespace=tenant-b,metadata.name!=web' }))).toEqual(['tenant-b/api']);
  });

  it.each([
    [{ labelSelector: 'app in (web' }],
    [{ labelSelector: 'Bad Key=1' }],
    [{ fieldSelector: 'spec.replicas=1' }],
  ])('refuses a malformed selector %o with 400', async (query) => {
    const reply = await (await deployments()).get('/apis/apps/v1/deployments', query);
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
  });

  it('refuses watch with 405: only lists are served', async () => {
    const reply = await (await deployments()).get('/apis/apps/v1/deployments', { watch: 'true' });
    expect(reply.statusCode).toBe(405);
  });
});

describe('request checks, all before anything is written', () => {
  const collection = '/apis/apps/v1/namespaces/default/deployments';
  const deployment = workload('apps/v1', 'Deployment', 'web');

  it('a body without namespace takes the URL\'s', async () => {
    const api = new Api();
    const { metadata, ...rest } = workload('apps/v1', 'Deployment', 'web', 'tenant-a');
    const reply = await api.send('POST', '/apis/apps/v1/namespaces/tenant-a/deployments', { body: { ...rest, metadata: { name: metadata.name } } });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.metadata.namespace).toBe('tenant-a');
  });

  it('a body without apiVersion and kind takes the URL\'s', async () => {
    const api = new Api();
    const { apiVersion: _a, kind: _k, ...rest } = priorityClass('bare');
    const reply = await api.send('POST', '/apis/scheduling.k8s.io/v1/priorityclasses', { body: rest });
    expect(reply.statusCode).toBe(201);
    expect(reply.body).toMatchObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass' });
  });

  it.each([
    ['POST', collection, { ...deployment, metadata: { ...deployment.metadata, namespace: 'other' } }, 'namespace'],
    ['POST', collection, { ...deployment, apiVersion: 'apps/v1beta1' }, 'API version'],
    ['POST', collection, { ...deployment, kind: 'StatefulSet' }, 'kind'],
    ['POST', collection, { ...deployment, metadata: { ...deployment.metadata, resourceVersion: '5' } }, 'resourceVersion'],
    ['PUT', `${collection}/web`, { ...deployment, metadata: { ...deployment.metadata, name: 'other' } }, 'name'],
    ['PATCH', `${collection}/web`, { ...deployment, metadata: { ...deployment.metadata, name: 'other' } }, 'name'],
  ])('%s %s with a body that disagrees with the URL is 400 (%#)', async (method, path, body, word) => {
    const api = new Api();
    await api.seed(deployment);
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body, contentType: method === 'PATCH' ? 'application/apply-patch+yaml' : 'application/json' });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', code: 400 });
    expect(reply.body.message).toContain(word);
    expect(await api.snapshot()).toEqual(before);
  });

  it.each([
    ['POST', '/apis/apps/v1/deployments', 405], // objects are created in a namespace
    ['POST', `${collection}/web`, 405],
    ['PUT', collection, 405],
    ['DELETE', collection, 405],
    ['OPTIONS', `${collection}/web`, 405],
  ])('%s %s is %i', async (method, path, code) => {
    const api = new Api();
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body: deployment });
    expect(reply.statusCode).toBe(code);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code });
    expect(await api.snapshot()).toEqual(before);
  });

  it.each([
    ['text/plain', 415, 'UnsupportedMediaType'],
    ['application/merge-patch+json', 415, 'UnsupportedMediaType'],
    // Protobuf is read (protobuf-objects.test.ts), and JSON is not protobuf.
    ['application/vnd.kubernetes.protobuf', 400, 'BadRequest'],
  ])('POST of JSON with Content-Type %s is %i', async (contentType, code, reason) => {
    const api = new Api();
    const reply = await api.send('POST', collection, { body: deployment, contentType });
    expect(reply.statusCode).toBe(code);
    expect(reply.body).toMatchObject({ reason, code });
    expect(await api.snapshot()).toEqual(await new Api().snapshot());
  });

  it('reads a body without Content-Type as JSON', async () => {
    const api = new Api();
    const response = await handleApiRequest(
      { method: 'POST', path: collection, query: {}, headers: {}, body: JSON.stringify(deployment) },
      { objects: api.system.objects, store: api.system.store, events: api.system.events },
    );
    expect(response.statusCode).toBe(201);
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const api = new Api();
    const huge = { ...deployment, metadata: { ...deployment.metadata, annotations: { big: 'x'.repeat(1024 * 1024) } } };
    const reply = await api.send('POST', collection, { body: huge });
    expect(reply.statusCode).toBe(413);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    expect(await api.snapshot()).toEqual(await new Api().snapshot());
  });

  it.each([
    ['POST of a new object', 'POST', collection, { ...deployment, metadata: { ...deployment.metadata, name: 'other' } }, 201],
    ['POST of an existing object', 'POST', collection, deployment, 409],
    ['PUT', 'PUT', `${collection}/web`, { ...deployment, spec: { ...deployment.spec, replicas: 5 } }, 200],
    ['DELETE', 'DELETE', `${collection}/web`, undefined, 200],
  ])('dryRun=All (%s) answers as the write would and writes nothing', async (_, method, path, body, code) => {
    const api = new Api();
    await api.seed(deployment);
    const before = await api.snapshot();
    const reply = await api.send(method, path, { body, query: { dryRun: 'All' } });
    expect(reply.statusCode).toBe(code);
    if (method === 'PUT') expect(reply.body.spec.replicas).toBe(5);
    expect(await api.snapshot()).toEqual(before);
  });

  it('refuses a dryRun value other than All with 400, naming the parameter', async () => {
    const api = new Api();
    const before = await api.snapshot();
    const reply = await api.send('POST', collection, { body: deployment, query: { dryRun: 'true' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toContain('dryRun');
    expect(await api.snapshot()).toEqual(before);
  });

  it('answers an unexpected failure with a generic 500 and tells the transport', async () => {
    const api = new Api();
    const failing: ObjectStore = {
      get: () => Promise.reject(new Error('table outrank-objects-7f3a is throttled')),
      list: () => Promise.reject(new Error('table outrank-objects-7f3a is throttled')),
      listPage: () => Promise.reject(new Error('table outrank-objects-7f3a is throttled')),
      transact: () => Promise.reject(new Error('unused')),
      getMany: () => Promise.reject(new Error('unused')),
      changes: () => Promise.reject(new Error('unused')),
      cursorAt: () => undefined,
      versionAt: (cursor) => cursor,
      currentVersion: () => '0',
    };
    const errors: unknown[] = [];
    const reply = parseReply(
      await handleApiRequest(
        { method: 'GET', path: `${collection}/web`, query: {}, headers: {}, body: undefined },
        { objects: api.system.objects, store: failing, events: api.system.events, onInternalError: (e) => errors.push(e) },
      ),
    );
    expect(reply.statusCode).toBe(500);
    expect(reply.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'an internal error occurred', reason: 'InternalError', code: 500 });
    expect(errors).toHaveLength(1);
  });
});

describe('objects larger than the store keeps', () => {
  it('are refused with 413 RequestEntityTooLarge naming the limit, and nothing is written', async () => {
    const api = new Api();
    const before = await api.snapshot();
    const big = workload('apps/v1', 'Deployment', 'big');
    const note = 'x'.repeat(200_000);
    const reply = await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', {
      body: { ...big, metadata: { ...big.metadata, annotations: { first: note, second: note } } },
    });
    expect(reply.statusCode).toBe(413);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    expect(reply.body.message).toMatch(/is \d+ bytes as JSON; objects are kept up to 390000 bytes/);
    expect(await api.snapshot()).toEqual(before);
    expect(api.system.policyChangeQueue.held()).toBe(0);
  });
});
