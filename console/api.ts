import { readList } from './list-pages';
import type { Band, Binding, Cluster, ClusterAllocation, KubeEvent, QueueDepth } from './model';

/** What the console shows; it reads the same Kubernetes-style API kubectl does, as the caller the page is served to. */
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

/** The lists kept up to date by list and watch (watchList), by what they hold. */
export const WATCHED = {
  bindings: '/apis/work.karmada.io/v1alpha2/resourcebindings',
  clusterBindings: '/apis/work.karmada.io/v1alpha2/clusterresourcebindings',
  clusters: '/apis/cluster.karmada.io/v1alpha1/clusters',
  allocations: '/apis/scheduling.outrank.io/v1alpha1/clusterallocations',
} as const;

export interface Polled {
  readonly events: KubeEvent[];
  readonly queues: QueueDepth[];
  readonly bands: Band[];
  readonly now: number;
}

/**
 * What is read again every few seconds rather than watched: the queue depths (not a Kubernetes
 * resource) and events (kept in the event log, which the API does not watch), with the server's time.
 */
export async function readPolled(events: string | undefined): Promise<Polled> {
  const queueResponse = await fetch('/outrank/v1/queues');
  const queueStatus = queueResponse.ok ? ((await queueResponse.json()) as { items: QueueDepth[]; bands?: Band[] }) : { items: [], bands: [] };
  const serverTime = Date.parse(queueResponse.headers.get('date') ?? '');
  return {
    events: events === undefined ? [] : (await readList<KubeEvent>('/api/v1/events', { fieldSelector: events })).items,
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
