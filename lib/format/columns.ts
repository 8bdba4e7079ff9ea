import type { Cluster } from '../api/cluster';
import type { KubeEvent } from '../api/event';
import { effectivePreemptionPolicy, type PriorityClass } from '../api/priority-class';
import type { AnyPropagationPolicy } from '../api/propagation-policy';
import {
  bindingPriority,
  CLUSTER_POLICY_NAME_LABEL,
  CONDITION_SCHEDULED,
  findCondition,
  isSuspended,
  POLICY_NAME_LABEL,
  placedClusters,
  type ResourceBinding,
} from '../api/resource-binding';
import { templatePodSpec, templateReplicas, type ResourceTemplate } from '../api/resource-template';
import { formatQuantity } from '../quantity';
import { amountOf, type ResourceList } from '../resources';
import { age } from './age';

/** What every listed object has: the fields the NAME and AGE columns read. */
export interface ListedObject {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly creationTimestamp?: string };
}

/** What a table shows beside its objects: the time of the ages, and what outrank placed on each cluster. */
export interface TableContext {
  readonly now: number;
  /** Each cluster's placed resources (its ClusterAllocation), for the Cluster columns; a cluster absent has none placed. */
  readonly placed?: ReadonlyMap<string, ResourceList>;
}

/**
 * The columns of each kind's table, as kubectl's printers have them: `outrank get` prints them, and the API
 * serves them as a meta.k8s.io/v1 Table to `kubectl get`.
 */
export interface Column<T> {
  readonly header: string;
  readonly value: (object: T, context: TableContext) => string;
  /** Only with -o wide. */
  readonly wide?: true;
}

const NONE = '<none>';

const NAME: Column<ListedObject> = { header: 'NAME', value: (o) => o.metadata.name };
const AGE: Column<ListedObject> = { header: 'AGE', value: (o, { now }) => age(o.metadata.creationTimestamp, now) };

function quantity(value: string | number | undefined): string {
  return value === undefined ? NONE : String(value);
}

/** Suspended, else the Scheduled condition's status, else Pending (queued, not yet tried). */
export function bindingState(binding: ResourceBinding): string {
  if (isSuspended(binding)) return 'Suspended';
  return findCondition(binding, CONDITION_SCHEDULED)?.status ?? 'Pending';
}

function bindingPolicy(binding: ResourceBinding): string {
  const labels = binding.metadata.labels ?? {};
  const clusterPolicy = labels[CLUSTER_POLICY_NAME_LABEL];
  if (clusterPolicy) return `clusterpropagationpolicy/${clusterPolicy}`;
  const policy = labels[POLICY_NAME_LABEL];
  return policy ? `propagationpolicy/${policy}` : NONE;
}

const BINDING: Column<ResourceBinding>[] = [
  NAME,
  { header: 'PRIORITY', value: (b) => String(bindingPriority(b)) },
  { header: 'PREEMPTIBILITY', value: (b) => b.spec.preemptibility ?? 'preemptible' },
  { header: 'CLUSTERS', value: (b) => placedClusters(b).map((c) => `${c.name}:${c.replicas}`).join(',') || NONE },
  { header: 'SCHEDULED', value: bindingState },
  { header: 'REASON', value: (b) => findCondition(b, CONDITION_SCHEDULED)?.reason || NONE },
  AGE,
  { header: 'AFFINITY', value: (b) => b.status?.schedulerObservingAffinityName ?? NONE, wide: true },
  { header: 'POLICY', value: bindingPolicy, wide: true },
  { header: 'RESOURCE', value: (b) => `${b.spec.resource.kind.toLowerCase()}/${b.spec.resource.name}`, wide: true },
];

/** "placed/allocatable" of one resource on a cluster, as quantities: 2500m/8, 3Gi/32Gi. */
function placedOf(resource: string): (cluster: Cluster, context: TableContext) => string {
  return (cluster, { placed }) => {
    const allocatable = cluster.status?.resourceSummary?.allocatable?.[resource];
    const onCluster = amountOf(placed?.get(cluster.metadata.name) ?? {}, resource);
    return `${formatQuantity(onCluster, resource)}/${quantity(allocatable)}`;
  };
}

/** Each resource as placed/allocatable: what outrank placed there (its ClusterAllocation) against what the cluster offers. */
const CLUSTER: Column<Cluster>[] = [
  NAME,
  // A cluster that reports no Ready condition counts as ready (isClusterReady).
  { header: 'READY', value: (c) => c.status?.conditions?.find((condition) => condition.type === 'Ready')?.status ?? 'True' },
  { header: 'CPU', value: placedOf('cpu') },
  { header: 'MEMORY', value: placedOf('memory') },
  { header: 'TAINTS', value: (c) => (c.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(',') || NONE },
  AGE,
  { header: 'PODS', value: placedOf('pods'), wide: true },
  { header: 'REGION', value: (c) => c.spec?.region ?? NONE, wide: true },
  { header: 'ZONE', value: (c) => c.spec?.zone ?? NONE, wide: true },
];

const PRIORITY_CLASS: Column<PriorityClass>[] = [
  NAME,
  { header: 'VALUE', value: (p) => String(p.value) },
  { header: 'GLOBAL-DEFAULT', value: (p) => String(p.globalDefault ?? false) },
  { header: 'PREEMPTION-POLICY', value: effectivePreemptionPolicy },
  AGE,
  { header: 'DESCRIPTION', value: (p) => p.description ?? NONE, wide: true },
];

/** Where the policy's bindings take their priority from: "KubePriorityClass/urgent", "PodPriorityClass", or none. */
function schedulePriorityOf(policy: AnyPropagationPolicy): string {
  const priority = policy.spec.schedulePriority;
  if (!priority?.priorityClassSource) return priority?.priorityClassName ?? NONE;
  return priority.priorityClassName ? `${priority.priorityClassSource}/${priority.priorityClassName}` : priority.priorityClassSource;
}

const POLICY: Column<AnyPropagationPolicy>[] = [
  NAME,
  { header: 'PRIORITY', value: (p) => String(p.spec.priority ?? 0) },
  { header: 'PREEMPTION', value: (p) => p.spec.preemption ?? 'Never' },
  { header: 'PRIORITY-CLASS', value: schedulePriorityOf },
  AGE,
  { header: 'PREEMPTIBILITY', value: (p) => p.spec.preemptibility ?? NONE, wide: true },
  {
    header: 'SELECTORS',
    value: (p) => p.spec.resourceSelectors.map((s) => `${s.kind.toLowerCase()}${s.name ? `/${s.name}` : ''}`).join(','),
    wide: true,
  },
];

const TEMPLATE: Column<ResourceTemplate>[] = [
  NAME,
  { header: 'REPLICAS', value: (t) => String(templateReplicas(t)) },
  AGE,
  { header: 'PRIORITY-CLASS', value: (t) => templatePodSpec(t).priorityClassName ?? NONE, wide: true },
];

const EVENT: Column<KubeEvent>[] = [
  { header: 'LAST SEEN', value: (e, { now }) => age(e.lastTimestamp ?? e.firstTimestamp ?? e.metadata.creationTimestamp, now) },
  { header: 'TYPE', value: (e) => e.type },
  { header: 'REASON', value: (e) => e.reason },
  { header: 'OBJECT', value: (e) => `${e.involvedObject.kind.toLowerCase()}/${e.involvedObject.name}` },
  { header: 'MESSAGE', value: (e) => e.message },
];

/** Each kind's columns read the fields of that kind; the server answers a request for a kind with objects of it. */
function forAnyObject<T>(columns: Column<T>[]): readonly Column<ListedObject>[] {
  return columns as unknown as Column<ListedObject>[];
}

const COLUMNS_BY_KIND: Readonly<Record<string, readonly Column<ListedObject>[]>> = {
  ResourceBinding: forAnyObject(BINDING),
  ClusterResourceBinding: forAnyObject(BINDING),
  Cluster: forAnyObject(CLUSTER),
  PriorityClass: forAnyObject(PRIORITY_CLASS),
  PropagationPolicy: forAnyObject(POLICY),
  ClusterPropagationPolicy: forAnyObject(POLICY),
  Deployment: forAnyObject(TEMPLATE),
  StatefulSet: forAnyObject(TEMPLATE),
  ReplicaSet: forAnyObject(TEMPLATE),
  Job: forAnyObject(TEMPLATE),
  Event: forAnyObject(EVENT),
};

/** The kind's columns (NAME and AGE for a kind without its own), the -o wide ones included. */
export function columnsOf(kind: string): readonly Column<ListedObject>[] {
  return COLUMNS_BY_KIND[kind] ?? [NAME, AGE];
}

