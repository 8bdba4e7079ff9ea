import { apiGroupOf } from './resource-template';

/** Identity of a stored object: its API group and kind, namespace ('' when cluster-scoped) and name. */
export interface ObjectRef {
  readonly group: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export interface KindInfo {
  readonly apiVersion: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
}

export const PRIORITY_CLASS: KindInfo = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', plural: 'priorityclasses', namespaced: false };
export const CLUSTER: KindInfo = { apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', plural: 'clusters', namespaced: false };
export const PROPAGATION_POLICY: KindInfo = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', plural: 'propagationpolicies', namespaced: true };
export const CLUSTER_PROPAGATION_POLICY: KindInfo = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', plural: 'clusterpropagationpolicies', namespaced: false };
export const RESOURCE_BINDING: KindInfo = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', plural: 'resourcebindings', namespaced: true };
export const CLUSTER_RESOURCE_BINDING: KindInfo = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ClusterResourceBinding', plural: 'clusterresourcebindings', namespaced: false };
export const EVENT: KindInfo = { apiVersion: 'v1', kind: 'Event', plural: 'events', namespaced: true };
export const CLUSTER_ALLOCATION: KindInfo = { apiVersion: 'scheduling.outrank.io/v1alpha1', kind: 'ClusterAllocation', plural: 'clusterallocations', namespaced: false };
export const OVERRIDE_POLICY: KindInfo = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'OverridePolicy', plural: 'overridepolicies', namespaced: true };
export const CLUSTER_OVERRIDE_POLICY: KindInfo = { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterOverridePolicy', plural: 'clusteroverridepolicies', namespaced: false };
export const CUSTOM_RESOURCE_DEFINITION: KindInfo = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
};

export const SYSTEM_KINDS: readonly KindInfo[] = [
  PRIORITY_CLASS,
  CLUSTER,
  PROPAGATION_POLICY,
  CLUSTER_PROPAGATION_POLICY,
  RESOURCE_BINDING,
  CLUSTER_RESOURCE_BINDING,
  EVENT,
  CLUSTER_ALLOCATION,
  OVERRIDE_POLICY,
  CLUSTER_OVERRIDE_POLICY,
];

export const TEMPLATE_KINDS: readonly KindInfo[] = [
  { apiVersion: 'apps/v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
  { apiVersion: 'apps/v1', kind: 'StatefulSet', plural: 'statefulsets', namespaced: true },
  { apiVersion: 'apps/v1', kind: 'ReplicaSet', plural: 'replicasets', namespaced: true },
  { apiVersion: 'batch/v1', kind: 'Job', plural: 'jobs', namespaced: true },
];

/**
 * The kinds without replicas an application bundle carries beside its workloads: resource templates
 * propagated whole (their bindings have no replicas and request nothing). Kinds that CustomResourceDefinitions
 * register are served as such too, once their definition is stored (custom-kinds.ts).
 */
export const PLAIN_TEMPLATE_KINDS: readonly KindInfo[] = [
  { apiVersion: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  { apiVersion: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  { apiVersion: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true },
  { apiVersion: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true },
  { apiVersion: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', plural: 'roles', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', plural: 'rolebindings', namespaced: true },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', plural: 'clusterroles', namespaced: false },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false },
  CUSTOM_RESOURCE_DEFINITION,
];

/** Every kind outrank serves by itself, whatever CustomResourceDefinitions are stored. */
export const BUILT_IN_KINDS: readonly KindInfo[] = [...SYSTEM_KINDS, ...TEMPLATE_KINDS, ...PLAIN_TEMPLATE_KINDS];

export function kindInfo(apiVersion: string, kind: string): KindInfo | undefined {
  const group = apiGroupOf(apiVersion);
  return BUILT_IN_KINDS.find((k) => k.kind === kind && apiGroupOf(k.apiVersion) === group);
}

export function refOf(object: { apiVersion: string; kind: string; metadata: { namespace?: string; name: string } }): ObjectRef {
  return {
    group: apiGroupOf(object.apiVersion),
    kind: object.kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name,
  };
}

/** The template a binding propagates (its spec.resource). */
export function templateRefOf(binding: { spec: { resource: { apiVersion: string; kind: string; namespace?: string; name: string } } }): ObjectRef {
  const { apiVersion, kind, namespace, name } = binding.spec.resource;
  return { group: apiGroupOf(apiVersion), kind, namespace: namespace ?? '', name };
}

/**
 * An object's place among its kind's: `<namespace>/<name>`, compared as strings (compareStorageKeys). It
 * is the DynamoDB table's sort key, and the order lists come in, as Kubernetes lists come in etcd's key
 * order (a namespace "a-b" before "a").
 */
export function storageKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

export function compareStorageKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function refKey(ref: ObjectRef): string {
  return `${ref.kind}.${ref.group}/${ref.namespace}/${ref.name}`;
}

/** "default/web" or "web", as kubectl names objects. */
export function displayName(ref: { namespace?: string; name: string }): string {
  return ref.namespace ? `${ref.namespace}/${ref.name}` : ref.name;
}
