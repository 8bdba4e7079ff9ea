import { CLUSTER, CLUSTER_ALLOCATION, EVENT, RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING, SYSTEM_KINDS, TEMPLATE_KINDS, type KindInfo } from '../api/kinds';
import { apiGroupOf } from '../api/resource-template';

/** Kubernetes verbs, as discovery lists them and as requests map onto them. */
export type Verb = 'create' | 'delete' | 'get' | 'list' | 'patch' | 'update';

/** A resource served under /api/v1 or /apis/<group>/<version>. */
export interface ServedResource {
  readonly info: KindInfo;
  readonly group: string;
  readonly version: string;
  readonly verbs: readonly Verb[];
  readonly shortNames: readonly string[];
  /** Events live in the event log; every other kind in the object store. */
  readonly source: 'store' | 'events';
  /**
   * Workload templates have lists merged by key under a strategic merge patch (containers by name).
   * Outrank's own kinds have none (Karmada kinds are custom resources, PriorityClass has no merge
   * lists), so there a strategic merge patch means the same as a JSON merge patch.
   */
  readonly mergesListsByKey: boolean;
  /** Has the scale subresource (kubectl scale): Deployments, StatefulSets and ReplicaSets, as in Kubernetes. */
  readonly scalable: boolean;
  /**
   * Has the status subresource, as in Kubernetes and Karmada: workload templates, clusters and bindings.
   * Writes to it change the status alone; a binding's status is the scheduler's, so read-only there.
   */
  readonly hasStatus: boolean;
  /** Groups kubectl can name instead of the resource: `kubectl get all` lists the workloads. */
  readonly categories: readonly string[];
}

const READ_WRITE: readonly Verb[] = ['create', 'delete', 'get', 'list', 'patch', 'update'];
/** Scheduling suspension (003): bindings are written by outrank; users only patch spec.suspension. */
const BINDING_VERBS: readonly Verb[] = ['get', 'list', 'patch'];
/** Events are recorded by outrank itself, and ClusterAllocations kept by the scheduler: both read-only. */
const READ_ONLY: readonly Verb[] = ['get', 'list'];

/** The short names kubectl users know from Kubernetes and Karmada. */
const SHORT_NAMES: Readonly<Record<string, readonly string[]>> = {
  priorityclasses: ['pc'],
  propagationpolicies: ['pp'],
  clusterpropagationpolicies: ['cpp'],
  resourcebindings: ['rb'],
  clusterresourcebindings: ['crb'],
  events: ['ev'],
  deployments: ['deploy'],
  statefulsets: ['sts'],
  replicasets: ['rs'],
};

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

function verbsOf(info: KindInfo): readonly Verb[] {
  if (info === EVENT || info === CLUSTER_ALLOCATION) return READ_ONLY;
  if (info === RESOURCE_BINDING || info === CLUSTER_RESOURCE_BINDING) return BINDING_VERBS;
  return READ_WRITE;
}

function serve(info: KindInfo): ServedResource {
  return {
    info,
    group: apiGroupOf(info.apiVersion),
    version: versionOf(info.apiVersion),
    verbs: verbsOf(info),
    shortNames: SHORT_NAMES[info.plural] ?? [],
    source: info === EVENT ? 'events' : 'store',
    mergesListsByKey: !SYSTEM_KINDS.includes(info),
    scalable: info.apiVersion === 'apps/v1',
    hasStatus: TEMPLATE_KINDS.includes(info) || info === CLUSTER || info === RESOURCE_BINDING || info === CLUSTER_RESOURCE_BINDING,
    categories: TEMPLATE_KINDS.includes(info) ? ['all'] : [],
  };
}

/**
 * Every kind outrank stores. ClusterAllocation, the scheduler's own bookkeeping, is served read-only
 * so that `outrank check` can compare it with the placed bindings.
 */
export const SERVED_RESOURCES: readonly ServedResource[] = [...SYSTEM_KINDS, ...TEMPLATE_KINDS].map(serve);

export function findResource(group: string, version: string, plural: string): ServedResource | undefined {
  return SERVED_RESOURCES.find((r) => r.group === group && r.version === version && r.info.plural === plural);
}

export function resourcesOf(group: string, version: string): ServedResource[] {
  return SERVED_RESOURCES.filter((r) => r.group === group && r.version === version);
}

/** "deployments.apps", or "events" for the core group: how Kubernetes names a resource in messages. */
export function qualifiedResource(resource: ServedResource): string {
  return resource.group ? `${resource.info.plural}.${resource.group}` : resource.info.plural;
}
