import { describe, expect, it } from 'vitest';
import { operationOf, parseRoute, type ResourceRoute } from '../../../lib/http/routes';

function resource(path: string): ResourceRoute {
  const route = parseRoute(path);
  if (route?.type !== 'resource') throw new Error(`${path} is not a resource route`);
  return route;
}

describe('parseRoute', () => {
  it.each([
    ['/apis/apps/v1/namespaces/default/deployments', 'Deployment', 'default', undefined],
    ['/apis/apps/v1/namespaces/default/deployments/web', 'Deployment', 'default', 'web'],
    ['/apis/apps/v1/deployments', 'Deployment', undefined, undefined],
    ['/apis/batch/v1/namespaces/tenant-a/jobs/report/', 'Job', 'tenant-a', 'report'],
    ['/apis/scheduling.k8s.io/v1/priorityclasses', 'PriorityClass', undefined, undefined],
    ['/apis/scheduling.k8s.io/v1/priorityclasses/high', 'PriorityClass', undefined, 'high'],
    ['/apis/cluster.karmada.io/v1alpha1/clusters/member1', 'Cluster', undefined, 'member1'],
    ['/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies/p', 'PropagationPolicy', 'default', 'p'],
    ['/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/p', 'ClusterPropagationPolicy', undefined, 'p'],
    ['/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings/web-deployment', 'ResourceBinding', 'default', 'web-deployment'],
    ['/apis/work.karmada.io/v1alpha2/clusterresourcebindings/x', 'ClusterResourceBinding', undefined, 'x'],
    ['/api/v1/namespaces/default/events', 'Event', 'default', undefined],
    ['/api/v1/events', 'Event', undefined, undefined],
    ['/apis/scheduling.outrank.io/v1alpha1/clusterallocations/m1', 'ClusterAllocation', undefined, 'm1'],
    ['/api/v1/namespaces/default/events/web.00000001', 'Event', 'default', 'web.00000001'],
  ])('%s addresses %s in %s named %s', (path, kind, namespace, name) => {
    const route = resource(path);
    expect([route.resource.info.kind, route.namespace, route.name]).toEqual([kind, namespace, name]);
  });

  it.each([
    '/apis/apps/v1/deployments/web', // a namespaced object needs its namespace
    '/apis/scheduling.k8s.io/v1/namespaces/default/priorityclasses', // a cluster-scoped kind has none
    '/apis/batch/v1/namespaces/default/jobs/report/scale', // a Job has no scale subresource, as in Kubernetes
    '/apis/scheduling.k8s.io/v1/priorityclasses/high/status', // a PriorityClass has no status
    '/apis/apps/v1/namespaces/default/deployments/web/logs', // nor a subresource Kubernetes gives only to pods
    '/apis/apps/v1/namespaces/default',
    '/apis/apps/v1/pods',
    '/api/v1/namespaces/default/pods',
    '/apis/scheduling.outrank.io/v1alpha1/namespaces/default/clusterallocations', // cluster-scoped
    '/apis/batch/v2/jobs',
    '/watch/apis/apps/v1/deployments',
  ])('%s addresses nothing', (path) => {
    expect(parseRoute(path)).toBeUndefined();
  });
});

describe('operationOf', () => {
  const collection = resource('/apis/apps/v1/namespaces/default/deployments');
  const item = resource('/apis/apps/v1/namespaces/default/deployments/web');
  const everywhere = resource('/apis/apps/v1/deployments');

  it.each([
    ['GET', collection, { verb: 'list' }],
    ['POST', collection, { verb: 'create' }],
    ['get', item, { verb: 'get', name: 'web' }],
    ['PUT', item, { verb: 'update', name: 'web' }],
    ['PATCH', item, { verb: 'patch', name: 'web' }],
    ['DELETE', item, { verb: 'delete', name: 'web' }],
    ['GET', everywhere, { verb: 'list' }],
    ['POST', everywhere, undefined],
    ['POST', item, undefined],
    ['PUT', collection, undefined],
    ['DELETE', collection, undefined],
    ['HEAD', item, undefined],
    ['constructor', item, undefined],
  ] as const)('%s on a route is %o', (method, route, expected) => {
    expect(operationOf(method, route)).toEqual(expected);
  });
});
