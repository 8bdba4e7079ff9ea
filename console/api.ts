import type { Band, Binding, Cluster, ClusterAllocation, KubeEvent, QueueDepth } from './model';

/** The console reads the same Kubernetes-style API kubectl does, as the caller the page is served to. */
async function get<T>(path: string): Promise<T> {
  const response = await fetch(path, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

const items = async <T>(path: string): Promise<T[]> => (await get<{ items: T[] }>(path)).items;

export interface Snapshot {
  readonly bindings: Binding[];
  readonly clusters: Cluster[];
  readonly allocations: ClusterAllocation[];
  readonly events: KubeEvent[];
  readonly queues: QueueDepth[];
  readonly bands: Band[];
  /** The server's time (its Date header), for wait times and ages. */
  readonly now: number;
}

/** What a page reads: only that, so that a page over a large fleet reads no list it does not show. */
export interface Needs {
  readonly bindings?: boolean;
  readonly clusters?: boolean;
  /** The events to read, by a field selector (reason=Preempted, or one binding's); none when absent. */
  readonly events?: string;
}

const none = async <T>(): Promise<T[]> => [];

/** The lists the page needs, the queue depths and bands, and the server's time, read at once. */
export async function readSnapshot(needs: Needs): Promise<Snapshot> {
  const queueResponse = await fetch('/outrank/v1/queues');
  const queueStatus = queueResponse.ok ? ((await queueResponse.json()) as { items: QueueDepth[]; bands?: Band[] }) : { items: [], bands: [] };
  const serverTime = Date.parse(queueResponse.headers.get('date') ?? '');
  const [bindings, clusterBindings, clusters, allocations, events] = await Promise.all([
    needs.bindings ? items<Binding>('/apis/work.karmada.io/v1alpha2/resourcebindings') : none<Binding>(),
    needs.bindings ? items<Binding>('/apis/work.karmada.io/v1alpha2/clusterresourcebindings') : none<Binding>(),
    needs.clusters ? items<Cluster>('/apis/cluster.karmada.io/v1alpha1/clusters') : none<Cluster>(),
    needs.clusters ? items<ClusterAllocation>('/apis/scheduling.outrank.io/v1alpha1/clusterallocations') : none<ClusterAllocation>(),
    needs.events !== undefined ? items<KubeEvent>(`/api/v1/events?fieldSelector=${encodeURIComponent(needs.events)}`) : none<KubeEvent>(),
  ]);
  return {
    bindings: [...bindings, ...clusterBindings],
    clusters,
    allocations,
    events,
    queues: queueStatus.items,
    bands: queueStatus.bands ?? [],
    now: Number.isNaN(serverTime) ? Date.now() : serverTime,
  };
}

/** Suspends or resumes a binding's scheduling (scheduling suspension (003)), as the caller; the API authorizes it. */
export async function setSuspended(namespace: string, name: string, suspended: boolean): Promise<void> {
  const response = await fetch(`/apis/work.karmada.io/v1alpha2/namespaces/${encodeURIComponent(namespace)}/resourcebindings/${encodeURIComponent(name)}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/merge-patch+json' },
    body: JSON.stringify({ spec: { suspension: { scheduling: suspended } } }),
  });
  if (!response.ok) throw new Error(((await response.json()) as { message?: string }).message ?? `${response.status}`);
}

export interface WhatIf {
  readonly decisions: ReadonlyArray<{ readonly type: string; readonly reason: string; readonly object: { readonly namespace?: string; readonly name: string }; readonly message: string }>;
  readonly placements: ReadonlyArray<{ readonly binding: string; readonly before: ReadonlyArray<{ name: string; replicas: number }> | null; readonly after: ReadonlyArray<{ name: string; replicas: number }> }>;
  readonly victims: readonly string[];
  readonly rejections: ReadonlyArray<{ readonly object: string; readonly message: string }>;
}

/** What applying the manifests now would do, decided by the API on a copy of the live state; nothing is written. */
export async function tryManifests(manifests: string): Promise<WhatIf> {
  const response = await fetch('/outrank/v1/whatif', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: manifests });
  const body = (await response.json()) as WhatIf & { message?: string };
  if (!response.ok) throw new Error(body.message ?? `${response.status}`);
  return body;
}
