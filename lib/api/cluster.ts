import type { ObjectRef } from './kinds';
import * as z from 'zod';
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
  allocatableModelings: z.array(z.looseObject({})).max(64).optional(),
});

const secretReference = z.strictObject({ namespace: z.string().max(63), name: z.string().max(253) });

/** cluster.karmada.io/v1alpha1 Cluster: a member cluster and what it can hold. */
export const clusterSchema = z.strictObject({
  apiVersion: z.literal('cluster.karmada.io/v1alpha1'),
  kind: z.literal('Cluster'),
  metadata: objectMeta,
  // Karmada's connection fields are accepted so that real Cluster objects load; scheduling reads
  // taints, labels, provider, region, zones, readiness and the resource summary.
  spec: z
    .strictObject({
      taints: z.array(taintSchema).max(256).optional().meta({ description: 'Bindings are placed here only if their placement tolerates every NoSchedule taint.' }),
      provider: z.string().max(253).optional().meta({ description: 'The cloud provider: placement fieldSelector and spreadConstraints by provider read it.' }),
      region: z.string().max(253).optional().meta({ description: 'The region: placement fieldSelector and spreadConstraints by region read it.' }),
      zone: z.string().max(253).optional().meta({ description: 'Deprecated in Karmada for zones; scheduling does not read it.' }),
      zones: z.array(z.string().max(253)).max(64).optional().meta({ description: 'The failure zones: placement fieldSelector and spreadConstraints by zone read them.' }),
      id: z.string().max(253).optional(),
      syncMode: z.enum(['Push', 'Pull']).optional(),
      apiEndpoint: z.string().max(2048).optional(),
      secretRef: secretReference.optional(),
      impersonatorSecretRef: secretReference.optional(),
      insecureSkipTLSVerification: z.boolean().optional(),
      proxyURL: z.string().max(2048).optional(),
      proxyHeader: z.record(z.string().max(253), z.string().max(4096)).optional(),
      resourceModels: z.array(z.looseObject({})).max(64).optional(),
    })
    .optional(),
  status: z
    .strictObject({
      conditions: z.array(condition).max(64).optional(),
      resourceSummary: resourceSummarySchema.optional().meta({ description: 'allocatable: what the cluster offers to bindings; outrank never places more than this.' }),
      kubernetesVersion: z.string().max(64).optional(),
      apiEnablements: z.array(z.looseObject({})).max(1024).optional(),
      nodeSummary: z.strictObject({ totalNum: z.number().int().optional(), readyNum: z.number().int().optional() }).optional(),
      remedyActions: z.array(z.string().max(253)).max(64).optional(),
    })
    .optional(),
}).meta({ description: 'A member cluster: its labels, taints, readiness and allocatable resources are what placement reads.' });
export type Cluster = z.infer<typeof clusterSchema>;

/** A cluster with no Ready condition counts as ready. */
export function isClusterReady(cluster: Cluster): boolean {
  const ready = cluster.status?.conditions?.find((c) => c.type === 'Ready');
  return ready === undefined || ready.status === 'True';
}

/** A member cluster's object reference, by name. */
export function clusterRef(name: string): ObjectRef {
  return { group: 'cluster.karmada.io', kind: 'Cluster', namespace: '', name };
}
