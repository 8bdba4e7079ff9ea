/**
 * A real client library's informer (@kubernetes/client-node) against the API: it lists, then watches
 * from the list's resourceVersion, sees a preemption as it is committed (victim and preemptor
 * MODIFIED, in commit order) and, cut off, resumes from the last version it saw without missing a
 * change made while it was away (binding priority and preemption (000)).
 */
import { CustomObjectsApi, makeInformer, type KubernetesObject } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cluster, priorityClass, propagationPolicy, workload } from '../lib/http/support';
import { startTestApi, type TestApi } from './support/api-server';
import { kubeConfigFor, until } from './support/informer-client';

const NAMESPACE = 'default';
const BINDINGS = `/apis/work.karmada.io/v1alpha2/namespaces/${NAMESPACE}/resourcebindings`;

interface Binding extends KubernetesObject {
  spec: { clusters?: Array<{ name: string; replicas: number }> };
}

interface Seen {
  readonly callback: 'add' | 'update' | 'delete';
  readonly name: string;
  readonly version: number;
  readonly placed: boolean;
}

let api: TestApi;

/** A write; sent again once when it went out on a connection the server had just cut. */
async function write(path: string, body: object, method = 'POST'): Promise<void> {
  const send = () =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { 'content-type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' },
      body: JSON.stringify(body),
    });
  const response = await send().catch(send);
  expect(response.status, await response.clone().text()).toBeLessThan(300);
}

function deployment(name: string): object {
  const object = workload('apps/v1', 'Deployment', name, NAMESPACE) as { spec: { template: { spec: object } } };
  return { ...object, spec: { ...object.spec, template: { ...object.spec.template, spec: { ...object.spec.template.spec, priorityClassName: name } } } };
}

function informerOn(url: string) {
  const config = kubeConfigFor(url);
  const objects = config.makeApiClient(CustomObjectsApi);
  return makeInformer<Binding>(config, BINDINGS, () =>
    objects.listNamespacedCustomObject({ group: 'work.karmada.io', version: 'v1alpha2', namespace: NAMESPACE, plural: 'resourcebindings' }),
  );
}

describe('a client-node informer of ResourceBindings', { timeout: 60_000 }, () => {
  const seen: Seen[] = [];
  let informer: ReturnType<typeof informerOn>;
  let errors = 0;

  beforeAll(async () => {
    api = await startTestApi();
    await write('/apis/cluster.karmada.io/v1alpha1/clusters', cluster('member1', '1'));
    await write('/apis/scheduling.k8s.io/v1/priorityclasses', priorityClass('low', 1));
    await write('/apis/scheduling.k8s.io/v1/priorityclasses', priorityClass('high', 100));
    await write(
      `/apis/policy.karmada.io/v1alpha1/namespaces/${NAMESPACE}/propagationpolicies`,
      propagationPolicy('by-pod-priority', NAMESPACE, {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
        schedulePriority: { priorityClassSource: 'PodPriorityClass' },
      }),
    );
    await write(`/apis/apps/v1/namespaces/${NAMESPACE}/deployments`, deployment('low'));
    informer = informerOn(api.url);
    const record = (callback: Seen['callback']) => (binding: Binding) =>
      seen.push({ callback, name: binding.metadata!.name!, version: Number(binding.metadata!.resourceVersion), placed: (binding.spec.clusters ?? []).length > 0 });
    informer.on('add', record('add'));
    informer.on('update', record('update'));
    informer.on('delete', record('delete'));
    // As client-node's documentation advises: an informer cut off restarts, from the version it last saw.
    informer.on('error', () => {
      errors += 1;
      setTimeout(() => void informer.start(), 50);
    });
    await informer.start();
    await until(() => seen.some((event) => event.name === 'low-deployment'), 'the listed binding');
  });
  afterAll(async () => {
    await informer?.stop();
    await api.close();
  });

  it('lists the placed binding first', () => {
    expect(seen).toEqual([{ callback: 'add', name: 'low-deployment', version: expect.any(Number), placed: true }]);
  });

  it('sees a preemption in commit order: the preemptor added, the victim and the preemptor modified', async () => {
    await write(`/apis/apps/v1/namespaces/${NAMESPACE}/deployments`, deployment('high'));
    await until(() => seen.some((event) => event.name === 'high-deployment' && event.placed), 'the preemptor placed');
    const after = seen.slice(1);
    expect(after.find((event) => event.name === 'high-deployment')?.callback).toBe('add');
    const victim = after.findIndex((event) => event.name === 'low-deployment' && event.callback === 'update' && !event.placed);
    const preemptor = after.findIndex((event) => event.name === 'high-deployment' && event.callback === 'update' && event.placed);
    expect(victim).toBeGreaterThanOrEqual(0);
    expect(preemptor).toBeGreaterThanOrEqual(0);
    const versions = after.map((event) => event.version);
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    const stored = (await (await fetch(`${api.url}${BINDINGS}/low-deployment`)).json()) as Binding;
    expect(stored.spec.clusters ?? []).toEqual([]);
  });

  it('resumes after a disconnect from the last version it saw, missing no change made meanwhile', async () => {
    const before = seen.length;
    const errorsBefore = errors;
    const lastVersion = Math.max(...seen.map((event) => event.version));
    const requestsBefore = api.requests.length;
    api.dropConnections();
    await write(`/apis/work.karmada.io/v1alpha2/namespaces/${NAMESPACE}/resourcebindings/low-deployment`, { spec: { suspension: { scheduling: true } } }, 'PATCH');
    await until(() => errors > errorsBefore, 'the informer to notice the cut');
    await until(() => seen.length > before, 'the change made while cut off');
    const resumed = seen.slice(before);
    expect(resumed.map((event) => [event.callback, event.name])).toContainEqual(['update', 'low-deployment']);
    // Resumed by a watch from the last version it saw, not by listing again.
    const afterCut = api.requests.slice(requestsBefore).filter((request) => request.startsWith(`GET ${BINDINGS}`));
    expect(afterCut.length).toBeGreaterThan(0);
    for (const request of afterCut) expect(request).toMatch(/[?&]watch=true/);
    expect(afterCut[0]).toContain(`resourceVersion=${lastVersion}`);
    expect(resumed.filter((event) => event.name === 'high-deployment')).toEqual([]);
    const cached = informer.get('low-deployment', NAMESPACE) as Binding & { spec: { suspension?: { scheduling?: boolean } } };
    expect(cached.spec.suspension).toEqual({ scheduling: true });
  });
});
