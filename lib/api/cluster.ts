import type { ObjectRef } from './kinds';
import * as z from 'zod';
import { resourceModelSchema, resourceModelsProblem } from './cluster-resource-models';
import { apiEndpointProblems, proxyUrlProblems } from './cluster-urls';
import { condition, dnsLabelName, int32, labelValue, namespaceName, objectMeta, qualifiedName, quantityMap } from './meta';

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
  allocatableModelings: z
    .array(z.strictObject({ grade: z.number().int().nonnegative(), count: z.number().int().nonnegative() }))
    .max(64)
    .optional()
    .meta({ description: "How many nodes of each resource-model grade Karmada's estimator counted; stored, not read by outrank." }),
});

const STORED = 'Stored as written: outrank does not connect to member clusters.';

const secretReference = z
  .strictObject({ namespace: namespaceName, name: z.string().min(1, 'must not be empty').max(253) })
  .meta({ description: `The Secret that holds the credentials of the cluster. ${STORED}` });

/** Karmada's ValidateClusterName (pkg/apis/cluster/validation/validation.go): a DNS label of at most 48 characters. */
const clusterName = dnsLabelName(48);

const clusterSpecSchema = z
  .strictObject({
    taints: z.array(taintSchema).max(256).optional().meta({ description: 'Bindings are placed here only if their placement tolerates every NoSchedule taint.' }),
    provider: labelValue.optional().meta({ description: 'The cloud provider: placement fieldSelector and spreadConstraints by provider read it.' }),
    region: labelValue.optional().meta({ description: 'The region: placement fieldSelector and spreadConstraints by region read it.' }),
    zone: labelValue.optional().meta({ description: 'Deprecated in Karmada for zones: a write moves it to zones, as Karmada does.' }),
    zones: z.array(labelValue).max(64).optional().meta({ description: 'The failure zones: placement fieldSelector and spreadConstraints by zone read them.' }),
    id: z.string().max(253).optional().meta({ description: `A unique identity of the cluster. ${STORED}` }),
    syncMode: z.enum(['Push', 'Pull']).optional().meta({ description: `Push or Pull: how Karmada reaches the cluster. ${STORED}` }),
    apiEndpoint: z.string().max(2048).optional().meta({ description: `The URL of the cluster's API server. ${STORED}` }),
    secretRef: secretReference.optional(),
    impersonatorSecretRef: secretReference.optional(),
    insecureSkipTLSVerification: z.boolean().optional().meta({ description: STORED }),
    proxyURL: z.string().max(2048).optional().meta({ description: `An http, https or socks5 proxy to reach the cluster through. ${STORED}` }),
    proxyHeader: z.record(z.string().max(253), z.string().max(4096)).optional().meta({ description: `Headers sent to the proxy. ${STORED}` }),
    resourceModels: z
      .array(resourceModelSchema)
      .max(64)
      .optional()
      .meta({ description: "Karmada's grades of node size for its resource estimator; stored as written, not used by outrank." }),
  })
  .superRefine((spec, context) => {
    // Karmada's ValidateClusterSpec rules between fields, with its messages.
    if (spec.zone && spec.zones?.length) context.addIssue({ code: 'custom', path: ['zone'], message: 'Zone and Zones cannot co-exist' });
    if (spec.apiEndpoint) for (const message of apiEndpointProblems(spec.apiEndpoint)) context.addIssue({ code: 'custom', path: ['apiEndpoint'], message });
    if (spec.proxyURL) for (const message of proxyUrlProblems(spec.proxyURL)) context.addIssue({ code: 'custom', path: ['proxyURL'], message });
    const models = spec.resourceModels?.length ? resourceModelsProblem(spec.resourceModels) : undefined;
    if (models) context.addIssue({ code: 'custom', path: ['resourceModels'], message: models });
    const seen = new Set<string>();
    spec.taints?.forEach((taint, index) => {
      const key = `${taint.effect}/${taint.key}`;
      if (seen.has(key)) context.addIssue({ code: 'custom', path: ['taints', index], message: 'taints must be unique by key and effect pair' });
      seen.add(key);
    });
  });

/** cluster.karmada.io/v1alpha1 Cluster: a member cluster and what it can hold. */
export const clusterSchema = z.strictObject({
  apiVersion: z.literal('cluster.karmada.io/v1alpha1'),
  kind: z.literal('Cluster'),
  metadata: objectMeta.extend({ name: clusterName }),
  // Karmada's connection fields are accepted and stored so that real Cluster objects load; scheduling
  // reads taints, labels, provider, region, zones, readiness and the resource summary.
  spec: clusterSpecSchema.optional(),
  status: z
    .strictObject({
      conditions: z.array(condition).max(64).optional(),
      resourceSummary: resourceSummarySchema.optional().meta({ description: 'allocatable: what the cluster offers to bindings; outrank never places more than this.' }),
      kubernetesVersion: z.string().max(64).optional(),
      apiEnablements: z
        .array(
          z.strictObject({
            groupVersion: z.string().max(253),
            resources: z.array(z.strictObject({ name: z.string().max(253), kind: z.string().max(63) })).max(1024).optional(),
          }),
        )
        .max(1024)
        .optional()
        .meta({ description: 'The API resources the cluster serves; stored, not read by outrank.' }),
      nodeSummary: z.strictObject({ totalNum: int32.optional(), readyNum: int32.optional() }).optional(),
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
