import * as z from 'zod';
import { annotations, int32, labels, namespaceName, objectName, quantityMap } from './meta';

/**
 * The shapes of the Kubernetes workload kinds outrank propagates (apps/v1 Deployment, StatefulSet and
 * ReplicaSet, batch/v1 Job), as of Kubernetes 1.32: every field each level may have is named, so an
 * unknown field (a typo such as `resources.requets`, which would reserve nothing) is found where it
 * is written. Subtrees scheduling does not read (probes, volumes, affinity …) keep their values as
 * written; only their field names are checked at the levels listed here.
 */

/** A field kept as written; the extension tells kubectl explain it is an object of any shape. */
export const anyValue = z.unknown().meta({ description: 'Kept as written: outrank does not read it.', 'x-kubernetes-preserve-unknown-fields': true });

export function fieldsOf(names: readonly string[]): Record<string, z.ZodOptional<z.ZodUnknown>> {
  return Object.fromEntries(names.map((name) => [name, anyValue.optional()]));
}

const replicaCount = int32.pipe(z.number().nonnegative('must not be negative'));

/** metav1.ObjectMeta: what a workload and its pod template may carry. */
const objectMetaFields = {
  ...fieldsOf(['generateName', 'selfLink', 'uid', 'creationTimestamp', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences', 'finalizers', 'managedFields']),
  namespace: namespaceName.optional(),
  labels: labels.optional(),
  annotations: annotations.optional(),
  resourceVersion: z.string().max(32).optional(),
  generation: z.number().int().nonnegative().optional(),
};

/** metav1.ObjectMeta with the rule its kind has for names (a DNS subdomain for most kinds). */
export function objectMetaWith(name: z.ZodType<string>) {
  return z.strictObject({ ...objectMetaFields, name }).meta({ description: 'Standard object metadata: name, namespace, labels and annotations.' });
}

export const workloadMetaSchema = objectMetaWith(objectName);

/** core/v1 ResourceRequirements: what a container reserves. */
const resourceRequirementsSchema = z
  .strictObject({
    requests: quantityMap.optional().meta({ description: 'The least of each resource the container needs; outrank places replicas by these.' }),
    limits: quantityMap.optional().meta({ description: 'The most of each resource the container may use; requests default to these.' }),
    claims: anyValue.optional(),
  })
  .meta({ description: 'Compute resources a container requests and is limited to.' });

const CONTAINER_FIELDS = [
  'image', 'command', 'args', 'workingDir', 'ports', 'envFrom', 'env', 'resizePolicy', 'restartPolicy', 'volumeMounts',
  'volumeDevices', 'livenessProbe', 'readinessProbe', 'startupProbe', 'lifecycle', 'terminationMessagePath',
  'terminationMessagePolicy', 'imagePullPolicy', 'securityContext', 'stdin', 'stdinOnce', 'tty',
] as const;

/** core/v1 Container. */
const containerSchema = z.strictObject({
  ...fieldsOf(CONTAINER_FIELDS),
  name: z.string().max(253).optional().meta({ description: 'Name of the container, unique within the pod.' }),
  resources: resourceRequirementsSchema.optional(),
});

const POD_SPEC_FIELDS = [
  'volumes', 'ephemeralContainers', 'restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'dnsPolicy',
  'nodeSelector', 'serviceAccountName', 'serviceAccount', 'automountServiceAccountToken', 'nodeName', 'hostNetwork', 'hostPID',
  'hostIPC', 'shareProcessNamespace', 'securityContext', 'imagePullSecrets', 'hostname', 'subdomain', 'affinity', 'schedulerName',
  'tolerations', 'hostAliases', 'priority', 'dnsConfig', 'readinessGates', 'runtimeClassName', 'enableServiceLinks',
  'preemptionPolicy', 'topologySpreadConstraints', 'setHostnameAsFQDN', 'os', 'hostUsers', 'schedulingGates', 'resourceClaims',
  'resources',
] as const;

/** A required field's message when it is missing, zod's own when it has the wrong type. */
function whenMissing(message: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? message : undefined) };
}

const NO_CONTAINERS = 'is required: a pod template must have at least one container';

/** Lists of containers merge by name under a strategic merge patch, as in Kubernetes. */
function containerList(description: string) {
  return z
    .array(containerSchema, whenMissing(NO_CONTAINERS))
    .max(256)
    .meta({
      description,
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
}

/** core/v1 PodSpec. */
const podSpecSchema = z.strictObject(
  {
    ...fieldsOf(POD_SPEC_FIELDS),
    containers: containerList('The containers of each pod; a pod needs the sum of their requests.').min(1, NO_CONTAINERS),
    initContainers: containerList('Containers run one after another before the others; a pod needs the largest of their requests.').optional(),
    overhead: quantityMap.optional().meta({ description: 'Resources the pod needs on top of its containers (its runtime class).' }),
    priorityClassName: objectName
      .optional()
      .meta({ description: 'The PriorityClass of the pods; a policy with priorityClassSource PodPriorityClass takes the binding priority from it.' }),
  },
  whenMissing(NO_CONTAINERS),
);

/** core/v1 PodTemplateSpec. */
const podTemplateSchema = z
  .strictObject(
    {
      metadata: z.strictObject({ ...objectMetaFields, name: z.string().max(253).optional() }).optional(),
      spec: podSpecSchema,
    },
    whenMissing('is required: a resource template must carry a pod template'),
  )
  .meta({ description: 'The pods each replica runs: what a replica needs on a member cluster.' });

const replicas = replicaCount.optional().meta({ description: 'Number of pods wanted (default 1); outrank divides them among member clusters.' });

const DEPLOYMENT_SPEC_FIELDS = ['selector', 'strategy', 'minReadySeconds', 'revisionHistoryLimit', 'paused', 'progressDeadlineSeconds'] as const;
const STATEFUL_SET_SPEC_FIELDS = [
  'selector', 'volumeClaimTemplates', 'serviceName', 'podManagementPolicy', 'updateStrategy', 'revisionHistoryLimit', 'minReadySeconds',
  'persistentVolumeClaimRetentionPolicy', 'ordinals',
] as const;
const REPLICA_SET_SPEC_FIELDS = ['selector', 'minReadySeconds'] as const;
const JOB_SPEC_FIELDS = [
  'completions', 'activeDeadlineSeconds', 'podFailurePolicy', 'successPolicy', 'backoffLimit', 'backoffLimitPerIndex', 'maxFailedIndexes',
  'selector', 'manualSelector', 'ttlSecondsAfterFinished', 'completionMode', 'suspend', 'podReplacementPolicy', 'managedBy',
] as const;

function workload<const Fields extends readonly string[]>(apiVersion: string, kind: string, specFields: Fields, counts: z.ZodRawShape, description: string) {
  return z
    .strictObject({
      apiVersion: z.literal(apiVersion),
      kind: z.literal(kind),
      metadata: workloadMetaSchema,
      spec: z.strictObject({ ...fieldsOf(specFields), ...counts, template: podTemplateSchema }),
      // Written by the workload's controller on a member cluster; kept as exported, never read.
      status: anyValue.optional(),
    })
    .meta({ description });
}

export const deploymentSchema = workload('apps/v1', 'Deployment', DEPLOYMENT_SPEC_FIELDS, { replicas }, 'A Deployment to propagate to member clusters: a resource template.');
export const statefulSetSchema = workload('apps/v1', 'StatefulSet', STATEFUL_SET_SPEC_FIELDS, { replicas }, 'A StatefulSet to propagate to member clusters: a resource template.');
export const replicaSetSchema = workload('apps/v1', 'ReplicaSet', REPLICA_SET_SPEC_FIELDS, { replicas }, 'A ReplicaSet to propagate to member clusters: a resource template.');
export const jobSchema = workload('batch/v1', 'Job', JOB_SPEC_FIELDS, {
  parallelism: replicaCount.optional().meta({ description: 'Pods run at once (default 1): the replicas outrank places.' }),
}, 'A Job to propagate to member clusters: a resource template.');

/** The schema of each workload kind whose shape outrank knows, by "apiVersion kind". */
export const WORKLOAD_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'apps/v1 Deployment': deploymentSchema,
  'apps/v1 StatefulSet': statefulSetSchema,
  'apps/v1 ReplicaSet': replicaSetSchema,
  'batch/v1 Job': jobSchema,
};
