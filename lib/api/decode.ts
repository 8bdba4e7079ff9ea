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
import { WORKLOAD_SCHEMAS } from './workload-shapes';

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
  ...WORKLOAD_SCHEMAS,
};

/**
 * What a write does with fields its kind does not have, as the Kubernetes API server's
 * `fieldValidation`: Strict refuses the object, Warn and Ignore drop them (Warn saying which).
 */
export const FIELD_VALIDATIONS = ['Strict', 'Warn', 'Ignore'] as const;
export type FieldValidation = (typeof FIELD_VALIDATIONS)[number];

export interface DecodedObject {
  readonly object: KubeObject;
  /** The fields dropped under Warn or Ignore, as paths (spec.template.spec.containers[0].resources.requets). */
  readonly unknownFields: readonly string[];
}

/** The schema objects of a kind are validated against; undefined for template kinds whose shape is not known (kept loose). */
export function schemaOf(apiVersion: string, kind: string): z.ZodType | undefined {
  return SCHEMAS[`${apiVersion} ${kind}`];
}

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
export function decodeObjectWith(raw: unknown, fieldValidation: FieldValidation): DecodedObject {
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

  return parseLeniently(schema ?? resourceTemplateSchema, defaulted, fieldValidation, kind, name);
}

/** Validates a decoded manifest refusing unknown fields: decodeObjectWith under Strict. */
export function decodeObject(raw: unknown): KubeObject {
  return decodeObjectWith(raw, 'Strict').object;
}

function unknownFieldIssues(issues: readonly z.core.$ZodIssue[]): Array<readonly PropertyKey[]> {
  return issues.flatMap((issue) => (issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key]) : []));
}

/** A copy of `value` without the field at each path. */
function withoutFields(value: Record<string, unknown>, paths: ReadonlyArray<readonly PropertyKey[]>): Record<string, unknown> {
  const copy = structuredClone(value);
  for (const path of paths) {
    let parent: unknown = copy;
    for (const segment of path.slice(0, -1)) parent = (parent as Record<PropertyKey, unknown>)[segment];
    delete (parent as Record<PropertyKey, unknown>)[path[path.length - 1]!];
  }
  return copy;
}

function parseLeniently(schema: z.ZodType, raw: Record<string, unknown>, fieldValidation: FieldValidation, kind: string, name: string): DecodedObject {
  const first = schema.safeParse(raw);
  if (first.success) return { object: first.data as KubeObject, unknownFields: [] };
  const unknown = fieldValidation === 'Strict' ? [] : unknownFieldIssues(first.error.issues);
  const result = unknown.length > 0 ? schema.safeParse(withoutFields(raw, unknown)) : first;
  if (result.success) return { object: result.data as KubeObject, unknownFields: unknown.map((path) => fieldPath(path)) };
  throw new InvalidObjectError(
    kind,
    name,
    result.error.issues.map((issue) => ({ field: issueField(issue), message: issueMessage(issue) })),
  );
}

function issueField(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => fieldPath([...issue.path, key])).join(', ');
  }
  return fieldPath(issue.path);
}

/** A map key that breaks its rule (a label key, a resource name) is reported with that rule, not zod's "Invalid key in record". */
function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return issue.keys.length === 1 ? 'unknown field' : 'unknown fields';
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
