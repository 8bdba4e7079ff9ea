import * as z from 'zod';
import { taintEffect } from './cluster';
import { clusterFieldSelectorSchema } from './cluster-field-selector';
import { failoverSchema } from './failover';
import { int32, isQualifiedName, labelSelector, labelValue, namespaceName, objectMeta, objectName, QUALIFIED_NAME_RULE, qualifiedName, templateName } from './meta';
import { checkSpreadConstraints, spreadConstraintSchema } from './spread-constraint';

/** The API group of PropagationPolicy and ClusterPropagationPolicy. */
export const POLICY_GROUP = 'policy.karmada.io';

export const resourceSelectorSchema = z.strictObject({
  apiVersion: z.string().min(1).max(253),
  kind: z.string().min(1).max(63),
  namespace: namespaceName.optional(),
  name: templateName.optional(),
  labelSelector: labelSelector.optional(),
});
export type ResourceSelector = z.infer<typeof resourceSelectorSchema>;

export const clusterAffinitySchema = z.strictObject({
  clusterNames: z.array(objectName).max(1024).optional(),
  exclude: z.array(objectName).max(1024).optional(),
  labelSelector: labelSelector.optional(),
  fieldSelector: clusterFieldSelectorSchema.optional(),
});
export type ClusterAffinity = z.infer<typeof clusterAffinitySchema>;

/** The name of a cluster group: a label key of at most 32 characters (Karmada's CRD and ValidateClusterAffinities). */
const affinityName = z.string().max(32, 'must be no more than 32 characters').refine(isQualifiedName, QUALIFIED_NAME_RULE);

/** Karmada's OverflowClusterAffinity: a group the scheduler may add when the term's own clusters lack room. outrank does not. */
const overflowAffinitySchema = clusterAffinitySchema.extend({ affinityName });

/** Karmada's emptyClusterAffinity (pkg/util/validation/validation.go): no selection criterion at all. */
function isEmptyClusterAffinity(affinity: ClusterAffinity): boolean {
  return !affinity.labelSelector && !affinity.fieldSelector && !affinity.clusterNames?.length && !affinity.exclude?.length;
}

export const clusterAffinityTermSchema = clusterAffinitySchema
  .extend({
    affinityName,
    overflowAffinities: z
      .array(overflowAffinitySchema)
      .max(64)
      .optional()
      .meta({
        description:
          "Karmada's overflow groups, added in order when the term's clusters lack room; kept and carried to the binding's placement for whatever propagates placements: outrank does not act on them.",
      }),
  })
  .superRefine((term, context) => {
    // Karmada's ValidateOverflowAffinities, with its messages.
    if (!term.overflowAffinities) return;
    if (isEmptyClusterAffinity(term)) {
      context.addIssue({ code: 'custom', path: ['overflowAffinities'], message: 'overflowAffinities can only be used together with the inline ClusterAffinity' });
    }
    const names = new Set([term.affinityName]);
    term.overflowAffinities.forEach((overflow, index) => {
      if (names.has(overflow.affinityName)) {
        context.addIssue({
          code: 'custom',
          path: ['overflowAffinities', index, 'affinityName'],
          message: "overflow affinity name must be unique and must not duplicate the primary group's affinityName",
        });
      }
      names.add(overflow.affinityName);
    });
  });
export type ClusterAffinityTerm = z.infer<typeof clusterAffinityTermSchema>;

/** Karmada's WorkloadAffinity: co-location (affinity) or separation (antiAffinity) of workloads grouped by a label of their templates. */
export const workloadAffinitySchema = z
  .strictObject({
    affinity: z.strictObject({ groupByLabelKey: qualifiedName }).optional(),
    antiAffinity: z.strictObject({ groupByLabelKey: qualifiedName }).optional(),
  })
  .superRefine((affinity, context) => {
    if (affinity.affinity && affinity.antiAffinity && affinity.affinity.groupByLabelKey === affinity.antiAffinity.groupByLabelKey) {
      context.addIssue({ code: 'custom', path: [], message: 'affinity and antiAffinity must not use the same groupByLabelKey' });
    }
  })
  .meta({
    description:
      "Karmada's inter-workload affinity and anti-affinity, kept and carried to the binding's placement for whatever propagates placements: outrank does not act on it.",
  });

export const tolerationSchema = z
  .strictObject({
    key: qualifiedName.optional(),
    // Karmada's validateClusterTolerations: Lt and Gt compare node values, not cluster taints; "" is Equal.
    operator: z
      .enum(['Exists', 'Equal', ''], { error: (issue) => `Unsupported value: ${JSON.stringify(issue.input)}: supported values: "", "Exists", "Equal"` })
      .optional(),
    value: labelValue.optional(),
    effect: z.union([taintEffect, z.literal('')]).optional(),
    tolerationSeconds: z.number().int().optional(),
  })
  .superRefine((toleration, context) => {
    if (toleration.operator === 'Exists' && toleration.value) {
      context.addIssue({ code: 'custom', path: ['value'], message: 'must be empty when operator is Exists' });
    }
    if (!toleration.key && toleration.operator !== 'Exists') {
      context.addIssue({ code: 'custom', path: ['operator'], message: 'must be Exists when key is empty' });
    }
  });
export type Toleration = z.infer<typeof tolerationSchema>;

export const staticClusterWeightSchema = z.strictObject({
  targetCluster: clusterAffinitySchema,
  weight: z.number().int('must be an integer').min(1, 'must be at least 1').max(2_147_483_647),
});
export type StaticClusterWeight = z.infer<typeof staticClusterWeightSchema>;

export const replicaSchedulingSchema = z
  .strictObject({
    replicaSchedulingType: z.enum(['Duplicated', 'Divided']).optional(),
    replicaDivisionPreference: z.enum(['Aggregated', 'Weighted']).optional(),
    weightPreference: z
      .strictObject({
        staticWeightList: z.array(staticClusterWeightSchema).max(1024).optional(),
        dynamicWeight: z.literal('AvailableReplicas').optional(),
      })
      .superRefine((preference, context) => {
        if (preference.dynamicWeight && preference.staticWeightList?.length) {
          context.addIssue({
            code: 'custom',
            path: ['dynamicWeight'],
            message: 'must not be set together with staticWeightList',
          });
        }
      })
      .optional(),
  });
export type ReplicaSchedulingStrategy = z.infer<typeof replicaSchedulingSchema>;

/**
 * Karmada's IsOverflowSchedulingAllowed (pkg/util/policy.go), after its CRD default (a replicaScheduling
 * without type is Divided): overflow groups only where replicas are Aggregated or weighed by AvailableReplicas.
 */
function allowsOverflow(scheduling: ReplicaSchedulingStrategy | undefined): boolean {
  if (!scheduling || (scheduling.replicaSchedulingType ?? 'Divided') !== 'Divided') return false;
  if (scheduling.replicaDivisionPreference === 'Aggregated') return true;
  return scheduling.replicaDivisionPreference === 'Weighted' && scheduling.weightPreference?.dynamicWeight !== undefined;
}

export const placementSchema = z
  .strictObject({
    clusterAffinity: clusterAffinitySchema.optional(),
    clusterAffinities: z.array(clusterAffinityTermSchema).max(64).optional(),
    clusterTolerations: z.array(tolerationSchema).max(256).optional(),
    spreadConstraints: z.array(spreadConstraintSchema).max(64).optional(),
    replicaScheduling: replicaSchedulingSchema.optional(),
    workloadAffinity: workloadAffinitySchema.optional(),
  })
  .superRefine((placement, context) => {
    if (placement.spreadConstraints) checkSpreadConstraints(placement.spreadConstraints, context, ['spreadConstraints']);
    placement.clusterAffinities?.forEach((term, index) => {
      if (term.overflowAffinities && !allowsOverflow(placement.replicaScheduling)) {
        context.addIssue({
          code: 'custom',
          path: ['clusterAffinities', index, 'overflowAffinities'],
          message: 'overflowAffinities can only be used together with dynamic weight or aggregated scheduling',
        });
      }
    });
    // Ordered cluster-affinity groups (004): clusterAffinities cannot co-exist with clusterAffinity, names are unique.
    if (placement.clusterAffinity && placement.clusterAffinities) {
      context.addIssue({
        code: 'custom',
        path: ['clusterAffinities'],
        message: 'must not be set together with clusterAffinity',
      });
    }
    const seen = new Set<string>();
    placement.clusterAffinities?.forEach((term, index) => {
      if (seen.has(term.affinityName)) {
        context.addIssue({
          code: 'custom',
          path: ['clusterAffinities', index, 'affinityName'],
          message: `must be unique: "${term.affinityName}" is used by an earlier term`,
        });
      }
      seen.add(term.affinityName);
    });
  });
export type Placement = z.infer<typeof placementSchema>;

export const schedulePrioritySchema = z
  .strictObject({
    priorityClassSource: z.enum(['KubePriorityClass', 'PodPriorityClass', 'FederatedPriorityClass']).optional(),
    priorityClassName: objectName.optional(),
  })
  .superRefine((priority, context) => {
    // Binding priority and preemption (000): FederatedPriorityClass is only a design extension.
    if (priority.priorityClassSource === 'FederatedPriorityClass') {
      context.addIssue({
        code: 'custom',
        path: ['priorityClassSource'],
        message: 'FederatedPriorityClass is not supported; use KubePriorityClass or PodPriorityClass',
      });
    }
    if (priority.priorityClassSource === 'PodPriorityClass' && priority.priorityClassName) {
      context.addIssue({
        code: 'custom',
        path: ['priorityClassName'],
        message: 'must be omitted when priorityClassSource is PodPriorityClass (the pod template names the class)',
      });
    }
  });
export type SchedulePriority = z.infer<typeof schedulePrioritySchema>;

export const preemptibility = z.enum(['preemptible', 'non-preemptible']);
export type Preemptibility = z.infer<typeof preemptibility>;

/**
 * Karmada's Suspension: dispatching (to every cluster) or dispatchingOnClusters (to those named), which
 * outrank keeps and carries to the binding for whatever propagates placements; and scheduling
 * (scheduling suspension (003)), which outrank acts on.
 */
export const suspensionSchema = z
  .strictObject({
    dispatching: z.boolean().optional().meta({ description: "Karmada's dispatching suspension to every cluster; carried to the binding, not acted on by outrank." }),
    dispatchingOnClusters: z
      .strictObject({ clusterNames: z.array(objectName).max(1024).optional() })
      .optional()
      .meta({ description: "Karmada's dispatching suspension to the clusters named; carried to the binding, not acted on by outrank." }),
    scheduling: z.boolean().optional().meta({ description: 'Scheduling suspension (003): while true, the binding waits unscheduled.' }),
  })
  .superRefine((suspension, context) => {
    // Karmada's validateSuspension (pkg/util/validation/validation.go), with its message.
    if (suspension.dispatching === true && (suspension.dispatchingOnClusters?.clusterNames?.length ?? 0) > 0) {
      context.addIssue({ code: 'custom', path: [], message: 'suspension dispatching cannot co-exist with dispatchingOnClusters.clusterNames' });
    }
  });
export type Suspension = z.infer<typeof suspensionSchema>;

const propagationSpecSchema = z.strictObject({
  resourceSelectors: z
    .array(resourceSelectorSchema)
    .min(1, 'must select at least one resource')
    .max(256)
    .meta({ description: 'The resource templates this policy propagates, by apiVersion and kind and by name, namespace or labels.' }),
  priority: int32.optional().meta({
    description: 'Policy priority and preemption (002): of the policies selecting a template, the highest claims it; default 0.',
  }),
  preemption: z.enum(['Always', 'Never']).optional().meta({
    description: 'Policy priority and preemption (002): Always lets this policy take templates a lower-priority policy claimed; Never (default) does not.',
  }),
  schedulePriority: schedulePrioritySchema.optional().meta({
    description: 'Binding priority and preemption (000): where the priority of the bindings this policy makes comes from: a PriorityClass named here (KubePriorityClass) or the one the pod template names (PodPriorityClass).',
  }),
  preemptibility: z
    .string()
    .max(64)
    .pipe(
      z.enum(['preemptible', 'non-preemptible'], {
        message: 'must be "preemptible" or "non-preemptible" (semi-preemptible is not supported)',
      }),
    )
    .optional()
    .meta({ description: 'Preemptibility separate from priority (001): non-preemptible bindings are never chosen as victims; default preemptible.' }),
  suspension: suspensionSchema.optional().meta({
    description:
      "Scheduling suspension (003): while scheduling is true, the bindings of this policy wait unscheduled. Karmada's dispatching and dispatchingOnClusters are carried to the bindings, not acted on.",
  }),
  placement: placementSchema.optional().meta({
    description: 'Where the bindings go: cluster affinity, or ordered cluster-affinity groups (004) tried in turn, tolerations, spread constraints and how replicas are divided.',
  }),
  propagateDeps: z.boolean().optional().meta({
    description: "Karmada's propagation of the resources the template refers to (ConfigMaps, Secrets…) along with it; carried to the binding's spec.propagateDeps for whatever propagates placements, not acted on by outrank.",
  }),
  association: z.boolean().optional().meta({ description: "Karmada's deprecated forerunner of propagateDeps; kept on the policy, not acted on." }),
  conflictResolution: z.enum(['Abort', 'Overwrite']).optional().meta({
    description: "What a member cluster that already has the resource does: Abort (Karmada's default) or Overwrite; carried to the binding's spec.conflictResolution, not acted on by outrank.",
  }),
  failover: failoverSchema.optional(),
  preserveResourcesOnDeletion: z.boolean().optional().meta({
    description: "Whether the propagated resources stay on the member clusters when the template is deleted; carried to the binding's spec.preserveResourcesOnDeletion, not acted on by outrank.",
  }),
  dependentOverrides: z.array(objectName).max(256).optional().meta({
    description: "OverridePolicies that Karmada waits for before applying this policy; kept on the policy, not acted on by outrank.",
  }),
  activationPreference: z.enum(['Lazy']).optional().meta({
    description: "Lazy: Karmada applies policy changes to a template only when the template next changes; kept on the policy, not acted on by outrank (changes apply at once).",
  }),
  schedulerName: z.string().max(253).optional(),
});
export type PropagationSpec = z.infer<typeof propagationSpecSchema>;

/** Karmada's ValidatePropagationSpec rule between fields: application failover moves the dependencies too. */
function checkFailoverDependencies(spec: PropagationSpec, context: z.RefinementCtx): void {
  if (spec.failover?.application && spec.propagateDeps !== true) {
    context.addIssue({ code: 'custom', path: ['spec', 'propagateDeps'], message: 'application failover is set, propagateDeps must be true' });
  }
}

/** Kinds whose objects always live in a namespace, for selectors that must name them precisely. */
export const NAMESPACED_TEMPLATE_KINDS: ReadonlySet<string> = new Set([
  'Deployment',
  'StatefulSet',
  'ReplicaSet',
  'DaemonSet',
  'Job',
  'CronJob',
  'Pod',
]);

function checkPreemptionSelectors(
  spec: PropagationSpec,
  clusterScoped: boolean,
  context: z.RefinementCtx,
): void {
  if (spec.preemption !== 'Always') return;
  // Policy priority and preemption (002), "Clarify the scope of preemption": a preempting policy names its resources.
  spec.resourceSelectors.forEach((selector, index) => {
    if (!selector.name) {
      context.addIssue({
        code: 'custom',
        path: ['spec', 'resourceSelectors', index, 'name'],
        message: 'must be set when preemption is Always',
      });
    }
    if (clusterScoped && NAMESPACED_TEMPLATE_KINDS.has(selector.kind) && !selector.namespace) {
      context.addIssue({
        code: 'custom',
        path: ['spec', 'resourceSelectors', index, 'namespace'],
        message: `must be set for the namespaced kind ${selector.kind} when preemption is Always`,
      });
    }
  });
}

export const propagationPolicySchema = z
  .strictObject({
    apiVersion: z.literal('policy.karmada.io/v1alpha1'),
    kind: z.literal('PropagationPolicy'),
    metadata: objectMeta,
    spec: propagationSpecSchema,
  })
  .meta({ description: 'Propagates the resource templates of its namespace that it selects to member clusters, with a priority for its bindings.' })
  .superRefine((policy, context) => {
    checkPreemptionSelectors(policy.spec, false, context);
    checkFailoverDependencies(policy.spec, context);
    policy.spec.resourceSelectors.forEach((selector, index) => {
      if (selector.namespace && policy.metadata.namespace && selector.namespace !== policy.metadata.namespace) {
        context.addIssue({
          code: 'custom',
          path: ['spec', 'resourceSelectors', index, 'namespace'],
          message: `must be empty or the policy's own namespace "${policy.metadata.namespace}"`,
        });
      }
    });
  });
export type PropagationPolicy = z.infer<typeof propagationPolicySchema>;

export const clusterPropagationPolicySchema = z
  .strictObject({
    apiVersion: z.literal('policy.karmada.io/v1alpha1'),
    kind: z.literal('ClusterPropagationPolicy'),
    metadata: objectMeta,
    spec: propagationSpecSchema,
  })
  .meta({ description: 'Propagates the resource templates of any namespace that it selects to member clusters; a PropagationPolicy selecting the same template takes precedence.' })
  .superRefine((policy, context) => {
    checkPreemptionSelectors(policy.spec, true, context);
    checkFailoverDependencies(policy.spec, context);
  });
export type ClusterPropagationPolicy = z.infer<typeof clusterPropagationPolicySchema>;

export type AnyPropagationPolicy = PropagationPolicy | ClusterPropagationPolicy;
