/**
 * fieldValidation on every write, as kube-apiserver reads it (Strict, Warn, Ignore), with Strict as
 * outrank's default; unknown and duplicate fields of workload templates and of outrank's own kinds.
 */
import { describe, expect, it } from 'vitest';
import { Api, priorityClass, workload } from './support';

const deployments = '/apis/apps/v1/namespaces/default/deployments';
const priorityClasses = '/apis/scheduling.k8s.io/v1/priorityclasses';

function misspelt(name: string): Record<string, any> {
  const object = structuredClone(workload('apps/v1', 'Deployment', name)) as Record<string, any>;
  const container = object.spec.template.spec.containers[0];
  container.resources = { requets: container.resources.requests };
  return object;
}

describe('fieldValidation', () => {
  it.each([undefined, 'Strict'])('refuses an unknown field with 422 naming its path, writing nothing (fieldValidation=%s)', async (mode) => {
    const api = new Api();
    const before = await api.snapshot();
    const reply = await api.send('POST', deployments, { body: misspelt('web'), query: mode ? { fieldValidation: mode } : {} });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes).toEqual([{ field: 'spec.template.spec.containers[0].resources.requets', message: 'unknown field', reason: 'FieldValueInvalid' }]);
    expect(await api.snapshot()).toEqual(before);
  });

  it('Warn drops the unknown field and says so in a Warning header', async () => {
    const api = new Api();
    const reply = await api.send('POST', deployments, { body: misspelt('web'), query: { fieldValidation: 'Warn' } });
    expect(reply.statusCode).toBe(201);
    expect(reply.headers.warning).toBe('299 - "unknown field \\"spec.template.spec.containers[0].resources.requets\\""');
    expect(reply.body.spec.template.spec.containers[0].resources).toEqual({});
  });

  it('Ignore drops the unknown field silently', async () => {
    const api = new Api();
    const reply = await api.send('POST', priorityClasses, { body: { ...priorityClass('high', 10), priority: 1 }, query: { fieldValidation: 'Ignore' } });
    expect(reply.statusCode).toBe(201);
    expect(reply.headers.warning).toBeUndefined();
    expect(reply.body.priority).toBeUndefined();
  });

  it('applies to patches: a merge patch adding an unknown field is refused under Strict, dropped under Warn', async () => {
    const api = new Api();
    await api.seed(workload('apps/v1', 'Deployment', 'web'));
    const patch = { spec: { replica: 3 } };
    const strict = await api.send('PATCH', `${deployments}/web`, { body: patch, contentType: 'application/merge-patch+json' });
    expect(strict.statusCode).toBe(422);
    expect(strict.body.details.causes[0].field).toBe('spec.replica');
    const warned = await api.send('PATCH', `${deployments}/web`, { body: patch, contentType: 'application/merge-patch+json', query: { fieldValidation: 'Warn' } });
    expect(warned.statusCode).toBe(200);
    expect(warned.headers.warning).toContain('spec.replica');
  });

  it('refuses a duplicate field in a JSON body under Strict, and warns of it under Warn keeping the last', async () => {
    const api = new Api();
    const body = JSON.stringify(priorityClass('high', 10)).replace('"value":10', '"value":10,"value":20');
    const strict = await api.send('POST', priorityClasses, { text: body });
    expect(strict.statusCode).toBe(400);
    expect(strict.body.message).toBe('strict decoding error: duplicate field "value"');
    const warned = await api.send('POST', priorityClasses, { text: body, query: { fieldValidation: 'Warn' } });
    expect(warned.statusCode).toBe(201);
    expect(warned.headers.warning).toBe('299 - "duplicate field \\"value\\""');
    expect(warned.body.value).toBe(20);
  });

  it('refuses a directive it does not know with 400 naming the parameter and the values', async () => {
    const api = new Api();
    const reply = await api.send('POST', priorityClasses, { body: priorityClass('high', 10), query: { fieldValidation: 'strict' } });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toBe('fieldValidation: invalid directive "strict": must be one of Strict, Warn, Ignore');
  });
});
