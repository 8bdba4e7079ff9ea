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
  /** The bindings a page shows, from both kinds' lists: a field selector, and what it selects. */
  readonly bindings?: BindingSelection;
  /** One binding, watched by its name as `kubectl get -w` watches one, rather than every binding. */
  readonly binding?: { readonly namespace: string; readonly name: string };
  readonly clusters?: boolean;
  /** The events to read, each list by a field selector (reason=Preempted, or one binding's); none when absent. */
  readonly events?: readonly string[];
}

export interface BindingSelection {
  readonly fieldSelector: string;
  readonly keep: (binding: Binding) => boolean;
}

const targets = (binding: Binding) => binding.spec.clusters ?? [];

/** The bindings placed nowhere: what the scheduler has yet to place (spec.clusters.name=, as spec.nodeName= selects unbound Pods). */
export const WAITING: BindingSelection = { fieldSelector: 'spec.clusters.name=', keep: (binding) => targets(binding).length === 0 };

/** The bindings placed on one cluster. */
export function placedOnCluster(cluster: string): BindingSelection {
  return { fieldSelector: `spec.clusters.name=${cluster}`, keep: (binding) => targets(binding).some((target) => target.name === cluster) };
}

/** Where one binding is listed and watched: its kind's list in its namespace, selected by name. */
export function bindingList(binding: { readonly namespace: string; readonly name: string }): { path: string; selection: { fieldSelector: string } } {
  const path = binding.namespace
    ? `/apis/work.karmada.io/v1alpha2/namespaces/${encodeURIComponent(binding.namespace)}/resourcebindings`
    : '/apis/work.karmada.io/v1alpha2/clusterresourcebindings';
  return { path, selection: { fieldSelector: `metadata.name=${binding.name}` } };
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
export async function readPolled(events: readonly string[] = []): Promise<Polled> {
  const queueResponse = await fetch('/outrank/v1/queues');
  const queueStatus = queueResponse.ok ? ((await queueResponse.json()) as { items: QueueDepth[]; bands?: Band[] }) : { items: [], bands: [] };
  const serverTime = Date.parse(queueResponse.headers.get('date') ?? '');
  const lists = await Promise.all(events.map(async (fieldSelector) => (await readList<KubeEvent>('/api/v1/events', { fieldSelector })).items));
  return {
    // An event two selectors both select (a binding's own Preempted event) is shown once.
    events: [...new Map(lists.flat().map((event) => [event.metadata.uid ?? `${event.metadata.namespace ?? ''}/${event.metadata.name}`, event])).values()],
    queues: queueStatus.items,
    bands: queueStatus.bands ?? [],
    now: Number.isNaN(serverTime) ? Date.now() : serverTime,
  };
}

/** One object as the API serves it at `path`, or null when it has none (404). */
export async function readObject<T>(path: string, signal?: AbortSignal): Promise<T | null> {
  const response = await fetch(path, { headers: { accept: 'application/json' }, signal });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
  return (await response.json()) as T;
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
