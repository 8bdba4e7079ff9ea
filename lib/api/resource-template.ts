import * as z from 'zod';
import { int32, labels, namespaceName, objectName, quantityMap } from './meta';
import { isPlainObject } from './plain-object';

const containerSchema = z.looseObject({
  name: z.string().max(253).optional(),
  resources: z
    .looseObject({
      requests: quantityMap.optional(),
      limits: quantityMap.optional(),
    })
    .optional(),
});

const podSpecSchema = z.looseObject({
  containers: z.array(containerSchema).max(256).optional(),
  initContainers: z.array(containerSchema).max(256).optional(),
  overhead: quantityMap.optional(),
  priorityClassName: objectName.optional(),
});
export type PodSpec = z.infer<typeof podSpecSchema>;

const podTemplateSchema = z.looseObject({
  metadata: z.looseObject({ labels: labels.optional() }).optional(),
  spec: podSpecSchema.optional(),
});

const templateMetaSchema = z.looseObject({
  name: objectName,
  namespace: namespaceName.optional(),
  labels: labels.optional(),
  annotations: z.record(z.string().max(317), z.string().max(262_144)).optional(),
  resourceVersion: z.string().max(32).optional(),
  generation: z.number().int().nonnegative().optional(),
  uid: z.string().max(64).optional(),
  finalizers: z.array(z.string().max(317)).max(64).optional(),
  deletionTimestamp: z.string().max(64).optional(),
  deletionGracePeriodSeconds: z.number().int().nonnegative().optional(),
});

const replicaCount = int32.pipe(z.number().nonnegative('must not be negative'));

/**
 * A workload resource template: apps/v1 Deployment and StatefulSet, batch/v1 Job, and any other kind
 * with `spec.replicas` and a pod template. Fields outside what scheduling reads are kept as written.
 */
export const resourceTemplateSchema = z
  .looseObject({
    apiVersion: z.string().min(1).max(253),
    kind: z.string().min(1).max(63).regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a Kubernetes kind such as Deployment'),
    metadata: templateMetaSchema,
    spec: z.looseObject({
      replicas: replicaCount.optional(),
      parallelism: replicaCount.optional(),
      template: podTemplateSchema.optional(),
    }),
  })
  .superRefine((template, context) => {
    if (!template.spec.template) {
      context.addIssue({
        code: 'custom',
        path: ['spec', 'template'],
        message: 'is required: a resource template must carry a pod template',
      });
    } else if ((template.spec.template.spec?.containers ?? []).length === 0) {
      // As the Kubernetes API server refuses a pod template without containers.
      context.addIssue({
        code: 'custom',
        path: ['spec', 'template', 'spec', 'containers'],
        message: 'is required: a pod template must have at least one container',
      });
    }
    const isJob = template.kind === 'Job';
    const known = ['Deployment', 'StatefulSet', 'ReplicaSet', 'Job'].includes(template.kind);
    if (!known && !isJob && template.spec.replicas === undefined) {
      context.addIssue({
        code: 'custom',
        path: ['spec', 'replicas'],
        message: `is required for kind ${template.kind}: only workloads with replicas can be scheduled`,
      });
    }
  });
/** A template with replicas and a pod template: its binding places replicas, each needing what a pod requests. */
export type WorkloadTemplate = z.infer<typeof resourceTemplateSchema>;

/**
 * A template of a kind without replicas — a Service, ConfigMap, Secret, Role, Namespace, a
 * CustomResourceDefinition or a custom resource: propagated whole, its binding with no replicas and
 * no request (Karmada's detector gives a kind without a replica interpreter none).
 */
export interface PlainTemplate {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: WorkloadTemplate['metadata'];
  readonly [field: string]: unknown;
}

/** Any resource template a policy can claim. */
export type ResourceTemplate = WorkloadTemplate | PlainTemplate;

const WORKLOAD_KINDS: ReadonlySet<string> = new Set(['apps/Deployment', 'apps/StatefulSet', 'apps/ReplicaSet', 'batch/Job']);

/** spec.replicas and a pod template with containers: the shape any other kind needs to be a workload. */
export function hasWorkloadShape(object: object): boolean {
  const { spec: raw } = object as { readonly spec?: unknown };
  const spec = isPlainObject(raw) ? raw : undefined;
  const pod = spec && isPlainObject(spec.template) && isPlainObject(spec.template.spec) ? spec.template.spec : undefined;
  return typeof spec?.replicas === 'number' && Array.isArray(pod?.containers);
}

/** Deployments, StatefulSets, ReplicaSets and Jobs, and any kind of the workload shape; every other template is plain. */
export function isWorkloadTemplate(template: ResourceTemplate): template is WorkloadTemplate {
  return WORKLOAD_KINDS.has(`${apiGroupOf(template.apiVersion)}/${template.kind}`) || hasWorkloadShape(template);
}

/** Replicas as the workload controller would run them: Job parallelism, else spec.replicas (default 1). */
export function templateReplicas(template: WorkloadTemplate): number {
  if (template.kind === 'Job') return template.spec.parallelism ?? 1;
  return template.spec.replicas ?? 1;
}

/** The pod spec a workload's replicas run; none for a plain template. */
export function templatePodSpec(template: ResourceTemplate): PodSpec {
  return isWorkloadTemplate(template) ? (template.spec.template?.spec ?? {}) : {};
}

export function templatePodLabels(template: ResourceTemplate): Readonly<Record<string, string>> {
  return isWorkloadTemplate(template) ? (template.spec.template?.metadata?.labels ?? {}) : {};
}

export function apiGroupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}
