import * as z from 'zod';
import { labels, namespaceName, objectName } from './meta';
import { anyValue, fieldsOf, objectMetaWith } from './workload-shapes';

/**
 * The core/v1 kinds an application bundle carries beside its workloads — Service, ConfigMap, Secret,
 * ServiceAccount, Namespace — as kube-apiserver validates them (pkg/apis/core/validation): names, the
 * fields each level may have, required fields, types and enumerations, Secret data in base64, the
 * keys a Secret's type requires. Subtrees outrank does not read keep their values as written. They
 * are resource templates without replicas: propagated whole to the clusters a policy selects.
 */

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const CONFIG_KEY = /^[-._a-zA-Z0-9]+$/;
/** Standard base64 with padding, as Go's encoding/json reads a []byte. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const IANA_SERVICE_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** A Service's name: an RFC 1035 label (it becomes a DNS name of the cluster). */
const serviceName = z
  .string()
  .min(1, 'must not be empty')
  .max(63, 'must be no more than 63 characters')
  .regex(DNS_1035_LABEL, 'must be a lowercase RFC 1035 label (a-z, 0-9 and "-", starting with a letter)');

/** A key of a ConfigMap's or Secret's data (IsConfigMapKey). */
const configKey = z
  .string()
  .min(1, 'must not be empty')
  .max(253, 'must be no more than 253 characters')
  .regex(CONFIG_KEY, 'must consist of alphanumeric characters, "-", "_" or "."')
  .refine((key) => key !== '.' && key !== '..' && !key.startsWith('..'), 'must not be "." or "..", nor start with ".."');

const base64Value = z.string().regex(BASE64, 'must be base64-encoded (standard alphabet, with padding)');

/** What may be written; the write path stores the rest as written (status included, never read). */
const status = anyValue.optional();

function kindOf<const ApiVersion extends string, const Kind extends string>(apiVersion: ApiVersion, kind: Kind) {
  return { apiVersion: z.literal(apiVersion), kind: z.literal(kind) };
}

// ---- ConfigMap ----

/** Data and binaryData must not share a key: the member cluster could not tell which to mount. */
function checkDisjointKeys(first: Record<string, unknown> | undefined, second: Record<string, unknown> | undefined, secondField: string, context: z.RefinementCtx): void {
  for (const key of Object.keys(second ?? {})) {
    if (first && key in first) context.addIssue({ code: 'custom', path: [secondField, key], message: `must not also be a key of data: "${key}" is there` });
  }
}

export const configMapSchema = z
  .strictObject({
    ...kindOf('v1', 'ConfigMap'),
    metadata: objectMetaWith(objectName),
    data: z.record(configKey, z.string()).optional().meta({ description: 'Configuration as UTF-8 strings, by key.' }),
    binaryData: z.record(configKey, base64Value).optional().meta({ description: 'Binary configuration, base64-encoded, by key (none of data\'s keys).' }),
    immutable: z.boolean().optional().meta({ description: 'True: data and binaryData can no longer change, and immutable cannot be unset.' }),
  })
  .superRefine((configMap, context) => checkDisjointKeys(configMap.data, configMap.binaryData, 'binaryData', context))
  .meta({ description: 'Configuration for workloads: a resource template without replicas, propagated whole to the clusters its policy selects.' });
export type ConfigMap = z.infer<typeof configMapSchema>;

// ---- Secret ----

/** The data keys each type of Secret requires, as kube-apiserver's ValidateSecret checks them. */
const REQUIRED_KEYS: Readonly<Record<string, readonly string[]>> = {
  'kubernetes.io/dockercfg': ['.dockercfg'],
  'kubernetes.io/dockerconfigjson': ['.dockerconfigjson'],
  'kubernetes.io/ssh-auth': ['ssh-privatekey'],
  'kubernetes.io/tls': ['tls.crt', 'tls.key'],
};
const JSON_KEYS: Readonly<Record<string, string>> = {
  'kubernetes.io/dockercfg': '.dockercfg',
  'kubernetes.io/dockerconfigjson': '.dockerconfigjson',
};

function checkSecretType(type: string, data: Record<string, string>, annotations: Record<string, string> | undefined, context: z.RefinementCtx): void {
  for (const key of REQUIRED_KEYS[type] ?? []) {
    if (!(key in data)) context.addIssue({ code: 'custom', path: ['data', key], message: `is required for a Secret of type ${type}` });
  }
  const jsonKey = JSON_KEYS[type];
  if (jsonKey && data[jsonKey] !== undefined) {
    try {
      JSON.parse(Buffer.from(data[jsonKey], 'base64').toString('utf8'));
    } catch {
      context.addIssue({ code: 'custom', path: ['data', jsonKey], message: `must hold JSON for a Secret of type ${type}` });
    }
  }
  if (type === 'kubernetes.io/basic-auth' && !('username' in data) && !('password' in data)) {
    context.addIssue({ code: 'custom', path: ['data'], message: 'must have a username or a password key for a Secret of type kubernetes.io/basic-auth' });
  }
  if (type === 'kubernetes.io/service-account-token' && !annotations?.['kubernetes.io/service-account.name']) {
    context.addIssue({
      code: 'custom',
      path: ['metadata', 'annotations', 'kubernetes.io/service-account.name'],
      message: 'is required for a Secret of type kubernetes.io/service-account-token',
    });
  }
}

/**
 * As kube-apiserver stores a Secret: stringData, a write-only convenience, is merged into data
 * (base64-encoded, its values winning over data's) and not kept.
 */
function withStringDataMerged<T extends { data?: Record<string, string>; stringData?: Record<string, string> }>(secret: T): Omit<T, 'stringData'> {
  const { stringData, ...rest } = secret;
  if (!stringData) return rest;
  const encoded = Object.fromEntries(Object.entries(stringData).map(([key, value]) => [key, Buffer.from(value, 'utf8').toString('base64')]));
  return { ...rest, data: { ...rest.data, ...encoded } };
}

export const secretSchema = z
  .strictObject({
    ...kindOf('v1', 'Secret'),
    metadata: objectMetaWith(objectName),
    type: z.string().max(253).optional().meta({ description: 'How the data is used (Opaque when not given; kubernetes.io/tls, kubernetes.io/dockerconfigjson … require their keys). Immutable.' }),
    data: z.record(configKey, base64Value).optional().meta({ description: 'Secret values, base64-encoded, by key.' }),
    stringData: z.record(configKey, z.string()).optional().meta({ description: 'Write-only: values as plain strings, merged into data (winning over it) when stored.' }),
    immutable: z.boolean().optional().meta({ description: 'True: data can no longer change, and immutable cannot be unset.' }),
  })
  .superRefine((secret, context) => {
    const merged = withStringDataMerged(secret);
    if (secret.type) checkSecretType(secret.type, merged.data ?? {}, secret.metadata.annotations, context);
  })
  .transform(withStringDataMerged)
  .meta({ description: 'Confidential configuration for workloads: a resource template without replicas, propagated whole to the clusters its policy selects.' });
export type Secret = z.infer<typeof secretSchema>;

// ---- ServiceAccount ----

const objectReferenceSchema = z.strictObject({
  ...fieldsOf(['kind', 'namespace', 'apiVersion', 'uid', 'resourceVersion', 'fieldPath']),
  name: z.string().max(253).optional(),
});

export const serviceAccountSchema = z
  .strictObject({
    ...kindOf('v1', 'ServiceAccount'),
    metadata: objectMetaWith(objectName),
    secrets: z
      .array(objectReferenceSchema)
      .max(1024)
      .optional()
      .meta({ description: 'Secrets pods running as this account may use.', 'x-kubernetes-patch-merge-key': 'name', 'x-kubernetes-patch-strategy': 'merge' }),
    imagePullSecrets: z.array(z.strictObject({ name: z.string().max(253).optional() })).max(1024).optional(),
    automountServiceAccountToken: z.boolean().optional(),
  })
  .meta({ description: 'An identity for pods: a resource template without replicas, propagated whole to the clusters its policy selects.' });
export type ServiceAccount = z.infer<typeof serviceAccountSchema>;

// ---- Namespace ----

export const namespaceSchema = z
  .strictObject({
    ...kindOf('v1', 'Namespace'),
    metadata: objectMetaWith(namespaceName),
    spec: z.strictObject({ finalizers: z.array(z.string().max(253)).max(64).optional() }).optional(),
    status,
  })
  .meta({ description: 'A namespace: a cluster-scoped resource template without replicas, propagated whole to the clusters a ClusterPropagationPolicy selects.' });
export type Namespace = z.infer<typeof namespaceSchema>;

// ---- Service ----

const portNumber = z.number().int('must be an integer').min(1, 'must be between 1 and 65535').max(65535, 'must be between 1 and 65535');

/** A port by number, or by the name of a container's port (an IANA service name). */
const targetPort = z
  .union([
    portNumber,
    z
      .string()
      .min(1)
      .max(15, 'must be a port number or a name of at most 15 characters')
      .regex(IANA_SERVICE_NAME, 'must be a port number or a lowercase name (a-z, 0-9, "-")')
      .refine((name) => /[a-z]/.test(name) && !name.includes('--'), 'must be a port number or a name with a letter and no "--"'),
  ], { error: 'must be a port number or the name of a container port' })
  .meta({ 'x-kubernetes-int-or-string': true });

const servicePortSchema = z.strictObject({
  name: z.string().max(63).regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$/, 'must be a lowercase RFC 1123 label').optional(),
  protocol: z.enum(['TCP', 'UDP', 'SCTP']).optional().meta({ description: 'TCP (default), UDP or SCTP.' }),
  appProtocol: z.string().max(317).optional(),
  port: portNumber.meta({ description: 'The port the Service exposes.' }),
  targetPort: targetPort.optional(),
  nodePort: z.number().int().min(0).max(65535).optional(),
});

const SERVICE_SPEC_FIELDS = [
  'clusterIPs', 'loadBalancerIP', 'loadBalancerSourceRanges', 'externalIPs', 'sessionAffinityConfig', 'healthCheckNodePort',
  'publishNotReadyAddresses', 'ipFamilies', 'allocateLoadBalancerNodePorts', 'loadBalancerClass', 'trafficDistribution',
] as const;

type ServiceSpec = {
  type?: 'ClusterIP' | 'NodePort' | 'LoadBalancer' | 'ExternalName';
  ports?: Array<z.infer<typeof servicePortSchema>>;
  clusterIP?: string;
  externalName?: string;
  externalTrafficPolicy?: string;
};

/** kube-apiserver's ValidateService, the rules about ports and type that a manifest can break. */
function checkServiceSpec(spec: ServiceSpec, context: z.RefinementCtx): void {
  const type = spec.type ?? 'ClusterIP';
  const ports = spec.ports ?? [];
  const headless = spec.clusterIP === 'None';
  if (type === 'ExternalName') {
    if (!spec.externalName) context.addIssue({ code: 'custom', path: ['externalName'], message: 'is required when type is ExternalName' });
    else if (!objectName.safeParse(spec.externalName).success) context.addIssue({ code: 'custom', path: ['externalName'], message: 'must be a DNS name (an RFC 1123 subdomain)' });
  } else if (ports.length === 0 && !headless) {
    context.addIssue({ code: 'custom', path: ['ports'], message: `is required: a Service of type ${type} must expose at least one port` });
  }
  const names = new Set<string>();
  const pairs = new Set<string>();
  ports.forEach((port, index) => {
    if (ports.length > 1 && !port.name) context.addIssue({ code: 'custom', path: ['ports', index, 'name'], message: 'is required when a Service has more than one port' });
    if (port.name) {
      if (names.has(port.name)) context.addIssue({ code: 'custom', path: ['ports', index, 'name'], message: `must be unique: "${port.name}" is used by an earlier port` });
      names.add(port.name);
    }
    const pair = `${port.port}/${port.protocol ?? 'TCP'}`;
    if (pairs.has(pair)) context.addIssue({ code: 'custom', path: ['ports', index], message: `must be unique: port ${pair} is exposed by an earlier port` });
    pairs.add(pair);
    if (port.nodePort && type !== 'NodePort' && type !== 'LoadBalancer') {
      context.addIssue({ code: 'custom', path: ['ports', index, 'nodePort'], message: `may not be used when type is ${type}` });
    }
  });
  if (spec.externalTrafficPolicy && type !== 'NodePort' && type !== 'LoadBalancer') {
    context.addIssue({ code: 'custom', path: ['externalTrafficPolicy'], message: `may only be set when type is NodePort or LoadBalancer, not ${type}` });
  }
}

export const serviceSchema = z
  .strictObject({
    ...kindOf('v1', 'Service'),
    metadata: objectMetaWith(serviceName),
    spec: z
      .strictObject({
        ...fieldsOf(SERVICE_SPEC_FIELDS),
        type: z.enum(['ClusterIP', 'NodePort', 'LoadBalancer', 'ExternalName']).optional().meta({ description: 'How the Service is exposed (ClusterIP when not given).' }),
        ports: z
          .array(servicePortSchema)
          .max(1024)
          .optional()
          .meta({ description: 'The ports the Service exposes.', 'x-kubernetes-patch-merge-key': 'port', 'x-kubernetes-patch-strategy': 'merge' }),
        selector: labels.optional().meta({ description: 'The pods the Service routes to, by their labels.' }),
        clusterIP: z
          .string()
          .max(64)
          .regex(/^(None|[0-9.]+|[0-9a-fA-F:]+)?$/, 'must be an IP address, "None" (a headless Service) or empty')
          .optional(),
        externalName: z.string().max(253).optional(),
        sessionAffinity: z.enum(['ClientIP', 'None']).optional(),
        externalTrafficPolicy: z.enum(['Cluster', 'Local']).optional(),
        internalTrafficPolicy: z.enum(['Cluster', 'Local']).optional(),
        ipFamilyPolicy: z.enum(['SingleStack', 'PreferDualStack', 'RequireDualStack']).optional(),
      })
      .superRefine(checkServiceSpec),
    status,
  })
  .meta({ description: 'A Service in front of a workload\'s pods: a resource template without replicas, propagated whole to the clusters its policy selects.' });
export type Service = z.infer<typeof serviceSchema>;

/** The schemas of the core/v1 kinds above, by "apiVersion kind". */
export const CORE_KIND_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  'v1 Service': serviceSchema,
  'v1 ConfigMap': configMapSchema,
  'v1 Secret': secretSchema,
  'v1 ServiceAccount': serviceAccountSchema,
  'v1 Namespace': namespaceSchema,
};
