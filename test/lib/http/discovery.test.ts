import { describe, expect, it } from 'vitest';
import { Api } from './support';

describe('discovery', () => {
  const api = new Api();

  it('GET /api lists the core version', async () => {
    const reply = await api.get('/api');
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
  });

  it('GET /api/v1 serves events, and the core kinds of an application bundle with their short names (Services in the category all)', async () => {
    const reply = await api.get('/api/v1');
    const readWrite = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
    expect(reply.body).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'v1',
      resources: [
        { name: 'events', singularName: 'event', namespaced: true, kind: 'Event', verbs: ['get', 'list', 'watch'], shortNames: ['ev'] },
        { name: 'services', singularName: 'service', namespaced: true, kind: 'Service', verbs: readWrite, shortNames: ['svc'], categories: ['all'] },
        { name: 'configmaps', singularName: 'configmap', namespaced: true, kind: 'ConfigMap', verbs: readWrite, shortNames: ['cm'] },
        { name: 'secrets', singularName: 'secret', namespaced: true, kind: 'Secret', verbs: readWrite },
        { name: 'serviceaccounts', singularName: 'serviceaccount', namespaced: true, kind: 'ServiceAccount', verbs: readWrite, shortNames: ['sa'] },
        { name: 'namespaces', singularName: 'namespace', namespaced: false, kind: 'Namespace', verbs: readWrite, shortNames: ['ns'] },
      ],
    });
  });

  it('GET /apis lists every served group with its preferred version', async () => {
    const reply = await api.get('/apis');
    expect(reply.body.kind).toBe('APIGroupList');
    expect(reply.body.apiVersion).toBe('v1');
    expect(reply.body.groups.map((g: { name: string }) => g.name).sort()).toEqual(
      ['apiextensions.k8s.io', 'apps', 'batch', 'cluster.karmada.io', 'policy.karmada.io', 'rbac.authorization.k8s.io', 'scheduling.k8s.io', 'scheduling.outrank.io', 'work.karmada.io'],
    );
    expect(reply.body.groups).toContainEqual({
      name: 'work.karmada.io',
      versions: [{ groupVersion: 'work.karmada.io/v1alpha2', version: 'v1alpha2' }],
      preferredVersion: { groupVersion: 'work.karmada.io/v1alpha2', version: 'v1alpha2' },
    });
  });

  it('GET /apis/<group> describes one group', async () => {
    expect((await api.get('/apis/apps')).body).toEqual({
      kind: 'APIGroup',
      apiVersion: 'v1',
      name: 'apps',
      versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
    });
  });

  it.each([
    ['scheduling.k8s.io/v1', [['priorityclasses', 'PriorityClass', false, ['pc']]]],
    ['cluster.karmada.io/v1alpha1', [['clusters', 'Cluster', false, undefined]]],
    [
      'policy.karmada.io/v1alpha1',
      [
        ['propagationpolicies', 'PropagationPolicy', true, ['pp']],
        ['clusterpropagationpolicies', 'ClusterPropagationPolicy', false, ['cpp']],
        ['overridepolicies', 'OverridePolicy', true, ['op']],
        ['clusteroverridepolicies', 'ClusterOverridePolicy', false, ['cop']],
      ],
    ],
    [
      'rbac.authorization.k8s.io/v1',
      [
        ['roles', 'Role', true, undefined],
        ['rolebindings', 'RoleBinding', true, undefined],
        ['clusterroles', 'ClusterRole', false, undefined],
        ['clusterrolebindings', 'ClusterRoleBinding', false, undefined],
      ],
    ],
    ['apiextensions.k8s.io/v1', [['customresourcedefinitions', 'CustomResourceDefinition', false, ['crd', 'crds']]]],
    ['work.karmada.io/v1alpha2', [['resourcebindings', 'ResourceBinding', true, ['rb']], ['clusterresourcebindings', 'ClusterResourceBinding', false, ['crb']]]],
    ['apps/v1', [['deployments', 'Deployment', true, ['deploy']], ['statefulsets', 'StatefulSet', true, ['sts']], ['replicasets', 'ReplicaSet', true, ['rs']]]],
    ['batch/v1', [['jobs', 'Job', true, undefined]]],
  ] as const)('GET /apis/%s lists its resources', async (groupVersion, expected) => {
    const reply = await api.get(`/apis/${groupVersion}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion });
    const resources = reply.body.resources.filter((r: { name: string }) => !r.name.includes('/'));
    expect(resources.map((r: Record<string, unknown>) => [r.name, r.kind, r.namespaced, r.shortNames])).toEqual(expected);
    for (const resource of resources) expect(resource.singularName).toBe(resource.kind.toLowerCase());
  });

  it('lists the scale subresource of Deployments, StatefulSets and ReplicaSets, the status subresources, and the workloads in the category all', async () => {
    const apps = (await api.get('/apis/apps/v1')).body.resources;
    expect(apps.filter((r: { name: string }) => r.name.endsWith('/scale'))).toEqual(
      ['deployments', 'statefulsets', 'replicasets'].map((plural) => ({
        name: `${plural}/scale`,
        singularName: '',
        namespaced: true,
        group: 'autoscaling',
        version: 'v1',
        kind: 'Scale',
        verbs: ['get', 'patch', 'update'],
      })),
    );
    expect(apps[0].categories).toEqual(['all']);
    const jobs = (await api.get('/apis/batch/v1')).body.resources;
    expect(jobs.map((r: { name: string }) => r.name)).toEqual(['jobs', 'jobs/status']);
    const bindings = (await api.get('/apis/work.karmada.io/v1alpha2')).body.resources;
    expect(bindings.find((r: { name: string }) => r.name === 'resourcebindings/status').verbs).toEqual(['get']);
    expect((await api.get('/apis/work.karmada.io/v1alpha2')).body.resources[0].categories).toBeUndefined();
  });

  it('lists the verbs each resource supports', async () => {
    const karmada = (await api.get('/apis/work.karmada.io/v1alpha2')).body.resources;
    expect(karmada[0].verbs).toEqual(['get', 'list', 'patch', 'watch']);
    const apps = (await api.get('/apis/apps/v1')).body.resources;
    expect(apps[0].verbs).toEqual(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('serves ClusterAllocation, the scheduler\'s bookkeeping, read-only: get, list and watch', async () => {
    const reply = await api.get('/apis/scheduling.outrank.io/v1alpha1');
    expect(reply.body.resources).toEqual([
      { name: 'clusterallocations', singularName: 'clusterallocation', namespaced: false, kind: 'ClusterAllocation', verbs: ['get', 'list', 'watch'] },
    ]);
  });

  it('GET /version answers a version.Info', async () => {
    const reply = await api.get('/version');
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toMatchObject({ major: '1', minor: '32', gitVersion: expect.stringMatching(/^v1\.32\./) });
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on a discovery document is 405', async (method) => {
    const reply = await api.send(method, '/apis', { body: {} });
    expect(reply.statusCode).toBe(405);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'MethodNotAllowed', code: 405 });
  });

  it.each(['/', '/apis/apps/v2', '/apis/unknown.io', '/api/v2', '/api/v1/pods', '/versions', '/healthz/etcd', '/apis/apps/v1/%E0%A4%A'])(
    '%s is a 404 NotFound Status',
    async (path) => {
      const reply = await api.get(path);
      expect(reply.statusCode).toBe(404);
      expect(reply.body).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'the server could not find the requested resource',
        reason: 'NotFound',
        code: 404,
      });
    },
  );
});
