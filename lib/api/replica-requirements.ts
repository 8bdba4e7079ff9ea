import * as z from 'zod';
import { int32, labelValue, labels, namespaceName, objectName, qualifiedName, quantityMap } from './meta';

/**
 * What each replica of a binding needs, in the shapes of Karmada's work/v1alpha2 ReplicaRequirements and
 * Component (pkg/apis/work/v1alpha2/binding_types.go). outrank writes resourceRequest; the node claim,
 * namespace, priority class and components are Karmada's, accepted so that its bindings read back whole.
 */

const nodeSelectorRequirement = z.strictObject({
  key: z.string().min(1).max(317),
  operator: z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist', 'Gt', 'Lt']),
  values: z.array(z.string().max(317)).max(1024).optional(),
});

const podToleration = z.strictObject({
  key: qualifiedName.optional(),
  operator: z.enum(['Exists', 'Equal', 'Lt', 'Gt', '']).optional(),
  value: labelValue.optional(),
  effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute', '']).optional(),
  tolerationSeconds: z.number().int().optional(),
});

/** Karmada's NodeClaim: the node affinity, node selector and tolerations of the pod template. */
export const nodeClaimSchema = z
  .strictObject({
    hardNodeAffinity: z
      .strictObject({
        nodeSelectorTerms: z
          .array(
            z.strictObject({
              matchExpressions: z.array(nodeSelectorRequirement).max(64).optional(),
              matchFields: z.array(nodeSelectorRequirement).max(64).optional(),
            }),
          )
          .max(64),
      })
      .optional(),
    nodeSelector: labels.optional(),
    tolerations: z.array(podToleration).max(256).optional(),
  })
  .meta({ description: "Karmada's node claim of each replica; not written or read by outrank." });

export const replicaRequirementsSchema = z.strictObject({
  nodeClaim: nodeClaimSchema.optional(),
  resourceRequest: quantityMap.optional().meta({ description: 'What each replica requests; outrank places replicas where this fits.' }),
  namespace: namespaceName.optional().meta({ description: "Karmada's namespace of the replicas; not written or read by outrank." }),
  priorityClassName: objectName.optional().meta({ description: "Karmada's priority class of the pod template; not written or read by outrank." }),
});

/** Karmada's Component: one pod template of a workload made of several (MultiplePodTemplatesScheduling). */
export const componentSchema = z.strictObject({
  name: z.string().min(1).max(32, 'must be no more than 32 characters'),
  replicas: int32,
  replicaRequirements: replicaRequirementsSchema.omit({ namespace: true }).optional(),
});

/** The replicas of each component a cluster runs (TargetComponent). */
export const targetComponentSchema = z.strictObject({
  name: z.string().min(1).max(32),
  replicas: int32,
});
