import * as z from 'zod';
import { condition, objectName } from './meta';
import { isPlainObject } from './plain-object';
import { anyValue, objectMetaWith } from './workload-shapes';

/**
 * apiextensions.k8s.io/v1 CustomResourceDefinition, as kube-apiserver validates it
 * (apiextensions-apiserver's ValidateCustomResourceDefinition, the rules a manifest can break): named
 * `<plural>.<group>`, a group with a dot, lowercase names, a scope, versions with exactly one storage
 * version and an object schema each. Once stored, outrank serves the kind it defines (discovery, the
 * verbs, watch, OpenAPI from its schema; custom-kinds.ts) and validates its objects by that schema. A
 * CRD is itself a cluster-scoped resource template without replicas.
 */

export const CRD_GROUP = 'apiextensions.k8s.io';

const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

const lowercaseName = z
  .string()
  .min(1, 'must not be empty')
  .max(63, 'must be no more than 63 characters')
  .regex(DNS_1035_LABEL, 'must be a lowercase RFC 1035 label (a-z, 0-9 and "-", starting with a letter)');

const kindName = z
  .string()
  .min(1, 'must not be empty')
  .max(63, 'must be no more than 63 characters')
  .refine((kind) => DNS_1035_LABEL.test(kind.toLowerCase()), 'must be a kind such as CronTab: letters, digits and "-", starting with a letter');

const namesSchema = z.strictObject({
  plural: lowercaseName.meta({ description: 'The resource in URLs: /apis/<group>/<version>/<plural>.' }),
  singular: lowercaseName.optional(),
  shortNames: z.array(lowercaseName).max(64).optional(),
  kind: kindName.meta({ description: 'The kind of the objects, as they name it.' }),
  listKind: kindName.optional(),
  categories: z.array(lowercaseName).max(64).optional().meta({ description: 'Groups kubectl can name instead of the resource, such as all.' }),
});
export type CustomResourceNames = z.infer<typeof namesSchema>;

const printerColumnSchema = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(253),
  type: z.enum(['integer', 'number', 'string', 'boolean', 'date']),
  format: z.string().max(64).optional(),
  description: z.string().max(4096).optional(),
  priority: z.number().int().min(0).optional(),
  jsonPath: z.string().min(1, 'must not be empty').max(1024),
});
export type PrinterColumn = z.infer<typeof printerColumnSchema>;

/** The root JSONSchemaProps: an object schema; the rest of its shape is read by structural-schema.ts, which refuses none. */
const rootSchemaProps = z
  .looseObject({ type: z.literal('object', { error: 'must be object at the root' }) })
  .meta({ description: 'The OpenAPI v3 schema of the objects, of type object.', 'x-kubernetes-preserve-unknown-fields': true });

const versionSchema = z.strictObject({
  name: lowercaseName.meta({ description: 'The version in URLs and apiVersion, such as v1 or v1beta1.' }),
  served: z.boolean(),
  storage: z.boolean(),
  deprecated: z.boolean().optional(),
  deprecationWarning: z.string().max(256).optional(),
  schema: z
    .strictObject({ openAPIV3Schema: rootSchemaProps.optional() })
    .optional()
    .meta({ description: 'The schema objects of this version are validated by.' }),
  subresources: z
    .strictObject({
      status: z.record(z.string(), z.unknown()).optional(),
      scale: z
        .strictObject({
          specReplicasPath: z.string().min(1).max(1024),
          statusReplicasPath: z.string().min(1).max(1024),
          labelSelectorPath: z.string().max(1024).optional(),
        })
        .optional(),
    })
    .optional(),
  additionalPrinterColumns: z.array(printerColumnSchema).max(64).optional(),
  selectableFields: z.array(z.strictObject({ jsonPath: z.string().min(1).max(1024) })).max(8).optional(),
});
export type CustomResourceVersion = z.infer<typeof versionSchema>;

const specSchema = z.strictObject({
  group: objectName
    .refine((group) => group.includes('.'), 'must be a domain with at least one dot, such as stable.example.com')
    .meta({ description: 'The API group of the kind it defines.' }),
  names: namesSchema,
  scope: z.enum(['Namespaced', 'Cluster'], { error: 'must be Namespaced or Cluster' }),
  versions: z.array(versionSchema).min(1, 'must have at least one version').max(64),
  conversion: anyValue.optional(),
  preserveUnknownFields: z.literal(false, { error: 'must be false: every version has a schema' }).optional(),
});

function checkDefinition(crd: { metadata: { name: string }; spec: z.infer<typeof specSchema> }, context: z.RefinementCtx): void {
  const { spec } = crd;
  const expected = `${spec.names.plural}.${spec.group}`;
  if (crd.metadata.name !== expected) context.addIssue({ code: 'custom', path: ['metadata', 'name'], message: `must be spec.names.plural+"."+spec.group: "${expected}"` });
  if (spec.names.listKind !== undefined && spec.names.listKind === spec.names.kind) {
    context.addIssue({ code: 'custom', path: ['spec', 'names', 'listKind'], message: 'must not be the same as kind' });
  }
  const seen = new Set<string>();
  spec.versions.forEach((version, index) => {
    if (seen.has(version.name)) context.addIssue({ code: 'custom', path: ['spec', 'versions', index, 'name'], message: `must be unique: "${version.name}" is an earlier version` });
    seen.add(version.name);
    if (!version.schema?.openAPIV3Schema) context.addIssue({ code: 'custom', path: ['spec', 'versions', index, 'schema', 'openAPIV3Schema'], message: 'is required: schemas are required' });
  });
  const storage = spec.versions.filter((version) => version.storage).length;
  if (storage !== 1) context.addIssue({ code: 'custom', path: ['spec', 'versions'], message: `must have exactly one version marked as storage version, not ${storage}` });
}

export const customResourceDefinitionSchema = z
  .strictObject({
    apiVersion: z.literal(`${CRD_GROUP}/v1`),
    kind: z.literal('CustomResourceDefinition'),
    metadata: objectMetaWith(objectName),
    spec: specSchema,
    // Set by outrank on every write, as kube-apiserver's controllers set it (withDefinitionStatus).
    status: z
      .strictObject({
        conditions: z.array(condition).max(64).optional(),
        acceptedNames: namesSchema.partial().optional(),
        storedVersions: z.array(z.string().max(63)).max(64).optional(),
      })
      .optional(),
  })
  .superRefine(checkDefinition)
  .meta({ description: 'Defines a kind of custom resource: outrank serves it once stored. Itself a cluster-scoped resource template without replicas.' });
export type CustomResourceDefinition = z.infer<typeof customResourceDefinitionSchema>;

export function isCustomResourceDefinition(object: { apiVersion: string; kind: string }): object is CustomResourceDefinition {
  return object.apiVersion === `${CRD_GROUP}/v1` && object.kind === 'CustomResourceDefinition';
}

/** The version objects are stored in (exactly one, by validation). */
export function storageVersion(crd: CustomResourceDefinition): CustomResourceVersion {
  return crd.spec.versions.find((version) => version.storage) ?? crd.spec.versions[0]!;
}

/**
 * The definition as kube-apiserver's controllers leave it moments after a write, stamped at once so that
 * `kubectl wait --for condition=established` returns: its names accepted (listKind defaulted to
 * `<kind>List`), Established, and the storage version among the stored ones. The time of each
 * condition is kept while its status holds.
 */
export function withDefinitionStatus(crd: CustomResourceDefinition, previous: CustomResourceDefinition | undefined, now: string): CustomResourceDefinition {
  const held = (type: string) => previous?.status?.conditions?.find((c) => c.type === type && c.status === 'True')?.lastTransitionTime ?? now;
  const names = { ...crd.spec.names, listKind: crd.spec.names.listKind ?? `${crd.spec.names.kind}List` };
  const stored = [...new Set([...(previous?.status?.storedVersions ?? []), storageVersion(crd).name])];
  return {
    ...crd,
    status: {
      conditions: [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found', lastTransitionTime: held('NamesAccepted') },
        { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: held('Established') },
      ],
      acceptedNames: names,
      storedVersions: stored,
    },
  };
}

/** A CRD's scope cannot change once stored (kube-apiserver: "field is immutable"). */
export function definitionUpdateCauses(next: CustomResourceDefinition, previous: CustomResourceDefinition): Array<{ field: string; message: string }> {
  return next.spec.scope === previous.spec.scope ? [] : [{ field: 'spec.scope', message: 'is immutable' }];
}

/** The object schema of a version, if it has one (validation requires it; a stored object is read defensively). */
export function versionSchemaOf(version: CustomResourceVersion): Record<string, unknown> | undefined {
  const root = version.schema?.openAPIV3Schema;
  return isPlainObject(root) ? root : undefined;
}
