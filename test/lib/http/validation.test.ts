import { describe, expect, it } from 'vitest';
import { Api, cluster, priorityClass, propagationPolicy, workload } from './support';

const PRIORITY_CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const POLICIES = '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies';
const DEPLOYMENTS = '/apis/apps/v1/namespaces/default/deployments';

const deployment = workload('apps/v1', 'Deployment', 'web');
const withSpec = (spec: Record<string, unknown>) => ({ ...deployment, spec: { ...deployment.spec, ...spec } });
const withContainer = (container: Record<string, unknown>) => withSpec({ template: { spec: { containers: [container] } } });

/** Invalid manifests: the status, reason and the field a cause must name. */
const INVALID: ReadonlyArray<readonly [string, string, string | object, number, string]> = [
  ['a value that is not a number', PRIORITY_CLASSES, { ...priorityClass(), value: 'high' }, 422, 'value'],
  ['a value beyond 32 bits', PRIORITY_CLASSES, { ...priorityClass(), value: 2 ** 31 }, 422, 'value'],
  ['an unknown field', PRIORITY_CLASSES, { ...priorityClass(), valu: 1 }, 422, 'valu'],
  ['an unknown preemptionPolicy', PRIORITY_CLASSES, { ...priorityClass(), preemptionPolicy: 'Sometimes' }, 422, 'preemptionPolicy'],
  ['a name that is not a DNS subdomain', PRIORITY_CLASSES, { ...priorityClass(), metadata: { name: 'Not_Valid' } }, 422, 'metadata.name'],
  ['a namespace on a cluster-scoped kind', CLUSTERS, { ...cluster(), metadata: { name: 'member1', namespace: 'default' } }, 422, 'metadata.namespace'],
  ['a negative quantity', CLUSTERS, cluster('member1', '-1'), 422, 'status.resourceSummary.allocatable.cpu'],
  ['no resourceSelectors', POLICIES, { ...propagationPolicy(), spec: {} }, 422, 'spec.resourceSelectors'],
  ['a preempting policy naming no resource', POLICIES, propagationPolicy('p', 'default', { preemption: 'Always' }), 422, 'spec.resourceSelectors[0].name'],
  ['a spread by region without a cluster constraint', POLICIES, propagationPolicy('p', 'default', { placement: { spreadConstraints: [{ spreadByField: 'region' }] } }), 422, 'spec.placement.spreadConstraints'],
  [
    'a field selector on a field clusters are not selected by',
    POLICIES,
    propagationPolicy('p', 'default', { placement: { clusterAffinity: { fieldSelector: { matchExpressions: [{ key: 'name', operator: 'In', values: ['x'] }] } } } }),
    422,
    'spec.placement.clusterAffinity.fieldSelector.matchExpressions[0].key',
  ],
  ['no pod template', DEPLOYMENTS, { ...deployment, spec: { replicas: 1 } }, 422, 'spec.template'],
  ['negative replicas', DEPLOYMENTS, withSpec({ replicas: -1 }), 422, 'spec.replicas'],
  ['a malformed cpu request', DEPLOYMENTS, withContainer({ name: 'c', resources: { requests: { cpu: 'lots' } } }), 422, 'spec.template.spec.containers[0].resources.requests.cpu'],
  ['a label value with spaces', DEPLOYMENTS, { ...deployment, metadata: { ...deployment.metadata, labels: { app: 'a b' } } }, 422, 'metadata.labels.app'],
  ['a metadata that is not an object', DEPLOYMENTS, { ...deployment, metadata: 'web' }, 400, 'metadata'],
  ['no name', DEPLOYMENTS, { ...deployment, metadata: { namespace: 'default' } }, 422, 'metadata.name'],
  ['YAML that does not parse', DEPLOYMENTS, 'apiVersion: apps/v1\nkind: [Deployment\n', 400, '<root>'],
  ['YAML with a duplicate key', DEPLOYMENTS, 'apiVersion: apps/v1\napiVersion: apps/v1\n', 400, '<root>'],
  ['a YAML alias bomb', DEPLOYMENTS, `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 70 }, (_, i) => `b${i}: [*a, *a, *a, *a, *a, *a, *a, *a, *a]`).join('\n')}\n`, 400, '<root>'],
];

describe('invalid manifests are refused with causes naming the field, and nothing is written', () => {
  it.each(INVALID)('POST with %s', async (_, path, body, code, field) => {
    const api = new Api();
    await api.seed(priorityClass('existing'), cluster('existing'));
    const before = await api.snapshot();
    const reply = await api.send('POST', path, typeof body === 'string' ? { text: body, contentType: 'application/yaml' } : { body });
    expect(reply.statusCode).toBe(code);
    expect(reply.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: code === 400 ? 'BadRequest' : 'Invalid', code });
    expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field: expect.stringContaining(field), reason: 'FieldValueInvalid' }));
    expect(await api.snapshot()).toEqual(before);
  });

  // On an object's URL a body without name takes the URL's, so that case is valid there.
  const invalidOnPut = INVALID.filter(([what, , body]) => typeof body === 'object' && what !== 'no name');
  it.each(invalidOnPut)('PUT over an existing object with %s', async (_, path, body, code, field) => {
    const api = new Api();
    await api.seed(priorityClass(), cluster(), propagationPolicy(), propagationPolicy('p'), deployment);
    const object = body as { metadata?: unknown };
    const name = typeof object.metadata === 'object' && object.metadata && 'name' in object.metadata ? (object.metadata.name as string) : 'web';
    const before = await api.snapshot();
    const reply = await api.send('PUT', `${path}/${name}`, { body });
    expect(reply.statusCode).toBe(name === 'Not_Valid' ? 404 : code);
    if (reply.statusCode !== 404) expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field: expect.stringContaining(field) }));
    expect(await api.snapshot()).toEqual(before);
  });

  it.each([
    ['a body that is not an object', '[1, 2]'],
    ['a body that is not JSON', '{"apiVersion": '],
    ['an empty body', ''],
    ['a body nested too deep', `${'{"a":'.repeat(500)}1${'}'.repeat(500)}`],
  ])('POST with %s is 400', async (_, text) => {
    const api = new Api();
    const reply = await api.send('POST', DEPLOYMENTS, { text });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(await api.snapshot()).toEqual(await new Api().snapshot());
  });

  it('YAML with two objects is 400: one request, one object', async () => {
    const api = new Api();
    const reply = await api.send('POST', PRIORITY_CLASSES, {
      text: 'apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: a}\nvalue: 1\n---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: b}\nvalue: 2\n',
      contentType: 'application/yaml',
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toContain('exactly one object');
    expect(await api.snapshot()).toEqual(await new Api().snapshot());
  });
});

describe('a PriorityClass value cannot change (binding priority and preemption (000))', () => {
  const item = `${PRIORITY_CLASSES}/high`;

  it.each([
    ['PUT', { ...priorityClass('high', 5) }, 'application/json'],
    ['PATCH', { value: 5 }, 'application/merge-patch+json'],
    ['PATCH', { value: 5 }, 'application/strategic-merge-patch+json'],
    ['PATCH', { ...priorityClass('high', 5) }, 'application/apply-patch+yaml'],
  ])('%s (%s) is 422 naming value, and writes nothing', async (method, body, contentType) => {
    const api = new Api();
    await api.seed(priorityClass('high', 1000));
    const before = await api.snapshot();
    const reply = await api.send(method, item, { body, contentType });
    expect(reply.statusCode).toBe(422);
    expect(reply.body).toMatchObject({ reason: 'Invalid', details: { name: 'high', kind: 'PriorityClass', group: 'scheduling.k8s.io' } });
    expect(reply.body.details.causes).toContainEqual({ field: 'value', message: expect.stringContaining('immutable'), reason: 'FieldValueInvalid' });
    expect(await api.snapshot()).toEqual(before);
  });

  it('while its description can', async () => {
    const api = new Api();
    await api.seed(priorityClass('high', 1000));
    const reply = await api.send('PATCH', item, { body: { description: 'still important' }, contentType: 'application/merge-patch+json' });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ value: 1000, description: 'still important' });
  });
});
