/**
 * The kinds CustomResourceDefinitions register are served once their definition is stored, as
 * kube-apiserver serves them: discovery (group, version, resource with its short names and
 * categories), every verb and watch, an OpenAPI document from the version's schema, Tables with the
 * definition's printer columns, access reviews; and no longer once it is deleted. A request for one of
 * outrank's own kinds reads no definition.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../../lib/http/api-types';
import { handleApiRequest } from '../../../lib/http/handle-request';
import type { WatchEvent } from '../../../lib/http/watch';
import { serveWatchRequest } from '../../../lib/http/watch-request';
import { CountingStore } from '../../support/counting-store';
import { cronTab, cronTabDefinition } from '../../support/bundle-objects';
import { testWatchTiming } from '../../support/watch-timing';
import { withConfig } from '../../../lib/config';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { Api, parseReply } from './support';

const CRONTABS = '/apis/stable.example.com/v1/namespaces/default/crontabs';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

async function withDefinition(): Promise<Api> {
  const api = new Api();
  expect((await api.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: cronTabDefinition() })).statusCode).toBe(201);
  return api;
}

async function table(api: Api, path: string) {
  return parseReply(
    await handleApiRequest(
      { method: 'GET', path, query: {}, headers: { accept: TABLE }, body: undefined },
      { objects: api.system.objects, store: api.system.store, events: api.system.events, clock: api.system.clock },
    ),
  );
}

describe('a stored CustomResourceDefinition serves its kind', () => {
  it('is answered established, and its kind is not served before', async () => {
    const api = new Api();
    expect((await api.get(CRONTABS)).statusCode).toBe(404);
    const created = await api.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: cronTabDefinition() });
    expect(created.body.status.conditions.map((c: { type: string; status: string }) => `${c.type}=${c.status}`)).toEqual(['NamesAccepted=True', 'Established=True']);
    expect((await api.get(CRONTABS)).statusCode).toBe(200);
  });

  it('lists the group, the version and the resource in discovery, with short names and categories', async () => {
    const api = await withDefinition();
    expect((await api.get('/apis')).body.groups).toContainEqual({
      name: 'stable.example.com',
      versions: [{ groupVersion: 'stable.example.com/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
    });
    expect((await api.get('/apis/stable.example.com')).body.name).toBe('stable.example.com');
    expect((await api.get('/apis/stable.example.com/v1')).body.resources).toEqual([
      { name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], shortNames: ['ct'], categories: ['all'] },
      { name: 'crontabs/status', singularName: '', namespaced: true, kind: 'CronTab', verbs: ['get', 'patch', 'update'] },
    ]);
  });

  it('takes every verb on its objects, validated by the schema of their version', async () => {
    const api = await withDefinition();
    const created = await api.send('POST', CRONTABS, { body: cronTab('nightly') });
    expect(created.statusCode).toBe(201);
    expect(created.body.spec.mode).toBe('Slow');
    expect((await api.get(`${CRONTABS}/nightly`)).body.spec.cronSpec).toBe('*/5 * * * *');
    expect((await api.get('/apis/stable.example.com/v1/crontabs')).body.items).toHaveLength(1);
    const replaced = await api.send('PUT', `${CRONTABS}/nightly`, { body: { ...cronTab('nightly'), spec: { cronSpec: '0 * * * *' } } });
    expect(replaced.body.spec).toEqual({ cronSpec: '0 * * * *', mode: 'Slow' });
    const patched = await api.send('PATCH', `${CRONTABS}/nightly`, { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' });
    expect(patched.body.spec.replicas).toBe(3);
    const refused = await api.send('PATCH', `${CRONTABS}/nightly`, { body: { spec: { replicas: 30 } }, contentType: 'application/merge-patch+json' });
    expect(refused.statusCode).toBe(422);
    expect(refused.body.message).toContain('spec.replicas: must be at most 10');
    expect((await api.send('DELETE', `${CRONTABS}/nightly`)).statusCode).toBe(200);
    expect((await api.get(`${CRONTABS}/nightly`)).statusCode).toBe(404);
  });

  it('publishes an OpenAPI document from the version\'s schema, with the standard fields', async () => {
    const api = await withDefinition();
    const root = (await api.get('/openapi/v3')).body.paths;
    expect(root['apis/stable.example.com/v1'].serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/stable\.example\.com\/v1\?hash=/);
    const document = (await api.get('/openapi/v3/apis/stable.example.com/v1')).body;
    const schema = document.components.schemas['com.example.stable.v1.CronTab'];
    expect(schema.properties.spec.properties.cronSpec.type).toBe('string');
    expect(schema.properties.metadata.properties.labels).toBeDefined();
    expect(schema['x-kubernetes-group-version-kind']).toEqual([{ group: 'stable.example.com', version: 'v1', kind: 'CronTab' }]);
    const patch = document.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}'].patch;
    expect(patch.parameters.map((p: { name: string }) => p.name)).toContain('fieldValidation');
  });

  it('prints its printer columns in Tables, NAME and AGE without any', async () => {
    const api = await withDefinition();
    await api.seed(cronTab('nightly'));
    const reply = await table(api, CRONTABS);
    expect(reply.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual(['Name', 'Spec', 'Replicas', 'Age']);
    expect(reply.body.rows[0].cells).toEqual(['nightly', '*/5 * * * *', '2', '0s']);
  });

  it('answers access reviews for it', async () => {
    const api = await withDefinition();
    const review = await api.send('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { verb: 'create', group: 'stable.example.com', resource: 'crontabs', namespace: 'default' } } },
    });
    expect(review.body.status.allowed).toBe(true);
  });

  it('watches its objects', async () => {
    const api = await withDefinition();
    const request: ApiRequest = { method: 'GET', path: CRONTABS, query: { watch: '1' }, headers: {}, body: undefined };
    const served = await serveWatchRequest(request, { objects: api.system.objects, store: api.system.store, events: api.system.events }, testWatchTiming(5, 30));
    if ('statusCode' in served) throw new Error(served.body);
    const events: WatchEvent[] = [];
    const controller = new AbortController();
    const ended = served.run({ signal: controller.signal, send: (event) => void events.push(event) });
    await api.seed(cronTab('nightly'));
    while (events.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await ended;
    expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'CronTab', metadata: { name: 'nightly' } } });
  });

  it('is served no longer once its definition is deleted', async () => {
    const api = await withDefinition();
    expect((await api.send('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/crontabs.stable.example.com')).statusCode).toBe(200);
    expect((await api.get(CRONTABS)).statusCode).toBe(404);
    expect((await api.get('/apis')).body.groups.map((g: { name: string }) => g.name)).not.toContain('stable.example.com');
  });

  it('does not serve a definition of a kind outrank serves itself: the built-in kind answers', async () => {
    const api = await withDefinition();
    const own = cronTabDefinition();
    own.metadata.name = 'propagationpolicies.policy.karmada.io';
    own.spec.group = 'policy.karmada.io';
    own.spec.names = { plural: 'propagationpolicies', kind: 'PropagationPolicy' };
    expect((await api.send('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: own })).statusCode).toBe(201);
    const resources = (await api.get('/apis/policy.karmada.io/v1alpha1')).body.resources.map((r: { name: string }) => r.name);
    expect(resources.filter((name: string) => name === 'propagationpolicies')).toHaveLength(1);
    expect((await api.get('/apis/policy.karmada.io/v1')).statusCode).toBe(404);
  });

  it('reads no definition for a request of one of outrank\'s own resources, and the definitions\' feed once for a custom kind', async () => {
    let api: CountingStore | undefined;
    const system = new MemorySystem(withConfig(), (fn, store) => (fn === 'api' ? (api = new CountingStore(store)) : store));
    await system.objects.apply(cronTabDefinition());
    const send = (path: string) =>
      handleApiRequest({ method: 'GET', path, query: {}, headers: {}, body: undefined }, { objects: system.objects, store: api!, events: system.events });
    api!.reset();
    expect((await send('/apis/apps/v1/namespaces/default/deployments')).statusCode).toBe(200);
    expect(api!.counts.byMethod).toEqual({ list: 1 });
    api!.reset();
    expect((await send(CRONTABS)).statusCode).toBe(200);
    expect(api!.counts.byMethod).toEqual({ changes: 1, list: 1 });
  });
});
