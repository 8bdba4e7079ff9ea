import * as z from 'zod';
import { failoverSchema } from './failover';
import { condition, int32, namespaceName, objectMeta, objectName, templateName, type Condition } from './meta';
import { preemptionPolicy } from './priority-class';
import { placementSchema, preemptibility, suspensionSchema } from './propagation-policy';
import { componentSchema, replicaRequirementsSchema, targetComponentSchema } from './replica-requirements';

export const targetClusterSchema = z.strictObject({
  name: objectName,
  replicas: z.number().int().nonnegative(),
  components: z.array(targetComponentSchema).max(64).optional().meta({ description: "Karmada's replicas per component on this cluster; not written by outrank." }),
});
export type TargetCluster = z.infer<typeof targetClusterSchema>;

/** A cluster listed twice would be counted twice against its capacity but freed once. */
const targetClustersSchema = z
  .array(targetClusterSchema)
  .max(1024)
  .superRefine((targets, context) => {
    const seen = new Set<string>();
    targets.forEach((target, index) => {
      if (seen.has(target.name)) {
        context.addIssue({ code: 'custom', path: [index, 'name'], message: `must be unique: cluster "${target.name}" is listed twice` });
      }
      seen.add(target.name);
    });
  });

/**
 * Karmada's GracefulEvictionTask (work.karmada.io/v1alpha2): the binding is leaving `fromCluster` (a
 * NoExecute taint it does not tolerate), and keeps it until it is placed elsewhere or the grace period
 * ends. Written by outrank only.
 */
export const gracefulEvictionTaskSchema = z.strictObject({
  fromCluster: objectName,
  purgeMode: z.enum(['Directly', 'Gracefully', 'Never']).optional(),
  replicas: z.number().int().nonnegative().optional(),
  reason: z.string().min(1).max(32).regex(/^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/, 'must be a CamelCase identifier'),
  message: z.string().max(1024).optional(),
  producer: z.string().min(1).max(253),
  gracePeriodSeconds: z.number().int().positive().optional(),
  suppressDeletion: z.boolean().optional().meta({ description: "Karmada's hold on the eviction until a person or tool ends it; not written by outrank." }),
  preservedLabelState: z.record(z.string().max(317), z.string().max(4096)).optional().meta({ description: "Karmada's state preserved for the new cluster (failover statePreservation); not written by outrank." }),
  clustersBeforeFailover: z.array(objectName).max(1024).optional().meta({ description: "Karmada's clusters the application ran on before failover; not written by outrank." }),
  creationTimestamp: z.string().max(64).optional(),
});
export type GracefulEvictionTask = z.infer<typeof gracefulEvictionTaskSchema>;

const bindingSpecSchema = z.strictObject({
  resource: z.strictObject({
    apiVersion: z.string().min(1).max(253),
    kind: z.string().min(1).max(63),
    namespace: namespaceName.optional(),
    name: templateName,
    uid: z.string().max(64).optional(),
    resourceVersion: z.string().max(32).optional(),
  }),
  propagateDeps: z.boolean().optional().meta({ description: "The claiming policy's propagateDeps, carried for whatever propagates placements; outrank does not act on it." }),
  replicas: z.number().int().nonnegative().optional(),
  replicaRequirements: replicaRequirementsSchema.optional(),
  components: z.array(componentSchema).max(64).optional().meta({ description: "Karmada's pod templates of a workload made of several; not written by outrank." }),
  placement: placementSchema.optional(),
  schedulerName: z.string().max(253).optional().meta({ description: 'The scheduler that places the binding (the policy\'s spec.schedulerName; empty: default-scheduler). outrank schedules only the bindings of the names it is configured with.' }),
  schedulePriority: z
    .strictObject({
      priority: int32,
      preemptionPolicy: preemptionPolicy,
    })
    .optional()
    .meta({ description: 'Binding priority and preemption (000): resolved when the binding is made and kept; higher priorities are scheduled first and may preempt lower ones.' }),
  preemptibility: preemptibility.optional().meta({ description: 'Preemptibility separate from priority (001): non-preemptible bindings are never victims.' }),
  suspension: suspensionSchema.optional().meta({ description: 'Scheduling suspension (003): users may change it; scheduling: true keeps an unplaced binding waiting.' }),
  rescheduleTriggeredAt: z.iso
    .datetime({ offset: true, error: 'must be an RFC 3339 time such as 2024-05-27T10:00:00Z' })
    .max(64)
    .optional()
    .meta({
      description:
        "When a user asked for the binding to be rescheduled afresh (Karmada's WorkloadRebalancer sets it): once later than status.lastScheduledTime, every replica is divided anew, from the first clusterAffinities term, instead of kept where it runs. Users may set it, not later than the server's time.",
    }),
  clusters: targetClustersSchema.optional().meta({ description: 'The placement: member clusters and the replicas each runs.' }),
  gracefulEvictionTasks: z
    .array(gracefulEvictionTaskSchema)
    .max(1024)
    .optional()
    .meta({ description: 'Clusters the binding is being evicted from (a NoExecute taint): each stays in clusters until the binding is placed elsewhere or the grace period ends.' }),
  requiredBy: z
    .array(z.strictObject({ namespace: namespaceName.optional(), name: objectName, clusters: z.array(targetClusterSchema).max(1024).optional() }))
    .max(1024)
    .optional()
    .meta({ description: "Karmada's bindings that depend on this one (propagateDeps); not written by outrank." }),
  failover: failoverSchema.optional(),
  conflictResolution: z
    .enum(['Abort', 'Overwrite'])
    .optional()
    .meta({ description: "The claiming policy's conflictResolution, carried for whatever propagates placements; outrank does not act on it." }),
  preserveResourcesOnDeletion: z
    .boolean()
    .optional()
    .meta({ description: "The claiming policy's preserveResourcesOnDeletion, carried for whatever propagates placements; outrank does not act on it." }),
  workloadAffinityGroups: z
    .strictObject({ affinityGroup: z.string().max(400).optional(), antiAffinityGroup: z.string().max(400).optional() })
    .optional()
    .meta({ description: "Karmada's instantiated workload affinity groups (feature gate WorkloadAffinity, off by default); not written by outrank." }),
});

const bindingStatusSchema = z.strictObject({
  conditions: z.array(condition).max(64).optional(),
  aggregatedStatus: z
    .array(
      z.strictObject({
        clusterName: objectName,
        status: z.looseObject({}).optional(),
        applied: z.boolean().optional(),
        appliedMessage: z.string().max(32_768).optional(),
        health: z.enum(['Healthy', 'Unhealthy', 'Unknown']).optional(),
      }),
    )
    .max(1024)
    .optional()
    .meta({ description: "Karmada's status of the resource on each member cluster; not written by outrank, which has no work on member clusters." }),
  schedulerObservedGeneration: z.number().int().nonnegative().optional(),
  schedulerObservingAffinityName: z.string().max(317).optional(),
  lastScheduledTime: z.string().max(64).optional(),
});

/** The API group of bindings. */
export const BINDING_GROUP = 'work.karmada.io';

/** work.karmada.io/v1alpha2 ResourceBinding and ClusterResourceBinding, written by outrank itself. */
export const resourceBindingSchema = z.strictObject({
  apiVersion: z.literal('work.karmada.io/v1alpha2'),
  kind: z.enum(['ResourceBinding', 'ClusterResourceBinding']),
  metadata: objectMeta,
  spec: bindingSpecSchema,
  status: bindingStatusSchema.optional(),
}).meta({ description: 'The scheduling unit outrank makes for each claimed resource template: what it needs, its priority, and where it is placed.' });
export type ResourceBinding = z.infer<typeof resourceBindingSchema>;
export type BindingStatus = z.infer<typeof bindingStatusSchema>;

export const CONDITION_SCHEDULED = 'Scheduled';
export const CONDITION_SCHEDULING_SUSPENDED = 'SchedulingSuspended';

/**
 * Reasons of the Scheduled condition: Karmada's scheduler's, and ClusterDeleted for a binding whose
 * replicas on a deleted cluster are no longer placed (it waits to be placed again).
 */
export type ScheduledReason = 'Success' | 'NoClusterFit' | 'Unschedulable' | 'SchedulerError' | 'ClusterDeleted';

export const POLICY_NAME_LABEL = 'propagationpolicy.karmada.io/name';
export const POLICY_NAMESPACE_LABEL = 'propagationpolicy.karmada.io/namespace';
export const CLUSTER_POLICY_NAME_LABEL = 'clusterpropagationpolicy.karmada.io/name';

export function findCondition(binding: ResourceBinding, type: string): Condition | undefined {
  return binding.status?.conditions?.find((c) => c.type === type);
}

/** Sets a condition, keeping lastTransitionTime when the status does not change (Kubernetes convention). */
export function withCondition(conditions: readonly Condition[] | undefined, next: Condition): Condition[] {
  const list = conditions ?? [];
  const previous = list.find((c) => c.type === next.type);
  const merged: Condition =
    previous && previous.status === next.status
      ? { ...next, lastTransitionTime: previous.lastTransitionTime ?? next.lastTransitionTime }
      : next;
  return previous ? list.map((c) => (c.type === next.type ? merged : c)) : [...list, merged];
}

export function isSuspended(binding: ResourceBinding): boolean {
  return binding.spec.suspension?.scheduling === true;
}

export function bindingPriority(binding: ResourceBinding): number {
  return binding.spec.schedulePriority?.priority ?? 0;
}

export function placedClusters(binding: ResourceBinding): readonly TargetCluster[] {
  return binding.spec.clusters ?? [];
}

export function isPlaced(binding: ResourceBinding): boolean {
  return placedClusters(binding).length > 0;
}

export function bindingNamespace(binding: ResourceBinding): string {
  return binding.metadata.namespace ?? '';
}
