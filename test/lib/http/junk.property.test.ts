import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Api, cluster, job, priorityClass, propagationPolicy, workload } from './support';
import { nextEventLoopTurn } from '../../support/event-loop-turn';

const ITEMS = [
  '/apis/scheduling.k8s.io/v1/priorityclasses/high',
  '/apis/cluster.karmada.io/v1alpha1/clusters/member1',
  '/apis/policy.karmada.io/v1alpha1/namespaces/tenant-a/propagationpolicies/queued',
  '/apis/apps/v1/namespaces/default/deployments/web',
  '/apis/batch/v1/namespaces/tenant-a/jobs/report',
  '/apis/work.karmada.io/v1alpha2/namespaces/tenant-a/resourcebindings/report-job',
];

const COLLECTIONS = [
  '/apis/scheduling.k8s.io/v1/priorityclasses',
  '/apis/policy.karmada.io/v1alpha1/namespaces/tenant-a/propagationpolicies',
  '/apis/apps/v1/namespaces/default/deployments',
  '/apis/work.karmada.io/v1alpha2/namespaces/tenant-a/resourcebindings',
];

const ELSEWHERE = ['/api/v1/namespaces/tenant-a/events', '/api/v1/namespaces/tenant-a/events/x', '/apis/apps/v1/deployments', '/apis/nothing/v1/things', '/apis'];

const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/json-patch+json',
  'text/plain',
  undefined,
];

/** Requests a client could mean: the right method and media type for the URL, so the body is what is tested. */
const coherent = fc.oneof(
  fc.record({ method: fc.constant('POST'), path: fc.constantFrom(...COLLECTIONS), contentType: fc.constantFrom('application/json', 'application/yaml') }),
  fc.record({ method: fc.constant('PUT'), path: fc.constantFrom(...ITEMS), contentType: fc.constantFrom('application/json', 'application/yaml') }),
  fc.record({
    method: fc.constant('PATCH'),
    path: fc.constantFrom(...ITEMS),
    contentType: fc.constantFrom('application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'),
  }),
);

/** Anything else (deletes left out, so that the objects aimed at stay). */
const anywhere = fc.record({
  method: fc.constantFrom('POST', 'PUT', 'PATCH', 'GET', 'OPTIONS'),
  path: fc.constantFrom(...ITEMS, ...COLLECTIONS, ...ELSEWHERE),
  contentType: fc.constantFrom(...CONTENT_TYPES),
});

const nonObject = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.array(fc.jsonValue(), { maxLength: 3 }));

/** Objects that look like manifests, with fields of the wrong type; a non-object metadata makes each invalid. */
const wrongTyped = fc.record({
  apiVersion: fc.oneof(fc.constantFrom('apps/v1', 'scheduling.k8s.io/v1', 'work.karmada.io/v1alpha2', 'v1'), fc.jsonValue()),
  kind: fc.oneof(fc.constantFrom('Deployment', 'PriorityClass', 'ResourceBinding', 'Cluster'), fc.jsonValue()),
  metadata: nonObject,
  spec: fc.jsonValue(),
  value: fc.jsonValue(),
});

/** Nesting far past the depth limit, as JSON arrays, JSON objects and YAML flow collections. */
const deep = fc.tuple(fc.integer({ min: 101, max: 50_000 }), fc.constantFrom(['[', ']'], ['{"a":', '}'], ['{a: ', '}'])).map(
  ([depth, [open, close]]) => `${open.repeat(depth)}1${close.repeat(depth)}`,
);

/** Every way a body nests: JSON arrays and objects (JSON media types take these), and YAML's flow and block collections too. */
const JSON_NESTINGS = [
  (depth: number) => `${'['.repeat(depth)}1${']'.repeat(depth)}`,
  (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
];
const YAML_NESTINGS = [
  ...JSON_NESTINGS,
  (depth: number) => `${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`,
  (depth: number) => `${'- '.repeat(depth)}1`,
  // Indentation grows with depth: a thousand levels is about the most a body of 1 MiB holds.
  (depth: number) => `${Array.from({ length: Math.min(depth, 1_000) }, (_, level) => `${' '.repeat(level)}a:`).join('\n')} 1`,
];

/** A manifest of the right kind whose spec nests past the limit, in a syntax its media type takes. */
const WRITE = fc.constantFrom('application/json', 'application/yaml');
const PATCH = fc.constantFrom('application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml', 'application/json-patch+json');
const tooDeep = fc
  .tuple(
    fc.oneof(
      fc.record({ method: fc.constant('POST'), path: fc.constant(COLLECTIONS[2]!), contentType: WRITE }),
      fc.record({ method: fc.constant('PUT'), path: fc.constant(ITEMS[3]!), contentType: WRITE }),
      fc.record({ method: fc.constant('PATCH'), path: fc.constant(ITEMS[3]!), contentType: PATCH }),
    ),
    fc.integer({ min: 101, max: 20_000 }),
    fc.nat(),
  )
  .map(([target, depth, pick]) => {
    const { contentType } = target;
    const yaml = contentType.endsWith('yaml');
    const nestings = yaml ? YAML_NESTINGS : JSON_NESTINGS;
    const spec = nestings[pick % nestings.length]!(depth);
    const body =
      contentType === 'application/json-patch+json'
        ? `[{"op": "add", "path": "/spec/x", "value": ${spec}}]`
        : yaml
          ? `apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: default}\nspec:\n${spec.split('\n').map((line) => `  ${line}`).join('\n')}\n`
          : `{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "namespace": "default"}, "spec": ${spec}}`;
    return { ...target, body };
  });

/**
 * Bodies that can never be a valid object or patch. Not an empty array: sent as a JSON Patch
 * (application/json-patch+json) it is a patch of no operations, which Kubernetes accepts and so does outrank.
 */
const hopeless = fc.oneof(
  nonObject.filter((v) => !(Array.isArray(v) && v.length === 0)).map((v) => JSON.stringify(v)),
  wrongTyped.map((v) => JSON.stringify(v)),
  deep,
  fc.constant('x'.repeat(1024 * 1024 + 1)),
  fc.constant(`a: &a [x, x, x, x, x, x, x, x]\n${Array.from({ length: 80 }, (_, i) => `b${i}: [*a, *a, *a, *a, *a, *a, *a, *a]`).join('\n')}\n`),
);

/** Manifests of the right shape with random contents: mostly invalid, sometimes not. */
const shaped = fc
  .record({
    apiVersion: fc.constantFrom('apps/v1', 'scheduling.k8s.io/v1', 'policy.karmada.io/v1alpha1', 'work.karmada.io/v1alpha2'),
    kind: fc.constantFrom('Deployment', 'PriorityClass', 'PropagationPolicy', 'ResourceBinding'),
    metadata: fc.record({ name: fc.constantFrom('high', 'web', 'queued', 'report-job', 'Bad_Name'), labels: fc.jsonValue() }, { requiredKeys: ['name'] }),
    spec: fc.jsonValue(),
    value: fc.jsonValue(),
  }, { requiredKeys: ['apiVersion', 'kind', 'metadata'] })
  .map((v) => JSON.stringify(v));

/** Anything: random JSON (which may happen to be a valid patch), random text, and the hopeless. */
const junk = fc.oneof(fc.json(), fc.string(), shaped, wrongTyped.map((v) => JSON.stringify(v)), hopeless);

const request = (body: fc.Arbitrary<string>) =>
  fc.tuple(fc.oneof({ arbitrary: coherent, weight: 4 }, { arbitrary: anywhere, weight: 1 }), body).map(([target, text]) => ({ ...target, body: text }));

/** The objects the junk is aimed at, bindings and events included. */
async function seeded(): Promise<Api> {
  const api = new Api();
  await api.seed(
    priorityClass('high'),
    cluster('member1'),
    propagationPolicy('queued', 'tenant-a'),
    job('report', 'tenant-a'),
    workload('apps/v1', 'Deployment', 'web'),
  );
  return api;
}

describe('junk bodies', () => {
  it('nested past 100 levels, JSON or YAML, are refused with 400 naming the rule before anything recurses through them, and change nothing', async () => {
    const api = await seeded();
    await fc.assert(
      fc.asyncProperty(tooDeep, async ({ method, path, contentType, body }) => {
        await nextEventLoopTurn();
        const before = await api.snapshot();
        const reply = await api.send(method, path, { text: body, contentType });
        expect(reply.statusCode).toBe(400);
        expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'BadRequest', message: 'the request body must not be nested more than 100 levels deep' });
        expect(await api.snapshot()).toEqual(before);
      }),
      { numRuns: 100 },
    );
    expect(api.internalErrors).toEqual([]);
  });

  it('never produce a 5xx, always get a Status when refused, and change nothing unless accepted', async () => {
    const api = await seeded();
    await fc.assert(
      fc.asyncProperty(request(junk), async ({ method, path, contentType, body }) => {
        await nextEventLoopTurn();
        const before = await api.snapshot();
        const reply = await api.send(method, path, { text: body, ...(contentType ? { contentType } : {}) });
        expect(reply.statusCode).toBeLessThan(500);
        if (reply.statusCode >= 400) {
          expect(reply.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: reply.statusCode });
          expect(await api.snapshot()).toEqual(before);
        }
      }),
      { numRuns: 400 },
    );
    expect(api.internalErrors).toEqual([]);
  });

  it('that cannot be an object or a patch are always refused and never change the store', async () => {
    const api = await seeded();
    await fc.assert(
      fc.asyncProperty(request(hopeless).filter((r) => r.method !== 'GET'), async ({ method, path, contentType, body }) => {
        await nextEventLoopTurn();
        const before = await api.snapshot();
        const reply = await api.send(method, path, { text: body, ...(contentType ? { contentType } : {}) });
        expect(reply.statusCode).toBeGreaterThanOrEqual(400);
        expect(reply.statusCode).toBeLessThan(500);
        expect(await api.snapshot()).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });
});
