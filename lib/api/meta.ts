import * as z from 'zod';
import { parseQuantity, QUANTITY_PATTERN, resourceUnit } from '../quantity';

const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

export const objectName = z
  .string()
  .min(1, 'must not be empty')
  .max(253, 'must be no more than 253 characters')
  .regex(DNS_SUBDOMAIN, 'must be a lowercase RFC 1123 subdomain (a-z, 0-9, "-" and ".")');

/** A DNS label (RFC 1123) of at most `maxLength` characters: a namespace's name (63), a Karmada cluster's (48). */
export function dnsLabelName(maxLength: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(maxLength, `must be no more than ${maxLength} characters`)
    .regex(DNS_LABEL, 'must be a lowercase RFC 1123 label (a-z, 0-9 and "-")');
}

export const namespaceName = dnsLabelName(63);

/**
 * The name of any template a policy may select or a binding refer to: a path segment, as kube-apiserver
 * allows for RBAC objects ("system:aggregate-to-view"), the other kinds' DNS subdomain names among them.
 */
export const templateName = z
  .string()
  .min(1, 'must not be empty')
  .max(253, 'must be no more than 253 characters')
  .refine((name) => name !== '.' && name !== '..' && !name.includes('/') && !name.includes('%'), 'must not be "." or "..", nor contain "/" or "%"');

/** A Kubernetes qualified name such as a label key: optional DNS prefix, "/", then a 63-character name. */
export function isQualifiedName(value: string): boolean {
  const parts = value.split('/');
  if (parts.length > 2) return false;
  const name = parts.length === 2 ? parts[1]! : parts[0]!;
  const prefix = parts.length === 2 ? parts[0]! : undefined;
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) {
    return false;
  }
  return name.length > 0 && name.length <= 63 && QUALIFIED_NAME.test(name);
}

export const QUALIFIED_NAME_RULE = 'must be a qualified name ([prefix/]name, name of at most 63 alphanumerics, "-", "_" or ".")';

export const qualifiedName = z.string().max(317, 'must be no more than 317 characters').refine(isQualifiedName, QUALIFIED_NAME_RULE);

export const labelValue = z
  .string()
  .max(63, 'must be no more than 63 characters')
  .regex(LABEL_VALUE, 'must be empty or alphanumerics, "-", "_" or ".", beginning and ending with an alphanumeric');

export const labels = z.record(qualifiedName, labelValue);

const quantityValue = z
  .union([z.string().max(64).meta({ pattern: QUANTITY_PATTERN }), z.number()], {
    error: 'must be a quantity: a string such as "500m" or "2Gi", or a number',
  })
  .meta({ 'x-kubernetes-int-or-string': true });

/**
 * A resource list (resource name → Kubernetes quantity) as containers, clusters and bindings write it.
 * Every quantity must parse and must not be negative, so a stored object never fails later arithmetic.
 */
export const quantityMap = z.record(qualifiedName, quantityValue).superRefine((map, context) => {
  for (const [resource, value] of Object.entries(map)) {
    try {
      parseQuantity(value, resourceUnit(resource));
    } catch (error) {
      context.addIssue({ code: 'custom', path: [resource], message: (error as Error).message });
    }
  }
});
export const annotations = z.record(z.string().max(317), z.string().max(262_144));

/** Kubernetes' OwnerReference; a binding's names its template as controller (owner-reference.ts). */
export const ownerReference = z.looseObject({
  apiVersion: z.string().max(253),
  kind: z.string().max(63),
  name: z.string().max(253),
  uid: z.string().max(64).optional(),
  controller: z.boolean().optional(),
  blockOwnerDeletion: z.boolean().optional(),
});
export type OwnerReference = z.infer<typeof ownerReference>;

export const objectMeta = z.strictObject({
  name: objectName,
  /** The prefix the name was generated from (generate-name.ts), kept as kube-apiserver keeps it. */
  generateName: z.string().max(253).optional(),
  namespace: namespaceName.optional(),
  labels: labels.optional(),
  annotations: annotations.optional(),
  uid: z.string().max(64).optional(),
  resourceVersion: z.string().max(32).optional(),
  generation: z.number().int().nonnegative().optional(),
  creationTimestamp: z.string().max(64).optional(),
  /** Set by the server when a delete waits for finalizers (deletion.ts); what a client writes here is ignored. */
  deletionTimestamp: z.string().max(64).optional(),
  deletionGracePeriodSeconds: z.number().int().nonnegative().optional(),
  // Kept as written so that manifests exported from a Karmada control plane load unchanged.
  finalizers: z.array(z.string().max(317)).max(64).optional(),
  ownerReferences: z.array(ownerReference).max(64).optional(),
  managedFields: z.array(z.looseObject({})).max(256).optional(),
});
export type ObjectMeta = z.infer<typeof objectMeta>;

const selectorOperator = z.enum(['In', 'NotIn', 'Exists', 'DoesNotExist']);

export const labelSelectorRequirement = z
  .strictObject({
    key: qualifiedName.meta({ description: 'The label key the requirement applies to.' }),
    operator: selectorOperator.meta({ description: "How the key relates to the values: In, NotIn, Exists or DoesNotExist." }),
    values: z.array(labelValue).max(1024).optional().meta({ description: 'The values for In and NotIn; empty for Exists and DoesNotExist.' }),
  })
  .meta({ description: 'A label requirement: a key, an operator and values.' })
  .superRefine((requirement, context) => {
    const count = requirement.values?.length ?? 0;
    const needsValues = requirement.operator === 'In' || requirement.operator === 'NotIn';
    if (needsValues && count === 0) {
      context.addIssue({ code: 'custom', path: ['values'], message: `must be non-empty when operator is ${requirement.operator}` });
    }
    if (!needsValues && count > 0) {
      context.addIssue({ code: 'custom', path: ['values'], message: `must be empty when operator is ${requirement.operator}` });
    }
  });

export const labelSelector = z.strictObject({
  matchLabels: labels.optional().meta({ description: 'Labels an object must carry, each with this value.' }),
  matchExpressions: z.array(labelSelectorRequirement).max(64).optional().meta({ description: 'Requirements an object’s labels must meet, all of them.' }),
});
export type LabelSelector = z.infer<typeof labelSelector>;

export const conditionStatus = z.enum(['True', 'False', 'Unknown']);

export const condition = z.strictObject({
  type: z.string().min(1).max(316),
  status: conditionStatus,
  reason: z.string().max(1024).optional(),
  message: z.string().max(32_768).optional(),
  lastTransitionTime: z.string().max(64).optional(),
  lastUpdateTime: z.string().max(64).optional(),
  observedGeneration: z.number().int().nonnegative().optional(),
});
export type Condition = z.infer<typeof condition>;

export const int32 = z
  .number()
  .int('must be an integer')
  .min(-2_147_483_648, 'must fit in a 32-bit signed integer')
  .max(2_147_483_647, 'must fit in a 32-bit signed integer');
