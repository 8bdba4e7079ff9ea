import * as z from 'zod';
import { keptFields } from './kept-fields';
import { matchesLabelSelector } from './label-selector';
import { annotations, int32, labels, labelSelector, namespaceName, objectName, quantityMap, type LabelSelector } from './meta';

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
  ...keptFields({
    generateName: ['string', 'A prefix the server makes the name from, when no name is given: the prefix and five random characters.'],
    selfLink: ['string', 'Deprecated; not set.'],
    uid: ['string', 'The unique id the server gives the object when it is created.'],
    creationTimestamp: ['time', 'When the object was created (RFC 3339), set by the server.'],
    deletionTimestamp: ['string', 'When the object was asked to be deleted, set by the server while finalizers hold it.'],
    deletionGracePeriodSeconds: ['int64', 'Seconds allowed for the object to go once deleted; 0 here.'],
    ownerReferences: ['objects', 'The objects this one depends on: it goes with its controller.'],
    finalizers: ['strings', 'Names of what must finish before the object is deleted: a deletion waits until they are all removed.'],
    managedFields: ['objects', 'Which field manager owns which fields, for server-side apply.'],
  }),
  namespace: namespaceName.optional().meta({ description: 'The namespace the object is in.' }),
  labels: labels.optional().meta({ description: 'Key-value pairs that selectors (policies, workloads) match.' }),
  annotations: annotations.optional().meta({ description: 'Key-value pairs tools keep on the object; not selected on.' }),
  resourceVersion: z.string().max(32).optional().meta({ description: 'The version of the object as stored: a write naming it fails if the object changed since.' }),
  generation: z.number().int().nonnegative().optional().meta({ description: 'Counts the changes of the spec, set by the server.' }),
};

/** metav1.ObjectMeta with the rule its kind has for names (a DNS subdomain for most kinds). */
export function objectMetaWith(name: z.ZodType<string>) {
  return z.strictObject({ ...objectMetaFields, name: name.meta({ description: 'The name of the object, unique within its namespace and kind.' }) }).meta({ description: 'Standard object metadata: name, namespace, labels and annotations.' });
}

export const workloadMetaSchema = objectMetaWith(objectName);

/** core/v1 ResourceRequirements: what a container reserves. */
const resourceRequirementsSchema = z
  .strictObject({
    requests: quantityMap.optional().meta({ description: 'The least of each resource the container needs; outrank places replicas by these.' }),
    limits: quantityMap.optional().meta({ description: 'The most of each resource the container may use; requests default to these.' }),
    ...keptFields({ claims: ['objects', 'Dynamic resource claims of the pod the container uses.'] }),
  })
  .meta({ description: 'Compute resources a container requests and is limited to.' });

const CONTAINER_FIELDS = keptFields({
  image: ['string', 'The container image to run.'],
  command: ['strings', "The entrypoint, instead of the image's."],
  args: ['strings', "Arguments to the entrypoint, instead of the image's."],
  workingDir: ['string', "The container's working directory."],
  ports: ['objects', 'Ports the container exposes.'],
  envFrom: ['objects', 'ConfigMaps and Secrets whose keys become environment variables.'],
  env: ['objects', 'Environment variables to set in the container.'],
  resizePolicy: ['objects', 'How each resource of the container is resized in place.'],
  restartPolicy: ['string', 'Always for an init container that keeps running beside the others (a sidecar).'],
  volumeMounts: ['objects', "Volumes of the pod mounted into the container's filesystem."],
  volumeDevices: ['objects', 'Block devices of the pod the container uses.'],
  livenessProbe: ['object', 'How the kubelet finds that the container must be restarted.'],
  readinessProbe: ['object', 'How the kubelet finds that the container may receive traffic.'],
  startupProbe: ['object', 'How the kubelet finds that the container has started.'],
  lifecycle: ['object', 'Actions run after the container starts and before it stops.'],
  terminationMessagePath: ['string', 'The file whose content is the termination message.'],
  terminationMessagePolicy: ['string', 'Where the termination message comes from: File, or FallbackToLogsOnError.'],
  imagePullPolicy: ['string', 'When the image is pulled: Always, Never or IfNotPresent.'],
  securityContext: ['object', 'Security options the container runs with.'],
  stdin: ['boolean', 'Whether the container has a stdin buffer.'],
  stdinOnce: ['boolean', 'Whether stdin closes after the first attach.'],
  tty: ['boolean', 'Whether the container has a TTY.'],
});

/** core/v1 Container. */
const containerSchema = z.strictObject({
  ...CONTAINER_FIELDS,
  name: z.string().max(253).optional().meta({ description: 'Name of the container, unique within the pod.' }),
  resources: resourceRequirementsSchema.optional(),
});

const POD_SPEC_FIELDS = keptFields({
  volumes: ['objects', "Volumes the pod's containers may mount."],
  ephemeralContainers: ['objects', 'Containers added to a running pod for debugging.'],
  restartPolicy: ['string', 'When containers are restarted: Always, OnFailure or Never.'],
  terminationGracePeriodSeconds: ['int64', 'Seconds the pod is given to stop before it is killed.'],
  activeDeadlineSeconds: ['int64', 'Seconds the pod may run before it is stopped.'],
  dnsPolicy: ['string', 'How the pod resolves names: ClusterFirst, ClusterFirstWithHostNet, Default or None.'],
  nodeSelector: ['map', "Labels a node must have to run the pod (on the member cluster; outrank's placement is the policy's)."],
  serviceAccountName: ['string', 'The ServiceAccount the pod runs as.'],
  serviceAccount: ['string', 'Deprecated: serviceAccountName.'],
  automountServiceAccountToken: ['boolean', "Whether the service account's token is mounted."],
  nodeName: ['string', 'The node to run the pod on, bypassing the scheduler of the member cluster.'],
  hostNetwork: ['boolean', "Whether the pod uses the node's network namespace."],
  hostPID: ['boolean', "Whether the pod uses the node's process namespace."],
  hostIPC: ['boolean', "Whether the pod uses the node's IPC namespace."],
  shareProcessNamespace: ['boolean', "Whether the pod's containers share one process namespace."],
  securityContext: ['object', 'Security options every container of the pod runs with.'],
  imagePullSecrets: ['objects', 'Secrets holding the credentials to pull the images.'],
  hostname: ['string', "The pod's hostname."],
  subdomain: ['string', "The pod's subdomain: its name is <hostname>.<subdomain>.<namespace>.svc."],
  affinity: ['object', 'Node and pod affinity on the member cluster.'],
  schedulerName: ['string', 'The scheduler of the member cluster that places the pod.'],
  tolerations: ['objects', "Node taints the pod tolerates (on the member cluster; a cluster's taints are the policy's)."],
  hostAliases: ['objects', "Entries added to the pod's /etc/hosts."],
  priority: ['integer', 'The priority value, set from priorityClassName by the member cluster.'],
  dnsConfig: ['object', 'DNS options added to those dnsPolicy gives.'],
  readinessGates: ['objects', 'Conditions that must hold for the pod to be ready.'],
  runtimeClassName: ['string', 'The RuntimeClass the pod runs with.'],
  enableServiceLinks: ['boolean', 'Whether Services are told to the pod as environment variables.'],
  preemptionPolicy: ['string', "Whether the pod preempts others on the member cluster: PreemptLowerPriority or Never (outrank's preemption is the binding's)."],
  topologySpreadConstraints: ['objects', 'How the pods spread across the topology of the member cluster.'],
  setHostnameAsFQDN: ['boolean', "Whether the pod's hostname is its fully qualified domain name."],
  os: ['object', 'The operating system the pod needs.'],
  hostUsers: ['boolean', "Whether the pod uses the node's user namespace."],
  schedulingGates: ['objects', 'Gates that hold the pod from being scheduled on the member cluster.'],
  resourceClaims: ['objects', 'Dynamic resource claims the pod uses.'],
  resources: ['object', 'Resources of the pod as a whole.'],
});

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
    ...POD_SPEC_FIELDS,
    containers: containerList('The containers of each pod; a pod needs the sum of their requests.').min(1, NO_CONTAINERS),
    initContainers: containerList('Containers run one after another before the others; a pod needs the largest of their requests.').optional(),
    overhead: quantityMap.optional().meta({ description: 'Resources the pod needs on top of its containers (its runtime class).' }),
    priorityClassName: objectName
      .optional()
      .meta({ description: 'The PriorityClass of the pods; a policy with priorityClassSource PodPriorityClass takes the binding priority from it.' }),
  },
  whenMissing(NO_CONTAINERS),
).meta({ description: 'What each pod runs: its containers and what they need.' });

/** core/v1 PodTemplateSpec. */
const podTemplateSchema = z
  .strictObject(
    {
      metadata: z
        .strictObject({ ...objectMetaFields, name: z.string().max(253).optional().meta({ description: 'Not used: pods are named by their controller.' }) })
        .optional()
        .meta({ description: 'Labels and annotations each pod gets.' }),
      spec: podSpecSchema,
    },
    whenMissing('is required: a resource template must carry a pod template'),
  )
  .meta({ description: 'The pods each replica runs: what a replica needs on a member cluster.' });

const replicas = replicaCount.optional().meta({ description: 'Number of pods wanted (default 1); outrank divides them among member clusters.' });

const MIN_READY = ['integer', 'Seconds a new pod must be ready, none of its containers crashing, to count as available (default 0).'] as const;
const HISTORY = ['integer', 'How many old revisions are kept for rollback (default 10).'] as const;

const DEPLOYMENT_SPEC_FIELDS = keptFields({
  strategy: ['object', 'How pods are replaced by new ones: RollingUpdate (the default) or Recreate.'],
  minReadySeconds: MIN_READY,
  revisionHistoryLimit: HISTORY,
  paused: ['boolean', 'Whether rollouts are paused.'],
  progressDeadlineSeconds: ['integer', 'Seconds a rollout may make no progress before it is reported failed (default 600).'],
});
const STATEFUL_SET_SPEC_FIELDS = keptFields({
  volumeClaimTemplates: ['objects', 'Claims each pod gets a volume of its own from.'],
  serviceName: ['string', "The headless Service that gives the pods' network identity."],
  podManagementPolicy: ['string', 'How pods are created and deleted: OrderedReady (the default) or Parallel.'],
  updateStrategy: ['object', 'How pods are replaced by new ones: RollingUpdate (the default) or OnDelete.'],
  revisionHistoryLimit: HISTORY,
  minReadySeconds: MIN_READY,
  persistentVolumeClaimRetentionPolicy: ['object', 'Whether the claims of volumeClaimTemplates are deleted with the set or when it scales down.'],
  ordinals: ['object', 'The numbers the pods are given (from start, default 0).'],
});
const REPLICA_SET_SPEC_FIELDS = keptFields({ minReadySeconds: MIN_READY });
const JOB_SPEC_FIELDS = keptFields({
  completions: ['integer', 'How many pods must succeed for the Job to complete.'],
  activeDeadlineSeconds: ['int64', 'Seconds the Job may run before it is failed.'],
  podFailurePolicy: ['object', 'How failed pods count towards the backoff limit.'],
  successPolicy: ['object', 'When an Indexed Job is declared succeeded.'],
  backoffLimit: ['integer', 'How many retries before the Job is failed (default 6).'],
  backoffLimitPerIndex: ['integer', 'How many retries each index of an Indexed Job has.'],
  maxFailedIndexes: ['integer', 'How many indexes of an Indexed Job may fail before the Job does.'],
  selector: ['object', 'A label query over the pods; made by the server unless manualSelector is true.'],
  manualSelector: ['boolean', 'Whether the selector is given rather than made by the server.'],
  ttlSecondsAfterFinished: ['integer', 'Seconds a finished Job is kept before it is deleted.'],
  completionMode: ['string', 'NonIndexed (the default) or Indexed: whether each pod gets an index.'],
  suspend: ['boolean', 'Whether the Job is suspended: no pods run.'],
  podReplacementPolicy: ['string', 'When a failed pod is replaced: TerminatingOrFailed or Failed.'],
  managedBy: ['string', 'The controller that syncs the Job, when not the built-in one.'],
});

function workload(apiVersion: string, kind: string, specFields: z.ZodRawShape, counts: z.ZodRawShape, description: string) {
  return z
    .strictObject({
      apiVersion: z.literal(apiVersion).meta({ description: 'The versioned schema of this object.' }),
      kind: z.literal(kind).meta({ description: 'The kind of this object.' }),
      metadata: workloadMetaSchema,
      spec: z.strictObject({ ...specFields, ...counts, template: podTemplateSchema }).meta({ description: `What the ${kind} runs, and how many.` }),
      // Written by the workload's controller on a member cluster; kept as exported, never read.
      status: anyValue.optional().meta({ description: `The state of the ${kind} as its controller reports it; outrank keeps it as written.` }),
    })
    .meta({ description });
}

/** apps/v1's pod selector: required, not empty, and matching the pod template's labels (ValidateDeploymentSpec and its kin). */
const podSelector = labelSelector.meta({ description: 'A label query over the pods: it must match the labels of the pod template.' });

function checkPodSelector(kind: string, spec: { selector?: LabelSelector; template?: { metadata?: { labels?: Record<string, string> } } }, context: z.RefinementCtx): void {
  const { selector } = spec;
  if (selector === undefined) {
    context.addIssue({ code: 'custom', path: ['spec', 'selector'], message: 'Required value' });
    return;
  }
  if (Object.keys(selector.matchLabels ?? {}).length === 0 && (selector.matchExpressions ?? []).length === 0) {
    context.addIssue({ code: 'custom', path: ['spec', 'selector'], message: `Invalid value: empty selector is invalid for ${kind.toLowerCase()}` });
    return;
  }
  if (!matchesLabelSelector(selector, spec.template?.metadata?.labels ?? {})) {
    context.addIssue({ code: 'custom', path: ['spec', 'template', 'metadata', 'labels'], message: 'Invalid value: `selector` does not match template `labels`' });
  }
}

/** An apps/v1 workload: its pods chosen by a selector the template's labels must satisfy. */
function appsWorkload(kind: string, specFields: z.ZodRawShape, description: string) {
  return workload('apps/v1', kind, { ...specFields, selector: podSelector.optional() }, { replicas }, description).superRefine((object, context) =>
    checkPodSelector(kind, object.spec as Parameters<typeof checkPodSelector>[1], context),
  );
}

export const deploymentSchema = appsWorkload('Deployment', DEPLOYMENT_SPEC_FIELDS, 'A Deployment to propagate to member clusters: a resource template.');
export const statefulSetSchema = appsWorkload('StatefulSet', STATEFUL_SET_SPEC_FIELDS, 'A StatefulSet to propagate to member clusters: a resource template.');
export const replicaSetSchema = appsWorkload('ReplicaSet', REPLICA_SET_SPEC_FIELDS, 'A ReplicaSet to propagate to member clusters: a resource template.');
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
