import type { CustomKinds, CustomKindVersion } from '../api/custom-kinds';
import {
  BUILT_IN_KINDS,
  CLUSTER,
  CLUSTER_ALLOCATION,
  CLUSTER_OVERRIDE_POLICY,
  EVENT,
  OVERRIDE_POLICY,
  RESOURCE_BINDING,
  CLUSTER_RESOURCE_BINDING,
  SYSTEM_KINDS,
  TEMPLATE_KINDS,
  type KindInfo,
} from '../api/kinds';
import { apiGroupOf } from '../api/resource-template';

/** Kubernetes verbs, as discovery lists them and as requests map onto them. */
export type Verb = 'create' | 'delete' | 'get' | 'list' | 'patch' | 'update';

/** The verbs discovery lists for a resource: those of its requests, and watch for whatever can be listed (watch-request.ts). */
export function discoveryVerbs(resource: Pick<ServedResource, 'verbs'>): readonly string[] {
  return resource.verbs.includes('list') ? [...resource.verbs, 'watch'] : resource.verbs;
}

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
  /** Groups kubectl can name instead of the resource: `kubectl get all` lists the workloads and Services. */
  readonly categories: readonly string[];
  /** A kind a stored CustomResourceDefinition registers, at the version served: its schema and printer columns. */
  readonly custom?: CustomKindVersion;
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
  services: ['svc'],
  configmaps: ['cm'],
  serviceaccounts: ['sa'],
  namespaces: ['ns'],
  customresourcedefinitions: ['crd', 'crds'],
  overridepolicies: ['op'],
  clusteroverridepolicies: ['cop'],
};

/**
 * The categories of Kubernetes' and Karmada's kinds: `all` holds the workloads and Services, as in
 * Kubernetes (pods, replication controllers, daemon sets and the like are not served here); Karmada's
 * OverridePolicies are in `karmada-io`, as their CRDs declare.
 */
function categoriesOf(info: KindInfo): readonly string[] {
  if (TEMPLATE_KINDS.includes(info) || (info.apiVersion === 'v1' && info.kind === 'Service')) return ['all'];
  if (info === OVERRIDE_POLICY || info === CLUSTER_OVERRIDE_POLICY) return ['karmada-io'];
  return [];
}

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
    categories: categoriesOf(info),
  };
}

/** A custom kind as served: every verb, the status subresource when its CRD declares one, its names and categories. */
function serveCustom(custom: CustomKindVersion): ServedResource {
  const { names } = custom.kind.definition.spec;
  return {
    info: custom.info,
    group: custom.kind.group,
    version: custom.version.name,
    verbs: READ_WRITE,
    shortNames: names.shortNames ?? [],
    source: 'store',
    // kube-apiserver takes no strategic merge patch for custom resources; here one means a JSON merge patch.
    mergesListsByKey: false,
    scalable: false,
    hasStatus: custom.version.subresources?.status !== undefined,
    categories: names.categories ?? [],
    custom,
  };
}

/**
 * Every kind outrank stores by itself. ClusterAllocation, the scheduler's own bookkeeping, is served
 * read-only so that `outrank check` can compare it with the placed bindings.
 */
export const SERVED_RESOURCES: readonly ServedResource[] = BUILT_IN_KINDS.map(serve);

/** The resources served: outrank's own, and those of the kinds the stored CustomResourceDefinitions register. */
export class ServedResources {
  static readonly BUILT_IN = new ServedResources(SERVED_RESOURCES);

  constructor(readonly all: readonly ServedResource[]) {}

  find(group: string, version: string, plural: string): ServedResource | undefined {
    return this.all.find((r) => r.group === group && r.version === version && r.info.plural === plural);
  }

  of(group: string, version: string): ServedResource[] {
    return this.all.filter((r) => r.group === group && r.version === version);
  }
}

const withCustom = new WeakMap<CustomKinds, ServedResources>();

/** The built-in resources and those of these custom kinds, made once per set of custom kinds. */
export function servedResourcesWith(custom: CustomKinds): ServedResources {
  let served = withCustom.get(custom);
  if (!served) withCustom.set(custom, (served = new ServedResources([...SERVED_RESOURCES, ...custom.versions().map(serveCustom)])));
  return served;
}

export function findResource(group: string, version: string, plural: string): ServedResource | undefined {
  return ServedResources.BUILT_IN.find(group, version, plural);
}

export function resourcesOf(group: string, version: string): ServedResource[] {
  return ServedResources.BUILT_IN.of(group, version);
}

/** "deployments.apps", or "events" for the core group: how Kubernetes names a resource in messages. */
export function qualifiedResource(resource: ServedResource): string {
  return resource.group ? `${resource.info.plural}.${resource.group}` : resource.info.plural;
}
