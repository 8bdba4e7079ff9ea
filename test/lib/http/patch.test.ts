import { describe, expect, it } from 'vitest';
import { Api, cluster, priorityClass, propagationPolicy, workload } from './support';

const DEPLOYMENT = '/apis/apps/v1/namespaces/default/deployments/web';
const PRIORITY_CLASS = '/apis/scheduling.k8s.io/v1/priorityclasses/high';
const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';

async function seeded(): Promise<Api> {
  const api = new Api();
  await api.seed(priorityClass('high'), cluster('member1'), propagationPolicy('p'), workload('apps/v1', 'Deployment', 'web', 'default', { app: 'web', tier: 'front' }));
  return api;
}

describe('JSON merge patch', () => {
  it('removes a field set to null', async () => {
    const api = await seeded();
    const pc = await api.send('PATCH', PRIORITY_CLASS, { body: { description: null }, contentType: MERGE });
    expect(pc.statusCode).toBe(200);
    expect(pc.body).not.toHaveProperty('description');
    const deployment = await api.send('PATCH', DEPLOYMENT, { body: { metadata: { labels: { tier: null } } }, contentType: MERGE });
    expect(deployment.body.metadata.labels).toEqual({ app: 'web' });
    expect((await api.get(DEPLOYMENT)).body.metadata.labels).toEqual({ app: 'web' });
  });

  it('replaces lists whole', async () => {
    const api = await seeded();
    const containers = [{ name: 'sidecar', image: 'envoy' }];
    const reply = await api.send('PATCH', DEPLOYMENT, { body: { spec: { template: { spec: { containers } } } }, contentType: MERGE });
    expect(reply.body.spec.template.spec.containers).toEqual(containers);
  });

  it.each([['[1]'], ['5'], ['"text"'], ['null'], ['{']])('refuses the body %s with 400, nothing written', async (text) => {
    const api = await seeded();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', DEPLOYMENT, { text, contentType: MERGE });
    expect(reply.statusCode).toBe(400);
    expect(await api.snapshot()).toEqual(before);
  });
});

describe('strategic merge patch', () => {
  it.each([
    [PRIORITY_CLASS, { description: 'patched' }, 'description'],
    ['/apis/cluster.karmada.io/v1alpha1/clusters/member1', { spec: { region: 'eu' } }, 'spec'],
    ['/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies/p', { metadata: { labels: { a: 'b' } } }, 'metadata'],
  ])('is a merge patch for outrank\'s own kinds: %s', async (path, body, key) => {
    const api = await seeded();
    const reply = await api.send('PATCH', path, { body, contentType: STRATEGIC });
    expect(reply.statusCode).toBe(200);
    expect(reply.body[key]).toMatchObject((body as Record<string, object>)[key]!);
  });

  it('merges a template\'s containers by name, as kubectl apply expects', async () => {
    const api = await seeded();
    const before = (await api.get(DEPLOYMENT)).body.spec.template.spec.containers;
    const reply = await api.send('PATCH', DEPLOYMENT, {
      body: { spec: { template: { spec: { containers: [{ name: 'sidecar', image: 'envoy' }] } } } },
      contentType: STRATEGIC,
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.template.spec.containers).toEqual([...before, { name: 'sidecar', image: 'envoy' }]);
  });

  it('refuses a list item without its merge key with 400, nothing written', async () => {
    const api = await seeded();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', DEPLOYMENT, {
      body: { spec: { template: { spec: { containers: [{ image: 'envoy' }] } } } },
      contentType: STRATEGIC,
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toContain('"name"');
    expect(await api.snapshot()).toEqual(before);
  });
});

describe('server-side apply', () => {
  const yaml = (replicas: number) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: api\nspec:\n  replicas: ${replicas}\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers: [{name: api, image: api}]\n`;
  const path = '/apis/apps/v1/namespaces/default/deployments/api';

  it('creates (201), then applies again (200) for the same field manager', async () => {
    const api = new Api();
    const created = await api.send('PATCH', path, { text: yaml(1), contentType: APPLY, query: { fieldManager: 'kubectl', force: 'false' } });
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatchObject({ metadata: { name: 'api', namespace: 'default' }, spec: { replicas: 1 } });
    const replaced = await api.send('PATCH', path, { text: yaml(3), contentType: APPLY, query: { fieldManager: 'kubectl' } });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.body.spec.replicas).toBe(3);
    expect(replaced.body.metadata.generation).toBe(2);
  });

  it('takes JSON too, as kubectl sends it', async () => {
    const api = new Api();
    const reply = await api.send('PATCH', PRIORITY_CLASS, { body: priorityClass('high'), contentType: APPLY });
    expect(reply.statusCode).toBe(201);
  });
});

describe('other patch types', () => {
  it.each(['application/json', 'text/plain'])('%s is 415', async (contentType) => {
    const api = await seeded();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', DEPLOYMENT, { text: '[{"op": "replace", "path": "/spec/replicas", "value": 3}]', contentType });
    expect(reply.statusCode).toBe(415);
    expect(reply.body.message).toContain(MERGE);
    expect(await api.snapshot()).toEqual(before);
  });
});
