import type * as z from 'zod';
import { clusterSchema, type Cluster } from './cluster';
import { eventSchema, type KubeEvent } from './event';
import { InvalidObjectError, fieldPath, type FieldCause } from './invalid-object-error';
import { kindInfo, SYSTEM_KINDS } from './kinds';
import { isPlainObject } from './plain-object';
import { priorityClassSchema, type PriorityClass } from './priority-class';
import {
  clusterPropagationPolicySchema,
  propagationPolicySchema,
  type ClusterPropagationPolicy,
  type PropagationPolicy,
} from './propagation-policy';
import { resourceBindingSchema, type ResourceBinding } from './resource-binding';
import { resourceTemplateSchema, type ResourceTemplate } from './resource-template';

export type KubeObject =
  | PriorityClass
  | Cluster
  | PropagationPolicy
  | ClusterPropagationPolicy
  | ResourceBinding
  | KubeEvent
  | ResourceTemplate;

const SCHEMAS: Record<string, z.ZodType> = {
  'scheduling.k8s.io/v1 PriorityClass': priorityClassSchema,
  'cluster.karmada.io/v1alpha1 Cluster': clusterSchema,
  'policy.karmada.io/v1alpha1 PropagationPolicy': propagationPolicySchema,
  'policy.karmada.io/v1alpha1 ClusterPropagationPolicy': clusterPropagationPolicySchema,
  'work.karmada.io/v1alpha2 ResourceBinding': resourceBindingSchema,
  'work.karmada.io/v1alpha2 ClusterResourceBinding': resourceBindingSchema,
  'v1 Event': eventSchema,
};


function describe(raw: Record<string, unknown>): { kind: string; name: string } {
  const metadata = isPlainObject(raw.metadata) ? raw.metadata : {};
  return {
    kind: typeof raw.kind === 'string' ? raw.kind.slice(0, 63) : 'Object',
    name: typeof metadata.name === 'string' ? metadata.name.slice(0, 253) : '',
  };
}

/**
 * Validates a decoded manifest and returns the typed object, defaulting the namespace of namespaced
 * kinds to "default" as kubectl does. Throws InvalidObjectError naming each offending field.
 */
export function decodeObject(raw: unknown): KubeObject {
  if (!isPlainObject(raw)) {
    throw new InvalidObjectError('Object', '', [{ field: '<root>', message: 'must be an object' }], 400);
  }
  const { kind, name } = describe(raw);
  const causes: FieldCause[] = [];
  if (typeof raw.apiVersion !== 'string' || raw.apiVersion.length === 0) causes.push({ field: 'apiVersion', message: 'is required' });
  if (typeof raw.kind !== 'string' || raw.kind.length === 0) causes.push({ field: 'kind', message: 'is required' });
  if (!isPlainObject(raw.metadata)) causes.push({ field: 'metadata', message: 'is required and must be an object' });
  if (causes.length > 0) throw new InvalidObjectError(kind, name, causes, 400);

  const apiVersion = raw.apiVersion as string;
  const schema = SCHEMAS[`${apiVersion} ${kind}`];
  const known = kindInfo(apiVersion, kind);
  if (!schema && known && SYSTEM_KINDS.includes(known)) {
    throw new InvalidObjectError(kind, name, [{ field: 'apiVersion', message: `${apiVersion} does not serve ${kind}` }], 400);
  }
  const metadata = raw.metadata as Record<string, unknown>;
  const namespaced = known ? known.namespaced : metadata.namespace !== undefined;
  const defaulted = namespaced && metadata.namespace === undefined ? { ...raw, metadata: { ...metadata, namespace: 'default' } } : raw;
  if (known && !known.namespaced && metadata.namespace !== undefined) {
    throw new InvalidObjectError(kind, name, [{ field: 'metadata.namespace', message: `must not be set: ${kind} is cluster-scoped` }]);
  }

  const result = (schema ?? resourceTemplateSchema).safeParse(defaulted);
  if (!result.success) {
    throw new InvalidObjectError(
      kind,
      name,
      result.error.issues.map((issue) => ({ field: issueField(issue), message: issueMessage(issue) })),
    );
  }
  return result.data as KubeObject;
}

function issueField(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => fieldPath([...issue.path, key])).join(', ');
  }
  return fieldPath(issue.path);
}

/** A map key that breaks its rule (a label key, a resource name) is reported with that rule, not zod's "Invalid key in record". */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_key' && issue.issues.length > 0) {
    return `key ${issue.issues.map((inner) => inner.message).join('; ')}`;
  }
  return issue.message;
}

export function isPriorityClass(object: KubeObject): object is PriorityClass {
  return object.kind === 'PriorityClass' && object.apiVersion === 'scheduling.k8s.io/v1';
}
export function isCluster(object: KubeObject): object is Cluster {
  return object.kind === 'Cluster' && object.apiVersion === 'cluster.karmada.io/v1alpha1';
}
export function isPolicy(object: KubeObject): object is PropagationPolicy | ClusterPropagationPolicy {
  return object.apiVersion === 'policy.karmada.io/v1alpha1' && (object.kind === 'PropagationPolicy' || object.kind === 'ClusterPropagationPolicy');
}
export function isBinding(object: KubeObject): object is ResourceBinding {
  return object.apiVersion === 'work.karmada.io/v1alpha2';
}
export function isEvent(object: KubeObject): object is KubeEvent {
  return object.apiVersion === 'v1' && object.kind === 'Event';
}
export function isTemplate(object: KubeObject): object is ResourceTemplate {
  return !isPriorityClass(object) && !isCluster(object) && !isPolicy(object) && !isBinding(object) && !isEvent(object);
}
