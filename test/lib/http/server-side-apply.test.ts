/**
 * Server-side apply with field ownership (metadata.managedFields), as Kubernetes' structured-merge
 * rules define it: each manager owns what it applied, a manager's apply conflicts where another owns a
 * field it sets to another value (409, or taken with force=true), fields it no longer applies go
 * unless someone else owns them, and any other write takes the fields it changes.
 */
import { describe, expect, it } from 'vitest';
import { Api } from './support';

const APPLY = 'application/apply-patch+yaml';
const PATH = '/apis/apps/v1/namespaces/default/deployments/web';

function config(spec: Record<string, unknown>, labels?: Record<string, string>) {
  return { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', ...(labels ? { labels } : {}) }, spec };
}

const containers = (...list: Array<{ name: string; image: string }>) => ({ selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: list } } });

async function apply(api: Api, manager: string, body: object, force = false) {
  return api.send('PATCH', PATH, { body, contentType: APPLY, query: { fieldManager: manager, ...(force ? { force: 'true' } : {}) } });
}

function managers(object: { metadata: { managedFields?: Array<{ manager: string; operation: string }> } }): string[] {
  return (object.metadata.managedFields ?? []).map((entry) => `${entry.manager}/${entry.operation}`).sort();
}

describe('server-side apply', () => {
  it('records what each manager applied in managedFields, as FieldsV1', async () => {
    const api = new Api();
    const reply = await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    expect(reply.statusCode).toBe(201);
    const [entry] = reply.body.metadata.managedFields;
    expect(entry).toMatchObject({ manager: 'ci', operation: 'Apply', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', time: expect.stringMatching(/Z$/) });
    expect(entry.fieldsV1['f:spec']['f:replicas']).toEqual({});
    expect(entry.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"main"}']).toEqual({ '.': {}, 'f:image': {}, 'f:name': {} });
  });

  it('refuses with 409 a field another manager owns at another value, naming the field and the manager, writing nothing', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    const before = await api.snapshot();
    const reply = await apply(api, 'autoscaler', config({ replicas: 5 }));
    expect(reply.statusCode).toBe(409);
    expect(reply.body.reason).toBe('Conflict');
    expect(reply.body.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "ci" using apps/v1', field: '.spec.replicas' }]);
    expect(await api.snapshot()).toEqual(before);
  });

  it('with force=true takes the field: the other manager no longer owns it', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    const reply = await apply(api, 'autoscaler', config({ replicas: 5 }), true);
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.replicas).toBe(5);
    const ci = reply.body.metadata.managedFields.find((entry: { manager: string }) => entry.manager === 'ci');
    expect(ci.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    // Now ci's own apply without replicas leaves them be: autoscaler owns them.
    const again = await apply(api, 'ci', config(containers({ name: 'main', image: 'web:2' })));
    expect(again.body.spec.replicas).toBe(5);
  });

  it('sets the same value as another manager without conflict: both own the field', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    const reply = await apply(api, 'audit', config({ replicas: 2 }));
    expect(reply.statusCode).toBe(200);
    expect(managers(reply.body)).toEqual(['audit/Apply', 'ci/Apply']);
  });

  it('removes a field its manager no longer applies, but keeps one another manager owns', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2, paused: true, ...containers({ name: 'main', image: 'web:1' }) }, { tier: 'web' }));
    await apply(api, 'labeller', config({}, { tier: 'web', team: 'a' }));
    const reply = await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    expect(reply.body.spec.paused).toBeUndefined();
    expect(reply.body.metadata.labels).toEqual({ tier: 'web', team: 'a' });
  });

  it('merges containers by name: each manager keeps its own', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 1, ...containers({ name: 'main', image: 'web:1' }) }));
    await apply(api, 'mesh', config(containers({ name: 'proxy', image: 'envoy:1' })));
    const reply = await apply(api, 'ci', config({ replicas: 1, ...containers({ name: 'main', image: 'web:2' }) }));
    expect(reply.body.spec.template.spec.containers).toEqual([
      { name: 'main', image: 'web:2' },
      { name: 'proxy', image: 'envoy:1' },
    ]);
  });

  it('an update (merge patch) takes the fields it changes; applying another value then conflicts with it', async () => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    const patched = await api.send('PATCH', PATH, { body: { spec: { replicas: 4 } }, contentType: 'application/merge-patch+json', query: { fieldManager: 'kubectl-edit' } });
    expect(managers(patched.body)).toEqual(['ci/Apply', 'kubectl-edit/Update']);
    const reply = await apply(api, 'ci', config({ replicas: 2, ...containers({ name: 'main', image: 'web:1' }) }));
    expect(reply.statusCode).toBe(409);
    expect(reply.body.details.causes[0]).toMatchObject({ field: '.spec.replicas', message: 'conflict with "kubectl-edit" using apps/v1' });
  });

  it('takes the field manager of other writes from the user agent when not given', async () => {
    const api = new Api();
    const reply = await api.send('POST', '/apis/apps/v1/namespaces/default/deployments', { body: config({ replicas: 1, ...containers({ name: 'main', image: 'web:1' }) }) });
    expect(managers(reply.body)).toEqual(['unknown/Update']);
  });

  it('requires a field manager, with 400 naming the parameter', async () => {
    const api = new Api();
    const reply = await api.send('PATCH', PATH, { body: config({ replicas: 1 }), contentType: APPLY, query: { fieldManager: '' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toBe('fieldManager: is required for apply requests');
  });

  it.each([
    ['a YAML list holding one object', '- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: web}\n'],
    ['a JSON array holding one object', '[{}]'],
    ['a kind: List', 'apiVersion: v1\nkind: List\nitems:\n- {apiVersion: apps/v1, kind: Deployment, metadata: {name: web}}\n'],
  ])('refuses %s with 400: the body must be the object itself, as in Kubernetes, and nothing is written', async (_, text) => {
    const api = new Api();
    await apply(api, 'ci', config({ replicas: 2 }));
    const before = await api.snapshot();
    const reply = await api.send('PATCH', PATH, { text, contentType: APPLY, query: { fieldManager: 'ci' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(await api.snapshot()).toEqual(before);
  });
});

