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
import { templatePodSpec, templateReplicas, type WorkloadTemplate } from '../api/resource-template';
import type { PrinterColumn } from '../api/custom-resource-definition';
import { formatQuantity } from '../quantity';
import { valueAt } from './json-path';
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
  /** The bindings of the templates shown, by templateKey, for their PLACEMENT; a template absent has none (no policy claims it). */
  readonly bindings?: ReadonlyMap<string, ResourceBinding>;
}

/** How a table's context finds a template's binding: `<namespace>/<name>`. */
export function templateKey(template: ListedObject): string {
  return `${template.metadata.namespace ?? ''}/${template.metadata.name}`;
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

/** Where the template's binding placed it ("member1:2,member2:1"), else why not yet: its Scheduled reason, Pending or Suspended. */
function placement(template: ListedObject, { bindings }: TableContext): string {
  const binding = bindings?.get(templateKey(template));
  if (!binding) return NONE;
  const clusters = placedClusters(binding).map((c) => `${c.name}:${c.replicas}`).join(',');
  if (clusters) return clusters;
  const state = bindingState(binding);
  return state === 'False' ? findCondition(binding, CONDITION_SCHEDULED)?.reason || 'Unscheduled' : state;
}

type Workload = WorkloadTemplate & { readonly status?: Record<string, unknown> };

function statusCount(template: Workload, field: string): number {
  const value = template.status?.[field];
  return typeof value === 'number' ? value : 0;
}

function containers(template: Workload): Record<string, unknown>[] {
  return list(templatePodSpec(template).containers);
}

/** kubectl's Deployment columns (the status counts a member cluster's agent would report), and where outrank placed it. */
const DEPLOYMENT: Column<Workload>[] = [
  NAME,
  { header: 'READY', value: (d) => `${statusCount(d, 'readyReplicas')}/${templateReplicas(d)}` },
  { header: 'UP-TO-DATE', value: (d) => String(statusCount(d, 'updatedReplicas')) },
  { header: 'AVAILABLE', value: (d) => String(statusCount(d, 'availableReplicas')) },
  { header: 'PLACEMENT', value: placement },
  AGE,
  { header: 'CONTAINERS', value: (d) => joined(containers(d).map((c) => c.name)), wide: true },
  { header: 'IMAGES', value: (d) => joined(containers(d).map((c) => c.image)), wide: true },
  { header: 'SELECTOR', value: (d) => selectorText(record(record(d.spec).selector)), wide: true },
  { header: 'PRIORITY-CLASS', value: (d) => templatePodSpec(d).priorityClassName ?? NONE, wide: true },
];

/** A label selector as kubectl prints it: app=web,tier in (a,b). */
function selectorText(selector: Record<string, unknown>): string {
  const labels = Object.entries(record(selector.matchLabels)).map(([key, value]) => `${key}=${String(value)}`);
  const expressions = list(selector.matchExpressions).map((e) => {
    const values = Array.isArray(e.values) ? e.values.map(String).join(',') : '';
    switch (e.operator) {
      case 'In':
        return `${String(e.key)} in (${values})`;
      case 'NotIn':
        return `${String(e.key)} notin (${values})`;
      case 'DoesNotExist':
        return `!${String(e.key)}`;
      default:
        return String(e.key);
    }
  });
  return joined([...labels, ...expressions]);
}

const TEMPLATE: Column<WorkloadTemplate>[] = [
  NAME,
  { header: 'REPLICAS', value: (t) => String(templateReplicas(t)) },
  AGE,
  { header: 'PRIORITY-CLASS', value: (t) => templatePodSpec(t).priorityClassName ?? NONE, wide: true },
];

/** The time itself (RFC 3339), as kubectl shows roles and CustomResourceDefinitions. */
const CREATED_AT: Column<ListedObject> = { header: 'CREATED AT', value: (o) => o.metadata.creationTimestamp ?? NONE };

/** A field of an object kept as written (the kinds without replicas, whose shapes scheduling does not read). */
type Plain = ListedObject & { readonly [field: string]: unknown };

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record) : [];
}

function joined(values: readonly unknown[]): string {
  return values.map(String).join(',') || NONE;
}

function serviceType(service: Plain): string {
  return String(record(service.spec).type ?? 'ClusterIP');
}

/** kubectl's EXTERNAL-IP: the external name, a load balancer's ingress (<pending> until it has one), else the external IPs. */
function externalIp(service: Plain): string {
  const spec = record(service.spec);
  const type = serviceType(service);
  if (type === 'ExternalName') return String(spec.externalName ?? NONE);
  const external = Array.isArray(spec.externalIPs) ? spec.externalIPs : [];
  if (type !== 'LoadBalancer') return joined(external);
  const ingress = list(record(record(service.status).loadBalancer).ingress).map((entry) => entry.ip ?? entry.hostname);
  return ingress.length + external.length > 0 ? joined([...ingress, ...external]) : '<pending>';
}

const SERVICE: Column<Plain>[] = [
  NAME,
  { header: 'TYPE', value: serviceType },
  { header: 'CLUSTER-IP', value: (s) => String(record(s.spec).clusterIP || NONE) },
  { header: 'EXTERNAL-IP', value: externalIp },
  {
    header: 'PORT(S)',
    value: (s) => joined(list(record(s.spec).ports).map((p) => `${String(p.port)}${p.nodePort ? `:${String(p.nodePort)}` : ''}/${String(p.protocol ?? 'TCP')}`)),
  },
  AGE,
  { header: 'SELECTOR', value: (s) => joined(Object.entries(record(record(s.spec).selector)).map(([key, value]) => `${key}=${String(value)}`)), wide: true },
];

const keys = (value: unknown) => Object.keys(record(value)).length;

const CONFIG_MAP: Column<Plain>[] = [NAME, { header: 'DATA', value: (c) => String(keys(c.data) + keys(c.binaryData)) }, AGE];
const SECRET: Column<Plain>[] = [NAME, { header: 'TYPE', value: (s) => String(s.type ?? 'Opaque') }, { header: 'DATA', value: (s) => String(keys(s.data)) }, AGE];
const SERVICE_ACCOUNT: Column<Plain>[] = [NAME, { header: 'SECRETS', value: (a) => String(list(a.secrets).length) }, AGE];
const NAMESPACE: Column<Plain>[] = [NAME, { header: 'STATUS', value: (n) => String(record(n.status).phase ?? 'Active') }, AGE];

function subjects(kind: string): (binding: Plain) => string {
  return (binding) =>
    joined(
      list(binding.subjects)
        .filter((subject) => subject.kind === kind)
        .map((subject) => (kind === 'ServiceAccount' ? `${String(subject.namespace ?? '')}/${String(subject.name)}` : String(subject.name))),
    );
}

const ROLE_BINDING: Column<Plain>[] = [
  NAME,
  { header: 'ROLE', value: (b) => `${String(record(b.roleRef).kind)}/${String(record(b.roleRef).name)}` },
  AGE,
  { header: 'USERS', value: subjects('User'), wide: true },
  { header: 'GROUPS', value: subjects('Group'), wide: true },
  { header: 'SERVICEACCOUNTS', value: subjects('ServiceAccount'), wide: true },
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
  Deployment: forAnyObject(DEPLOYMENT),
  StatefulSet: forAnyObject(TEMPLATE),
  ReplicaSet: forAnyObject(TEMPLATE),
  Job: forAnyObject(TEMPLATE),
  Event: forAnyObject(EVENT),
  Service: forAnyObject(SERVICE),
  ConfigMap: forAnyObject(CONFIG_MAP),
  Secret: forAnyObject(SECRET),
  ServiceAccount: forAnyObject(SERVICE_ACCOUNT),
  Namespace: forAnyObject(NAMESPACE),
  Role: [NAME, CREATED_AT],
  ClusterRole: [NAME, CREATED_AT],
  RoleBinding: forAnyObject(ROLE_BINDING),
  ClusterRoleBinding: forAnyObject(ROLE_BINDING),
  CustomResourceDefinition: [NAME, CREATED_AT],
};

/** The kind's columns (NAME and AGE for a kind without its own), the -o wide ones included. */
export function columnsOf(kind: string): readonly Column<ListedObject>[] {
  return COLUMNS_BY_KIND[kind] ?? [NAME, AGE];
}

/** NAME, then a CustomResourceDefinition's additionalPrinterColumns, or AGE when it has none, as kube-apiserver prints custom resources. */
export function customColumns(printerColumns: readonly PrinterColumn[] | undefined): readonly Column<ListedObject>[] {
  if (!printerColumns || printerColumns.length === 0) return [NAME, AGE];
  return [
    NAME,
    ...printerColumns.map((column): Column<ListedObject> => ({
      header: column.name.toUpperCase(),
      value: (object, { now }) => printed(valueAt(object, column.jsonPath), column.type, now),
      ...((column.priority ?? 0) > 0 ? { wide: true as const } : {}),
    })),
  ];
}

/** A printer column's value: dates as ages, lists as kubectl joins them, nothing as <none>. */
function printed(value: unknown, type: PrinterColumn['type'], now: number): string {
  if (value === undefined || value === null) return NONE;
  if (type === 'date' && typeof value === 'string') return age(value, now);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'object' ? JSON.stringify(item) : String(item))).join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

