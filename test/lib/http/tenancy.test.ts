import { beforeEach, describe, expect, it } from 'vitest';
import { CLUSTER_RESOURCE_BINDING } from '../../../lib/api/kinds';
import { SERVED_RESOURCES, type ServedResource, type Verb } from '../../../lib/http/served-resources';
import { BUNDLE_OBJECTS } from '../../support/bundle-objects';
import { ADMIN, STRANGER, TEAM_A, TEAM_A_SESSION, TENANCY } from '../auth/support';
import { Api, cluster, clusterPropagationPolicy, job, priorityClass, propagationPolicy, workload, type RequestOptions } from './support';

const MERGE = 'application/merge-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const POLICIES = (namespace: string) => `/apis/policy.karmada.io/v1alpha1/namespaces/${namespace}/propagationpolicies`;
const DEPLOYMENTS = (namespace: string) => `/apis/apps/v1/namespaces/${namespace}/deployments`;
const BINDINGS = (namespace: string) => `/apis/work.karmada.io/v1alpha2/namespaces/${namespace}/resourcebindings`;
const CLUSTERS = '/apis/cluster.karmada.io/v1alpha1/clusters';
const PRIORITY_CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';
const CLUSTER_POLICIES = '/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies';

const restricted = (name: string, value: number) => ({ ...priorityClass(name, value), metadata: { name, labels: { 'outrank.io/restricted': 'true' } } });

/** A policy for Deployments, with a KubePriorityClass when named. */
const deploymentPolicy = (namespace: string, className?: string, name = 'web') =>
  propagationPolicy(name, namespace, {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    ...(className ? { schedulePriority: { priorityClassName: className } } : {}),
  });

/** A Deployment whose pod template names a priority class when given one. */
const deployment = (namespace: string, className?: string, name = 'web') => {
  const object = workload('apps/v1', 'Deployment', name, namespace);
  return className ? { ...object, spec: { ...object.spec, template: { ...object.spec.template, spec: { ...object.spec.template.spec, priorityClassName: className } } } } : object;
};

/**
 * Written by an admin through the write path: classes ("critical" restricted by the settings,
 * "system-high" by its label), a cluster, a ClusterPropagationPolicy, and in team-a and team-b a
 * Deployment policy, a Deployment, and a suspended Job with its binding.
 */
async function tenantSystem(): Promise<Api> {
  const api = new Api(TENANCY);
  await api.seed(
    priorityClass('low', 10),
    priorityClass('critical', 1_000_000),
    restricted('system-high', 100_000),
    cluster('member1'),
    clusterPropagationPolicy('all-deployments'),
  );
  for (const namespace of ['team-a', 'team-b']) {
    await api.seed(
      deploymentPolicy(namespace, 'low'),
      deployment(namespace),
      propagationPolicy('queued', namespace, { suspension: { scheduling: true } }),
      job('report', namespace),
    );
  }
  return api;
}

interface WriteCase {
  readonly name: string;
  readonly identity: string;
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly contentType?: string;
  /** Refusals: what the Forbidden message must say besides the identity. */
  readonly rule?: string;
  readonly status?: number;
}

function requestOf(c: WriteCase): RequestOptions {
  const text = c.contentType === APPLY ? JSON.stringify(c.body) : undefined;
  return { identity: c.identity, ...(text ? { text } : c.body === undefined ? {} : { body: c.body }), ...(c.contentType ? { contentType: c.contentType } : {}) };
}

const REFUSED: WriteCase[] = [
  { name: 'create a policy in another tenant\'s namespace', identity: TEAM_A, method: 'POST', path: POLICIES('team-b'), body: deploymentPolicy('team-b', undefined, 'mine'), rule: 'cannot create propagationpolicies "mine" in namespace "team-b": not a namespace of this tenant (team-a, team-a-batch)' },
  { name: 'replace a policy in another tenant\'s namespace', identity: TEAM_A, method: 'PUT', path: `${POLICIES('team-b')}/web`, body: deploymentPolicy('team-b'), rule: 'cannot update propagationpolicies "web" in namespace "team-b": not a namespace of this tenant' },
  { name: 'merge-patch a policy in another tenant\'s namespace', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-b')}/web`, body: { spec: { priority: 5 } }, contentType: MERGE, rule: 'cannot patch propagationpolicies "web" in namespace "team-b": not a namespace of this tenant' },
  { name: 'server-side apply a policy in another tenant\'s namespace', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-b')}/applied`, body: deploymentPolicy('team-b', undefined, 'applied'), contentType: APPLY, rule: 'cannot patch propagationpolicies "applied" in namespace "team-b"' },
  { name: 'delete a template in another tenant\'s namespace', identity: TEAM_A_SESSION, method: 'DELETE', path: `${DEPLOYMENTS('team-b')}/web`, rule: 'cannot delete deployments "web" in namespace "team-b": not a namespace of this tenant' },
  { name: 'resume a binding in another tenant\'s namespace', identity: TEAM_A, method: 'PATCH', path: `${BINDINGS('team-b')}/report-job`, body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE, rule: 'cannot patch resourcebindings "report-job" in namespace "team-b": not a namespace of this tenant' },
  { name: 'create a Cluster', identity: TEAM_A, method: 'POST', path: CLUSTERS, body: cluster('member2'), rule: 'cannot create clusters "member2" at the cluster scope: only admins write cluster-scoped objects' },
  { name: 'mark a Cluster not ready', identity: TEAM_A, method: 'PATCH', path: `${CLUSTERS}/member1`, body: { status: { conditions: [{ type: 'Ready', status: 'False' }] } }, contentType: MERGE, rule: 'cannot patch clusters "member1" at the cluster scope' },
  { name: 'create a PriorityClass', identity: TEAM_A, method: 'POST', path: PRIORITY_CLASSES, body: priorityClass('mine', 2_000_000), rule: 'cannot create priorityclasses "mine" at the cluster scope: only admins write cluster-scoped objects' },
  { name: 'lift the restriction of a PriorityClass', identity: TEAM_A, method: 'PATCH', path: `${PRIORITY_CLASSES}/system-high`, body: { metadata: { labels: null } }, contentType: MERGE, rule: 'cannot patch priorityclasses "system-high" at the cluster scope' },
  { name: 'create a ClusterPropagationPolicy', identity: TEAM_A, method: 'POST', path: CLUSTER_POLICIES, body: clusterPropagationPolicy('mine'), rule: 'cannot create clusterpropagationpolicies "mine" at the cluster scope: only admins write cluster-scoped objects' },
  { name: 'delete a ClusterPropagationPolicy', identity: TEAM_A, method: 'DELETE', path: `${CLUSTER_POLICIES}/all-deployments`, rule: 'cannot delete clusterpropagationpolicies "all-deployments" at the cluster scope' },
  { name: 'create a policy with a class restricted by the settings', identity: TEAM_A, method: 'POST', path: POLICIES('team-a'), body: deploymentPolicy('team-a', 'critical', 'urgent'), rule: 'spec.schedulePriority.priorityClassName: PriorityClass "critical" is restricted and not allowed in namespace "team-a"' },
  { name: 'replace a policy with a class restricted by its label', identity: TEAM_A, method: 'PUT', path: `${POLICIES('team-a')}/web`, body: deploymentPolicy('team-a', 'system-high'), rule: 'PriorityClass "system-high" is restricted' },
  { name: 'merge-patch a restricted class into a policy (the patched result is checked)', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-a')}/web`, body: { spec: { schedulePriority: { priorityClassName: 'critical' } } }, contentType: MERGE, rule: 'cannot patch propagationpolicies "web" in namespace "team-a": spec.schedulePriority.priorityClassName: PriorityClass "critical" is restricted' },
  { name: 'server-side apply a policy with a restricted class', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-a')}/web`, body: deploymentPolicy('team-a', 'critical'), contentType: APPLY, rule: 'PriorityClass "critical" is restricted' },
  { name: 'create a policy with a class that does not exist', identity: TEAM_A, method: 'POST', path: POLICIES('team-a'), body: deploymentPolicy('team-a', 'future', 'later'), rule: 'PriorityClass "future" does not exist' },
  { name: 'create a template whose pod names a restricted class', identity: TEAM_A, method: 'POST', path: DEPLOYMENTS('team-a'), body: deployment('team-a', 'critical', 'api'), rule: 'cannot create deployments "api" in namespace "team-a": spec.template.spec.priorityClassName: PriorityClass "critical" is restricted' },
  { name: 'merge-patch a restricted pod class into a template', identity: TEAM_A, method: 'PATCH', path: `${DEPLOYMENTS('team-a')}/web`, body: { spec: { template: { spec: { priorityClassName: 'system-high' } } } }, contentType: MERGE, rule: 'spec.template.spec.priorityClassName: PriorityClass "system-high" is restricted' },
  { name: 'strategic-merge-patch a template in another tenant\'s namespace', identity: TEAM_A, method: 'PATCH', path: `${DEPLOYMENTS('team-b')}/web`, body: { spec: { replicas: 5 } }, contentType: STRATEGIC, rule: 'cannot patch deployments "web" in namespace "team-b": not a namespace of this tenant' },
  { name: 'strategic-merge-patch a restricted pod class into a template', identity: TEAM_A, method: 'PATCH', path: `${DEPLOYMENTS('team-a')}/web`, body: { spec: { template: { spec: { priorityClassName: 'critical' } } } }, contentType: STRATEGIC, rule: 'spec.template.spec.priorityClassName: PriorityClass "critical" is restricted' },
  { name: 'a principal in no tenant creates a policy', identity: STRANGER, method: 'POST', path: POLICIES('team-a'), body: deploymentPolicy('team-a', undefined, 'mine'), rule: 'the user is neither an admin nor in any tenant' },
];

const ALLOWED: WriteCase[] = [
  { name: 'an admin creates a Cluster', identity: ADMIN, method: 'POST', path: CLUSTERS, body: cluster('member2'), status: 201 },
  { name: 'an admin creates a PriorityClass', identity: ADMIN, method: 'POST', path: PRIORITY_CLASSES, body: priorityClass('urgent', 5_000_000), status: 201 },
  { name: 'an admin creates a ClusterPropagationPolicy', identity: ADMIN, method: 'POST', path: CLUSTER_POLICIES, body: clusterPropagationPolicy('more'), status: 201 },
  { name: 'an admin gives a tenant\'s policy a restricted class', identity: ADMIN, method: 'PUT', path: `${POLICIES('team-b')}/web`, body: deploymentPolicy('team-b', 'critical'), status: 200 },
  { name: 'a tenant creates a policy with an unrestricted class in its namespace', identity: TEAM_A, method: 'POST', path: POLICIES('team-a'), body: deploymentPolicy('team-a', 'low', 'mine'), status: 201 },
  { name: 'a tenant replaces its policy', identity: TEAM_A, method: 'PUT', path: `${POLICIES('team-a')}/web`, body: deploymentPolicy('team-a'), status: 200 },
  { name: 'a tenant merge-patches its policy', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-a')}/web`, body: { spec: { priority: 5 } }, contentType: MERGE, status: 200 },
  { name: 'a tenant server-side applies a policy', identity: TEAM_A, method: 'PATCH', path: `${POLICIES('team-a')}/applied`, body: deploymentPolicy('team-a', 'low', 'applied'), contentType: APPLY, status: 201 },
  { name: 'a tenant uses a restricted class its namespace is granted', identity: TEAM_A, method: 'POST', path: POLICIES('team-a-batch'), body: deploymentPolicy('team-a-batch', 'critical'), status: 201 },
  { name: 'a tenant through a wildcard principal creates a template with an unrestricted pod class', identity: TEAM_A_SESSION, method: 'POST', path: DEPLOYMENTS('team-a'), body: deployment('team-a', 'low', 'api'), status: 201 },
  { name: 'a tenant strategic-merge-patches its template', identity: TEAM_A, method: 'PATCH', path: `${DEPLOYMENTS('team-a')}/web`, body: { spec: { template: { spec: { containers: [{ name: 'main', image: 'busybox:2' }] } } } }, contentType: STRATEGIC, status: 200 },
  { name: 'a tenant deletes its template', identity: TEAM_A, method: 'DELETE', path: `${DEPLOYMENTS('team-a')}/web`, status: 200 },
  { name: 'a tenant resumes a binding in its namespace', identity: TEAM_A, method: 'PATCH', path: `${BINDINGS('team-a')}/report-job`, body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE, status: 200 },
];

describe('tenant isolation through the API', () => {
  let api: Api;
  beforeEach(async () => {
    api = await tenantSystem();
  });

  it.each(REFUSED)('refuses with 403, writing nothing: $name', async (c) => {
    const before = await api.snapshot();
    const reply = await api.send(c.method, c.path, requestOf(c));
    expect(reply.statusCode).toBe(403);
    expect(reply.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Forbidden', code: 403 });
    expect(reply.body.message.startsWith(`user "${c.identity}" cannot `)).toBe(true);
    expect(reply.body.message).toContain(c.rule);
    await api.system.runUntilIdle();
    expect(await api.snapshot()).toEqual(before);
  });

  it.each(ALLOWED)('allows: $name', async (c) => {
    const reply = await api.send(c.method, c.path, requestOf(c));
    expect(reply.statusCode, JSON.stringify(reply.body)).toBe(c.status);
  });

  it('answers with the Kubernetes shape of a Forbidden Status, naming the object', async () => {
    const reply = await api.send('POST', POLICIES('team-b'), { identity: TEAM_A, body: deploymentPolicy('team-b', undefined, 'mine') });
    expect(reply.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      reason: 'Forbidden',
      message: 'user "arn:aws:iam::1:role/team-a" cannot create propagationpolicies "mine" in namespace "team-b": not a namespace of this tenant (team-a, team-a-batch)',
      details: { name: 'mine', group: 'policy.karmada.io', kind: 'propagationpolicies' },
      code: 403,
    });
  });

  it('lets a tenant delete a policy an admin gave a restricted class', async () => {
    expect((await api.send('PUT', `${POLICIES('team-a')}/web`, { identity: ADMIN, body: deploymentPolicy('team-a', 'critical') })).statusCode).toBe(200);
    expect((await api.send('DELETE', `${POLICIES('team-a')}/web`, { identity: TEAM_A })).statusCode).toBe(200);
  });

  it('keeps reads open to every authenticated caller, in every namespace and at the cluster scope', async () => {
    for (const path of [POLICIES('team-b'), `${DEPLOYMENTS('team-b')}/web`, BINDINGS('team-b'), CLUSTERS, PRIORITY_CLASSES, '/apis/policy.karmada.io/v1alpha1/propagationpolicies']) {
      expect((await api.send('GET', path, { identity: STRANGER })).statusCode, path).toBe(200);
    }
  });

  it.each([
    ['a read', 'GET', POLICIES('team-a'), undefined],
    ['a write', 'POST', POLICIES('team-a'), deploymentPolicy('team-a', undefined, 'anonymous')],
    ['discovery', 'GET', '/apis', undefined],
  ])('refuses %s without an identity with 401, writing nothing', async (_, method, path, body) => {
    const before = await api.snapshot();
    const reply = await api.send(method, path, body === undefined ? {} : { body });
    expect(reply.statusCode).toBe(401);
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 });
    expect(await api.snapshot()).toEqual(before);
  });

  it('still answers 404 for a patch or delete of an object that does not exist', async () => {
    expect((await api.send('DELETE', `${POLICIES('team-a')}/missing`, { identity: TEAM_A })).statusCode).toBe(404);
    expect((await api.send('PATCH', `${POLICIES('team-a')}/missing`, { identity: TEAM_A, body: {}, contentType: MERGE })).statusCode).toBe(404);
  });
});

/** A valid object of each kind a tenant could try to write, in team-b when namespaced. */
const SAMPLES: Readonly<Record<string, () => Record<string, any>>> = {
  PriorityClass: () => priorityClass('low', 10),
  Cluster: () => cluster('member1'),
  PropagationPolicy: () => deploymentPolicy('team-b', 'low'),
  ClusterPropagationPolicy: () => clusterPropagationPolicy('all-deployments'),
  Deployment: () => deployment('team-b'),
  StatefulSet: () => workload('apps/v1', 'StatefulSet', 'web', 'team-b'),
  ReplicaSet: () => workload('apps/v1', 'ReplicaSet', 'web', 'team-b'),
  Job: () => job('report', 'team-b'),
  ...Object.fromEntries(Object.entries(BUNDLE_OBJECTS).map(([kind, object]) => [kind, () => object('team-b')])),
};

const WRITES: ReadonlyArray<{ method: string; verb: Verb; contentType?: string; body: (object: Record<string, any>) => unknown }> = [
  { method: 'POST', verb: 'create', body: (object) => object },
  { method: 'PUT', verb: 'update', body: (object) => object },
  { method: 'PATCH', verb: 'patch', contentType: MERGE, body: () => ({ metadata: { labels: { taken: 'yes' } } }) },
  { method: 'PATCH', verb: 'patch', contentType: STRATEGIC, body: () => ({ metadata: { labels: { taken: 'yes' } } }) },
  { method: 'PATCH', verb: 'patch', contentType: APPLY, body: (object) => object },
  { method: 'DELETE', verb: 'delete', body: () => undefined },
];

/** Every write every served kind takes, on the object team-b or an admin owns; ClusterResourceBindings have no objects to try. */
function everyWrite(): Array<[string, ServedResource, (typeof WRITES)[number]]> {
  return SERVED_RESOURCES.filter((r) => r.source === 'store' && r.info !== CLUSTER_RESOURCE_BINDING).flatMap((resource) =>
    WRITES.filter((w) => resource.verbs.includes(w.verb)).map((w) => [`${w.method} ${w.contentType ?? ''} ${resource.info.plural}`, resource, w] as [string, ServedResource, (typeof WRITES)[number]]),
  );
}

describe('every write path authorizes before it writes', () => {
  it.each(everyWrite())('%s by team-a is refused with 403, writing nothing', async (_, resource, write) => {
    const api = await tenantSystem();
    const namespace = resource.info.namespaced ? '/namespaces/team-b' : '';
    const base = `/${resource.group ? 'apis' : 'api'}/${resource.info.apiVersion}${namespace}/${resource.info.plural}`;
    const sample = resource.info.kind === 'ResourceBinding' ? (await api.send('GET', `${base}/report-job`, { identity: ADMIN })).body : SAMPLES[resource.info.kind]?.();
    if (!sample) throw new Error(`no sample object for ${resource.info.kind}: add one, so that its write paths are checked`);
    // It exists, so that replace, patch and delete reach their checks rather than NotFound.
    if (resource.info.kind !== 'ResourceBinding') await api.seed(sample);
    const body = write.body(sample);
    const before = await api.snapshot();
    const reply = await api.send(write.method, write.verb === 'create' ? base : `${base}/${sample.metadata.name}`, {
      identity: TEAM_A,
      ...(body === undefined ? {} : write.contentType === APPLY ? { text: JSON.stringify(body) } : { body }),
      ...(write.contentType ? { contentType: write.contentType } : {}),
    });
    expect(reply.statusCode, JSON.stringify(reply.body)).toBe(403);
    expect(reply.body.reason).toBe('Forbidden');
    await api.system.runUntilIdle();
    expect(await api.snapshot()).toEqual(before);
  });
});

describe('declaring work non-preemptible is a privilege of the namespaces tenancy grants it, on every write path (preemptibility separate from priority (001))', () => {
  const LABEL = { 'kai.scheduler/preemptibility': 'non-preemptible' };
  const DECLARATIONS = [
    {
      declaration: 'the policy field',
      collection: POLICIES,
      object: (namespace: string, name: string) => ({ ...deploymentPolicy(namespace, undefined, name), spec: { ...deploymentPolicy(namespace).spec, preemptibility: 'non-preemptible' } }),
      patch: { spec: { preemptibility: 'non-preemptible' } },
    },
    {
      declaration: 'the template label',
      collection: DEPLOYMENTS,
      object: (namespace: string, name: string) => {
        const object = deployment(namespace, undefined, name);
        return { ...object, metadata: { ...object.metadata, labels: LABEL } };
      },
      patch: { metadata: { labels: LABEL } },
    },
    {
      declaration: 'the pod template label',
      collection: DEPLOYMENTS,
      object: (namespace: string, name: string) => {
        const object = deployment(namespace, undefined, name);
        return { ...object, spec: { ...object.spec, template: { ...object.spec.template, metadata: { labels: { ...object.spec.template.metadata.labels, ...LABEL } } } } };
      },
      patch: { spec: { template: { metadata: { labels: LABEL } } } },
    },
  ];
  const PATHS = [
    { path: 'POST', method: 'POST', onItem: false, body: (c: (typeof DECLARATIONS)[number], ns: string) => c.object(ns, 'new') },
    { path: 'PUT', method: 'PUT', onItem: true, body: (c: (typeof DECLARATIONS)[number], ns: string) => c.object(ns, 'web') },
    { path: 'merge patch', method: 'PATCH', onItem: true, contentType: MERGE, body: (c: (typeof DECLARATIONS)[number]) => c.patch },
    { path: 'strategic merge patch', method: 'PATCH', onItem: true, contentType: STRATEGIC, body: (c: (typeof DECLARATIONS)[number]) => c.patch },
    { path: 'server-side apply', method: 'PATCH', onItem: true, contentType: APPLY, body: (c: (typeof DECLARATIONS)[number], ns: string) => c.object(ns, 'web') },
  ];
  const cases = DECLARATIONS.flatMap((declaration) => PATHS.map((path) => ({ name: `${declaration.declaration} by ${path.path}`, declaration, path })));

  async function send(api: Api, namespace: string, { declaration, path }: (typeof cases)[number]) {
    const body = path.body(declaration, namespace);
    return api.send(path.method, path.onItem ? `${declaration.collection(namespace)}/web` : declaration.collection(namespace), {
      identity: TEAM_A,
      ...(path.contentType === APPLY ? { text: JSON.stringify(body) } : { body }),
      ...(path.contentType ? { contentType: path.contentType } : {}),
    });
  }

  it.each(cases)('$name in a namespace not granted it: 403, nothing written', async (c) => {
    const api = await tenantSystem();
    const before = await api.snapshot();
    const reply = await send(api, 'team-a', c);
    expect(reply.statusCode, JSON.stringify(reply.body)).toBe(403);
    expect(reply.body.message).toContain('may not be declared non-preemptible (tenancy nonPreemptibleNamespaces)');
    await api.system.runUntilIdle();
    expect(await api.snapshot()).toEqual(before);
  });

  it.each(cases)('$name in a namespace granted it: written', async (c) => {
    const api = await tenantSystem();
    await api.seed(deploymentPolicy('team-a-batch'), deployment('team-a-batch'));
    const reply = await send(api, 'team-a-batch', c);
    expect([200, 201], JSON.stringify(reply.body)).toContain(reply.statusCode);
  });
});

describe('a patch is authorized against the object as stored and as patched', () => {
  it.each([
    ['merge patch', MERGE],
    ['strategic merge patch', STRATEGIC],
  ])('a %s by team-a that moves team-b\'s Deployment into team-a is refused with 403 Forbidden, writing nothing', async (_, contentType) => {
    const api = await tenantSystem();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', `${DEPLOYMENTS('team-b')}/web`, { identity: TEAM_A, contentType, body: { metadata: { namespace: 'team-a' } } });
    expect(reply.statusCode, JSON.stringify(reply.body)).toBe(403);
    expect(reply.body.message).toContain('in namespace "team-b": not a namespace of this tenant');
    await api.system.runUntilIdle();
    expect(await api.snapshot()).toEqual(before);
  });
});
