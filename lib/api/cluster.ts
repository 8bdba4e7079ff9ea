import { z } from 'zod';
import { condition, labelValue, objectMeta, qualifiedName, quantityMap } from './meta';

export const taintEffect = z.enum(['NoSchedule', 'NoExecute', 'PreferNoSchedule']);

export const taintSchema = z.strictObject({
  key: qualifiedName,
  value: labelValue.optional(),
  effect: taintEffect,
  timeAdded: z.string().max(64).optional(),
});
export type Taint = z.infer<typeof taintSchema>;

export const resourceSummarySchema = z.strictObject({
  allocatable: quantityMap.optional(),
  allocated: quantityMap.optional(),
  allocating: quantityMap.optional(),
});

/** cluster.karmada.io/v1alpha1 Cluster: a member cluster and what it can hold. */
export const clusterSchema = z.strictObject({
  apiVersion: z.literal('cluster.karmada.io/v1alpha1'),
  kind: z.literal('Cluster'),
  metadata: objectMeta,
  spec: z
    .strictObject({
      taints: z.array(taintSchema).max(256).optional(),
      provider: z.string().max(253).optional(),
      region: z.string().max(253).optional(),
      zone: z.string().max(253).optional(),
    })
    .optional(),
  status: z
    .strictObject({
      conditions: z.array(condition).max(64).optional(),
      resourceSummary: resourceSummarySchema.optional(),
    })
    .optional(),
});
export type Cluster = z.infer<typeof clusterSchema>;

/** A cluster with no Ready condition counts as ready. */
export function isClusterReady(cluster: Cluster): boolean {
  const ready = cluster.status?.conditions?.find((c) => c.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}
