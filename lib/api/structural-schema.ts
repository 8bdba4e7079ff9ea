import * as z from 'zod';
import { objectName } from './meta';
import { isPlainObject } from './plain-object';
import { objectMetaWith } from './workload-shapes';

/**
 * The validation of a custom resource by its CRD version's openAPIV3Schema, as kube-apiserver applies
 * a structural schema: types (integer, number, string, boolean, object, array), required properties,
 * enumerations, lengths, counts, bounds and patterns, nullable, defaults, int-or-string, and — under
 * Strict field validation — fields the schema does not have are refused (kube-apiserver prunes them,
 * and refuses them under Strict) unless `x-kubernetes-preserve-unknown-fields` keeps them. Logical
 * combinators (allOf, anyOf, oneOf, not), formats and CEL rules (x-kubernetes-validations) are not
 * checked. apiVersion, kind and metadata are every object's, whatever the schema says of them.
 */

type Schema = Record<string, unknown>;

const schemas = new WeakMap<Schema, z.ZodType>();

function numberOf(schema: Schema, key: string): number | undefined {
  const value = schema[key];
  return typeof value === 'number' ? value : undefined;
}

function stringNode(schema: Schema): z.ZodType {
  let node = z.string();
  const min = numberOf(schema, 'minLength');
  const max = numberOf(schema, 'maxLength');
  if (min !== undefined) node = node.min(min, `must be at least ${min} characters`);
  if (max !== undefined) node = node.max(max, `must be no more than ${max} characters`);
  if (typeof schema.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(schema.pattern);
    } catch {
      pattern = undefined; // a pattern JavaScript cannot read is not checked
    }
    if (pattern) node = node.regex(pattern, `must match ${schema.pattern}`);
  }
  return node;
}

function numberNode(schema: Schema, integer: boolean): z.ZodType {
  let node = integer ? z.number().int('must be an integer') : z.number();
  const minimum = numberOf(schema, 'minimum');
  const maximum = numberOf(schema, 'maximum');
  if (minimum !== undefined) node = schema.exclusiveMinimum === true ? node.gt(minimum, `must be greater than ${minimum}`) : node.min(minimum, `must be at least ${minimum}`);
  if (maximum !== undefined) node = schema.exclusiveMaximum === true ? node.lt(maximum, `must be less than ${maximum}`) : node.max(maximum, `must be at most ${maximum}`);
  const multipleOf = numberOf(schema, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) node = node.multipleOf(multipleOf, `must be a multiple of ${multipleOf}`);
  return node;
}

function arrayNode(schema: Schema): z.ZodType {
  let node = z.array(isPlainObject(schema.items) ? nodeOf(schema.items) : z.unknown());
  const min = numberOf(schema, 'minItems');
  const max = numberOf(schema, 'maxItems');
  if (min !== undefined) node = node.min(min, `must have at least ${min} items`);
  if (max !== undefined) node = node.max(max, `must have at most ${max} items`);
  return node;
}

function propertiesOf(schema: Schema, skipped: readonly string[] = []): Record<string, z.ZodType> {
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (skipped.includes(name) || !isPlainObject(property)) continue;
    const node = nodeOf(property);
    shape[name] = required.has(name) || property.default !== undefined ? node : node.optional();
  }
  return shape;
}

/** An object keeps unknown fields when the schema says so, or is a map when it gives additionalProperties. */
function objectNode(schema: Schema): z.ZodType {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const shape = {
    ...(embedded ? { apiVersion: z.string().optional(), kind: z.string().optional(), metadata: z.record(z.string(), z.unknown()).optional() } : {}),
    ...propertiesOf(schema),
  };
  if (isPlainObject(schema.additionalProperties)) return z.record(z.string(), nodeOf(schema.additionalProperties));
  if (schema.additionalProperties === true || (preserve && Object.keys(shape).length === 0)) return z.record(z.string(), z.unknown());
  return preserve ? z.looseObject(shape) : z.strictObject(shape);
}

function typedNode(schema: Schema): z.ZodType {
  if (schema['x-kubernetes-int-or-string'] === true) return z.union([z.number().int(), z.string()], { error: 'must be an integer or a string' });
  switch (schema.type) {
    case 'string':
      return stringNode(schema);
    case 'integer':
      return numberNode(schema, true);
    case 'number':
      return numberNode(schema, false);
    case 'boolean':
      return z.boolean();
    case 'array':
      return arrayNode(schema);
    case 'object':
      return objectNode(schema);
    default:
      // No type: only x-kubernetes-preserve-unknown-fields may say so in a structural schema; kept as written.
      return z.unknown();
  }
}

function nodeOf(schema: Schema): z.ZodType {
  const cached = schemas.get(schema);
  if (cached) return cached;
  let node = typedNode(schema);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const allowed = schema.enum;
    node = node.refine((value) => allowed.some((option) => JSON.stringify(option) === JSON.stringify(value)), `must be one of ${allowed.map((option) => JSON.stringify(option)).join(', ')}`);
  }
  if (schema.nullable === true) node = node.nullable();
  if (schema.default !== undefined) node = node.default(structuredClone(schema.default) as never);
  schemas.set(schema, node);
  return node;
}

const roots = new WeakMap<Schema, z.ZodType>();

/** The schema objects of a CRD version are validated by: its openAPIV3Schema at the root, with apiVersion, kind and metadata. */
export function customResourceSchema(root: Schema): z.ZodType {
  const cached = roots.get(root);
  if (cached) return cached;
  const shape = {
    apiVersion: z.string().min(1),
    kind: z.string().min(1),
    metadata: objectMetaWith(objectName),
    ...propertiesOf(root, ['apiVersion', 'kind', 'metadata']),
  };
  const schema = root['x-kubernetes-preserve-unknown-fields'] === true ? z.looseObject(shape) : z.strictObject(shape);
  roots.set(root, schema);
  return schema;
}
