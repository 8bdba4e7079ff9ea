/** Manifests and helpers shared by the controller tests, which drive the real controllers through MemorySystem. */
import { expect } from 'vitest';
import { bindingName } from '../../../lib/api/binding-name';
import type { KubeEvent } from '../../../lib/api/event';
import { CLUSTER_ALLOCATION, SYSTEM_KINDS, TEMPLATE_KINDS, type ObjectRef } from '../../../lib/api/kinds';
import type { Condition } from '../../../lib/api/meta';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { apiGroupOf } from '../../../lib/api/resource-template';
import { withConfig } from '../../../lib/config';
import type { ClusterAllocation } from '../../../lib/controllers/allocations';
import { listBindings } from '../../../lib/controllers/binding-requests';
import { add, scale, toResourceList, type ResourceList } from '../../../lib/resources';
import { MemorySystem } from '../../../lib/runtime/memory-system';

/** A policy's placement dividing replicas onto the fewest clusters (Divided, Aggregated). */
export const AGGREGATED = { placement: { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } } };

export const SPEC = {
  priority: 'binding priority and preemption (000)',
  preemptibility: 'preemptibility separate from priority (001)',
  policy: 'policy priority and preemption (002)',
  suspension: 'scheduling suspension (003)',
  affinity: 'ordered cluster-affinity groups (004)',
} as const;

export type Manifest = Record<string, unknown>;
type Quantities = Record<string, string>;

export function newSystem(overrides: Parameters<typeof withConfig>[0] = {}): MemorySystem {
  return new MemorySystem(withConfig(overrides));
}

export interface ClusterOptions {
  readonly labels?: Record<string, string>;
  readonly ready?: boolean;
  readonly allocated?: Quantities;
  readonly taints?: ReadonlyArray<{ key: string; value?: string; effect: string; timeAdded?: string }>;
  /** false: the allocatable given has no `pods` entry added (a cluster has room for no pod without one). */
  readonly reportsPods?: false;
}

/**
 * Pods a test cluster offers when its allocatable names none: member clusters report them, and a test about
 * other resources should not run out of pods.
 */
export const TEST_CLUSTER_PODS = '10000';

export function cluster(name: string, given: Quantities, options: ClusterOptions = {}): Manifest {
  const allocatable = options.reportsPods === false || 'pods' in given ? given : { ...given, pods: TEST_CLUSTER_PODS };
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, ...(options.labels ? { labels: options.labels } : {}) },
    ...(options.taints ? { spec: { taints: options.taints } } : {}),
    status: {
      ...(options.ready === undefined ? {} : { conditions: [{ type: 'Ready', status: options.ready ? 'True' : 'False' }] }),
      resourceSummary: { allocatable, ...(options.allocated ? { allocated: options.allocated } : {}) },
    },
  };
}

export interface PriorityClassOptions {
  readonly preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  readonly globalDefault?: boolean;
  readonly description?: string;
}

export function priorityClass(name: string, value: number, options: PriorityClassOptions = {}): Manifest {
  return { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...options };
}

export interface WorkloadOptions {
  readonly namespace?: string;
  readonly replicas?: number;
  readonly requests?: Quantities;
  /** The pod template's priorityClassName, read by policies with priorityClassSource PodPriorityClass. */
  readonly priorityClassName?: string;
  readonly labels?: Record<string, string>;
  readonly podLabels?: Record<string, string>;
}

export function deployment(name: string, options: WorkloadOptions = {}): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: options.namespace ?? 'default', ...(options.labels ? { labels: options.labels } : {}) },
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, ...options.podLabels } },
        spec: {
          ...(options.priorityClassName ? { priorityClassName: options.priorityClassName } : {}),
          containers: [{ name: 'main', image: 'busybox', resources: { requests: options.requests ?? { cpu: '1' } } }],
        },
      },
    },
  };
}

export function propagationPolicy(name: string, spec: Manifest, namespace = 'default'): Manifest {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name, namespace }, spec };
}

export function clusterPropagationPolicy(name: string, spec: Manifest): Manifest {
  return { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', metadata: { name }, spec };
}

export const ALL_DEPLOYMENTS = [{ apiVersion: 'apps/v1', kind: 'Deployment' }];

/**
 * A policy for every Deployment of the namespace that takes each workload's priority class from its pod
 * template, so that one policy serves workloads of many priorities.
 */
export function podPriorityPolicy(name = 'by-pod-priority', spec: Manifest = {}): Manifest {
  return propagationPolicy(name, {
    resourceSelectors: ALL_DEPLOYMENTS,
    schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    ...spec,
  });
}

/** Priority classes p<value> for the given values, with preemptionPolicy Never unless told otherwise. */
export function neverClasses(...values: number[]): Manifest[] {
  return values.map((value) => priorityClass(`p${value}`, value, { preemptionPolicy: 'Never' }));
}

export const refs = {
  deployment: (name: string, namespace = 'default'): ObjectRef => ({ group: 'apps', kind: 'Deployment', namespace, name }),
  cluster: (name: string): ObjectRef => ({ group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name }),
  binding: (templateName: string, namespace = 'default'): ObjectRef => ({
    group: 'work.karmada.io',
    kind: 'ResourceBinding',
    namespace,
    name: bindingName(templateName, 'Deployment'),
  }),
  policy: (name: string, namespace = 'default'): ObjectRef => ({ group: 'policy.karmada.io', kind: 'PropagationPolicy', namespace, name }),
  clusterPolicy: (name: string): ObjectRef => ({ group: 'policy.karmada.io', kind: 'ClusterPropagationPolicy', namespace: '', name }),
  priorityClass: (name: string): ObjectRef => ({ group: 'scheduling.k8s.io', kind: 'PriorityClass', namespace: '', name }),
};

/** Applies the manifests through the API write path, then runs the controllers until no work is left. */
export async function applyAll(system: MemorySystem, manifests: readonly Manifest[]): Promise<void> {
  for (const manifest of manifests) await system.objects.apply(manifest);
  await system.runUntilIdle();
}

/** The ResourceBinding of Deployment `name`. */
export async function bindingOf(system: MemorySystem, name: string, namespace = 'default'): Promise<ResourceBinding> {
  const binding = await system.store.get<ResourceBinding>(refs.binding(name, namespace));
  if (!binding) throw new Error(`no binding for Deployment ${namespace}/${name}`);
  return binding;
}

export async function findBinding(system: MemorySystem, name: string, namespace = 'default'): Promise<ResourceBinding | undefined> {
  return system.store.get<ResourceBinding>(refs.binding(name, namespace));
}

export function conditionOf(binding: ResourceBinding, type: string): Condition | undefined {
  return binding.status?.conditions?.find((c) => c.type === type);
}

/** Cluster name → replicas, as spec.clusters says. */
export function placementOf(binding: ResourceBinding): Record<string, number> {
  return Object.fromEntries((binding.spec.clusters ?? []).map((target) => [target.name, target.replicas]));
}

export async function placementOfDeployment(system: MemorySystem, name: string): Promise<Record<string, number>> {
  return placementOf(await bindingOf(system, name));
}

export async function eventsWithReason(system: MemorySystem, reason: string): Promise<KubeEvent[]> {
  return (await system.events.list()).filter((event) => event.reason === reason);
}

/** Names of the objects the events with this reason are about, in the order they were recorded. */
export async function eventSubjects(system: MemorySystem, reason: string): Promise<string[]> {
  return (await eventsWithReason(system, reason)).map((event) => event.involvedObject.name);
}

/** Deployments in the order the scheduler placed their bindings (ScheduleBindingSucceed events). */
export async function placementOrder(system: MemorySystem): Promise<string[]> {
  return (await eventSubjects(system, 'ScheduleBindingSucceed')).map((name) => name.replace(/-deployment$/, ''));
}

/** Every stored object of the kinds these tests write, by kind, as the store holds them. */
export async function storeContents(system: MemorySystem): Promise<Record<string, unknown[]>> {
  const contents: Record<string, unknown[]> = {};
  for (const info of [...SYSTEM_KINDS, ...TEMPLATE_KINDS, CLUSTER_ALLOCATION]) {
    contents[`${info.kind}.${apiGroupOf(info.apiVersion)}`] = await system.store.list(apiGroupOf(info.apiVersion), info.kind);
  }
  return contents;
}

/** Messages held by every queue, visible or not. */
export function queueDepths(system: MemorySystem): Record<string, number> {
  return {
    policyChange: system.policyChangeQueue.held(),
    bindingEnqueue: system.bindingEnqueueQueue.held(),
    ...Object.fromEntries([...system.bandQueues].map(([band, queue]) => [`band:${band}`, queue.held()])),
  };
}

/** Runs `action` and returns the error it threw; fails the test if it did not throw. */
export async function rejectionOf(action: () => Promise<unknown>): Promise<Error> {
  try {
    await action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to be rejected');
}

function withoutZeros(list: ResourceList): ResourceList {
  return Object.fromEntries(Object.entries(list).filter(([, amount]) => amount !== 0));
}

/** Drops zero amounts, then clusters with nothing left. */
function nonEmpty(byCluster: Record<string, ResourceList>): Record<string, ResourceList> {
  const result: Record<string, ResourceList> = {};
  for (const [name, list] of Object.entries(byCluster)) {
    const amounts = withoutZeros(list);
    if (Object.keys(amounts).length > 0) result[name] = amounts;
  }
  return result;
}

/** Per cluster: what the placed bindings occupy (replicas × per-replica request, one pod each). */
export function placedByBindings(bindings: readonly ResourceBinding[]): Record<string, ResourceList> {
  const placed: Record<string, ResourceList> = {};
  for (const binding of bindings) {
    const request = { ...toResourceList(binding.spec.replicaRequirements?.resourceRequest), pods: 1 };
    for (const target of binding.spec.clusters ?? []) placed[target.name] = add(placed[target.name] ?? {}, scale(request, target.replicas));
  }
  return nonEmpty(placed);
}

async function allocations(system: MemorySystem): Promise<Record<string, ResourceList>> {
  const objects = await system.store.list<ClusterAllocation>('scheduling.outrank.io', 'ClusterAllocation');
  return nonEmpty(Object.fromEntries(objects.map((a) => [a.metadata.name, a.spec.placed])));
}

/** ClusterAllocation objects hold exactly what the placed bindings occupy. */
export async function expectAllocationsMatchBindings(system: MemorySystem): Promise<void> {
  expect(await allocations(system)).toEqual(placedByBindings(await listBindings(system.context)));
}
