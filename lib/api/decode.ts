import type * as z from 'zod';
import { clusterSchema, type Cluster } from './cluster';
import { CORE_KIND_SCHEMAS } from './core-kinds';
import { CustomKinds } from './custom-kinds';
import { customResourceDefinitionSchema } from './custom-resource-definition';
import { eventSchema, type KubeEvent } from './event';
import { InvalidObjectError, fieldPath, type FieldCause } from './invalid-object-error';
import { kindInfo, TEMPLATE_KINDS } from './kinds';
import { clusterOverridePolicySchema, overridePolicySchema, type ClusterOverridePolicy, type OverridePolicy } from './override-policy';
import { isPlainObject } from './plain-object';
import { priorityClassSchema, type PriorityClass } from './priority-class';
import {
  clusterPropagationPolicySchema,
  propagationPolicySchema,
  type ClusterPropagationPolicy,
  type PropagationPolicy,
} from './propagation-policy';
import { resourceBindingSchema, type ResourceBinding } from './resource-binding';
import { RBAC_KIND_SCHEMAS } from './rbac-kinds';
import { hasWorkloadShape, resourceTemplateSchema, type ResourceTemplate } from './resource-template';
import { customResourceSchema } from './structural-schema';
import { WORKLOAD_SCHEMAS } from './workload-shapes';

export type KubeObject =
  | PriorityClass
  | Cluster
  | PropagationPolicy
  | ClusterPropagationPolicy
  | ResourceBinding
  | KubeEvent
  | OverridePolicy
  | ClusterOverridePolicy
  | ResourceTemplate;

const SCHEMAS: Record<string, z.ZodType> = {
  'scheduling.k8s.io/v1 PriorityClass': priorityClassSchema,
  'cluster.karmada.io/v1alpha1 Cluster': clusterSchema,
  'policy.karmada.io/v1alpha1 PropagationPolicy': propagationPolicySchema,
  'policy.karmada.io/v1alpha1 ClusterPropagationPolicy': clusterPropagationPolicySchema,
  'work.karmada.io/v1alpha2 ResourceBinding': resourceBindingSchema,
  'work.karmada.io/v1alpha2 ClusterResourceBinding': resourceBindingSchema,
  'v1 Event': eventSchema,
  'policy.karmada.io/v1alpha1 OverridePolicy': overridePolicySchema,
  'policy.karmada.io/v1alpha1 ClusterOverridePolicy': clusterOverridePolicySchema,
  'apiextensions.k8s.io/v1 CustomResourceDefinition': customResourceDefinitionSchema,
  ...CORE_KIND_SCHEMAS,
  ...RBAC_KIND_SCHEMAS,
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

/** How objects of a kind are validated, and whether they live in a namespace. */
interface Validation {
  readonly schema: z.ZodType;
  readonly namespaced: boolean;
  /**
   * A kind a CustomResourceDefinition registers: an object with spec.replicas and a pod template is a
   * workload, and is validated as a resource template too (its requests must parse to be placed).
   */
  readonly custom: boolean;
}

function refuse(kind: string, name: string, field: string, message: string): never {
  throw new InvalidObjectError(kind, name, [{ field, message }], 400);
}

/**
 * Outrank's own kinds and the Kubernetes kinds it knows by their schema; a kind a CustomResourceDefinition
 * registers by the schema of its version; any other kind with replicas and a pod template as a workload
 * template (its shape otherwise kept as written). Any other kind is not served.
 */
function validationOf(raw: Record<string, unknown>, apiVersion: string, kind: string, name: string, custom: CustomKinds): Validation {
  const metadata = raw.metadata as Record<string, unknown>;
  const schema = SCHEMAS[`${apiVersion} ${kind}`];
  const known = kindInfo(apiVersion, kind);
  if (known && schema) return { schema, namespaced: known.namespaced, custom: false };
  // Another version of a workload kind is kept as a template of that shape, as it always was.
  if (known && TEMPLATE_KINDS.includes(known)) return { schema: resourceTemplateSchema, namespaced: true, custom: false };
  if (known) refuse(kind, name, 'apiVersion', `${apiVersion} does not serve ${kind}`);
  const defined = custom.find(apiVersion, kind);
  if (defined?.schema) return { schema: customResourceSchema(defined.schema), namespaced: defined.kind.namespaced, custom: true };
  if (defined) refuse(kind, name, 'apiVersion', `${apiVersion} does not serve ${kind}: its CustomResourceDefinition serves ${defined.kind.versions.map((v) => v.name).join(', ')}`);
  const spec = isPlainObject(raw.spec) ? raw.spec : {};
  if (spec.replicas !== undefined || spec.template !== undefined) return { schema: resourceTemplateSchema, namespaced: metadata.namespace !== undefined, custom: false };
  refuse(kind, name, 'kind', `${kind} is not served in ${apiVersion}: create the CustomResourceDefinition that defines it first`);
}

/**
 * Validates a decoded manifest and returns the typed object, defaulting the namespace of namespaced
 * kinds to "default" as kubectl does. `custom` are the kinds the stored CustomResourceDefinitions
 * register. Throws InvalidObjectError naming each offending field.
 */
export function decodeObjectWith(raw: unknown, fieldValidation: FieldValidation, custom: CustomKinds = CustomKinds.NONE): DecodedObject {
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
  const validation = validationOf(raw, apiVersion, kind, name, custom);
  const metadata = raw.metadata as Record<string, unknown>;
  const defaulted = validation.namespaced && metadata.namespace === undefined ? { ...raw, metadata: { ...metadata, namespace: 'default' } } : raw;
  if (!validation.namespaced && metadata.namespace !== undefined) {
    throw new InvalidObjectError(kind, name, [{ field: 'metadata.namespace', message: `must not be set: ${kind} is cluster-scoped` }]);
  }
  const decoded = parseLeniently(validation.schema, defaulted, fieldValidation, kind, name);
  if (validation.custom && hasWorkloadShape(decoded.object)) parseLeniently(resourceTemplateSchema, decoded.object as Record<string, unknown>, 'Ignore', kind, name);
  return decoded;
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
export function isOverridePolicy(object: KubeObject): object is OverridePolicy | ClusterOverridePolicy {
  return object.apiVersion === 'policy.karmada.io/v1alpha1' && (object.kind === 'OverridePolicy' || object.kind === 'ClusterOverridePolicy');
}
export function isTemplate(object: KubeObject): object is ResourceTemplate {
  return !isPriorityClass(object) && !isCluster(object) && !isPolicy(object) && !isBinding(object) && !isEvent(object) && !isOverridePolicy(object);
}
