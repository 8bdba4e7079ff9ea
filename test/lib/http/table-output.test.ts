import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { requestedTableVersion } from '../../../lib/http/table-output';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { parseReply } from './support';

const KUBECTL_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

async function settledSystem(): Promise<MemorySystem> {
  const system = new MemorySystem();
  for (const object of [
    { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'member1' }, status: { resourceSummary: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } } } },
    {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name: 'web', namespace: 'default' },
      spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }], priority: 5, placement: { clusterAffinity: { clusterNames: ['member1'] } } },
    },
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } } } },
  ]) {
    await system.objects.apply(object);
  }
  await system.runUntilIdle();
  return system;
}

async function get(system: MemorySystem, path: string, accept?: string, query: Record<string, string> = {}) {
  return parseReply(
    await handleApiRequest(
      { method: 'GET', path, query, headers: accept ? { accept } : {}, body: undefined },
      { objects: system.objects, store: system.store, events: system.events, clock: system.clock },
    ),
  );
}

describe('table output: kubectl get asks for a meta.k8s.io Table, and gets the columns outrank get prints', () => {
  it.each([
    [KUBECTL_ACCEPT, 'v1'],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', 'v1beta1'],
    ['application/json', undefined],
    ['application/json;as=Table;v=v2;g=meta.k8s.io', undefined],
    [undefined, undefined],
  ])('Accept %s asks for Table %s', (accept, version) => {
    expect(requestedTableVersion(accept)).toBe(version);
  });

  it('a list of ResourceBindings: priority, preemptibility, clusters, Scheduled, reason and age, the wide ones at priority 1', async () => {
    const system = await settledSystem();
    system.clock.advance(90_000);
    const reply = await get(system, '/apis/work.karmada.io/v1alpha2/namespaces/default/resourcebindings', KUBECTL_ACCEPT);
    expect(reply.body.kind).toBe('Table');
    expect(reply.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(reply.body.columnDefinitions.map((c: { name: string; priority: number }) => [c.name, c.priority])).toEqual([
      ['Name', 0], ['Priority', 0], ['Preemptibility', 0], ['Clusters', 0], ['Scheduled', 0], ['Reason', 0], ['Age', 0], ['Affinity', 1], ['Policy', 1], ['Resource', 1],
    ]);
    expect(reply.body.rows).toHaveLength(1);
    expect(reply.body.rows[0].cells).toEqual(['web-deployment', '0', 'preemptible', 'member1:1', 'True', 'Success', '90s', '<none>', 'propagationpolicy/web', 'deployment/web']);
    expect(reply.body.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'web-deployment', namespace: 'default' } });
  });

  it('a page of a list is a table with the continue token, so that kubectl pages through it (500 rows at a time)', async () => {
    const system = await settledSystem();
    await system.objects.apply({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1_000 });
    await system.objects.apply({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'low' }, value: 1 });
    const first = await get(system, '/apis/scheduling.k8s.io/v1/priorityclasses', KUBECTL_ACCEPT, { limit: '1' });
    expect(first.body.rows.map((row: { cells: string[] }) => row.cells[0])).toEqual(['high']);
    expect(first.body.metadata).toEqual({ resourceVersion: expect.any(String), continue: expect.any(String) });
    const second = await get(system, '/apis/scheduling.k8s.io/v1/priorityclasses', KUBECTL_ACCEPT, { limit: '1', continue: first.body.metadata.continue });
    expect(second.body.rows.map((row: { cells: string[] }) => row.cells[0])).toEqual(['low']);
    expect(second.body.metadata.continue).toBeUndefined();
  });

  it('one object is a table of one row; includeObject=Object carries the whole object, None none', async () => {
    const system = await settledSystem();
    const one = await get(system, '/apis/policy.karmada.io/v1alpha1/namespaces/default/propagationpolicies/web', KUBECTL_ACCEPT, { includeObject: 'Object' });
    expect(one.body.rows.map((row: { cells: string[] }) => row.cells.slice(0, 4))).toEqual([['web', '5', 'Never', '<none>']]);
    expect(one.body.rows[0].object.kind).toBe('PropagationPolicy');
    const none = await get(system, '/apis/cluster.karmada.io/v1alpha1/clusters', KUBECTL_ACCEPT, { includeObject: 'None' });
    // What outrank placed (the web Deployment's one replica) against what the cluster offers.
    expect(none.body.rows).toEqual([{ cells: ['member1', 'True', '1/4', '0/8Gi', '<none>', '0s', '1/110', '<none>', '<none>'] }]);
  });

  it('a bad includeObject is refused with 400 naming the parameter; without as=Table the answer is the object as before', async () => {
    const system = await settledSystem();
    const bad = await get(system, '/apis/cluster.karmada.io/v1alpha1/clusters', KUBECTL_ACCEPT, { includeObject: 'Everything' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toContain('includeObject');
    expect((await get(system, '/apis/cluster.karmada.io/v1alpha1/clusters')).body.kind).toBe('ClusterList');
  });
});
