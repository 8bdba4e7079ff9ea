import * as z from 'zod';
import { annotations, labels, objectMeta } from './meta';
import { clusterAffinitySchema, resourceSelectorSchema } from './propagation-policy';

/**
 * policy.karmada.io/v1alpha1 OverridePolicy and ClusterOverridePolicy (Karmada's
 * pkg/apis/policy/v1alpha1/override_types.go), stored and served with their schema and the rules of
 * Karmada's validating webhook (pkg/util/validation, ValidateOverrideSpec). Applying overrides to what
 * is propagated belongs to propagation, which outrank does not do: it keeps them so that a Karmada
 * repository applies unchanged, and reads nothing of them.
 */

const operator = z.enum(['add', 'remove', 'replace']);
/** A JSON pointer: empty, or "/"-separated tokens ("~" only as ~0 or ~1), as Karmada's jsonpointer.New reads it. */
const jsonPointer = z
  .string()
  .max(1024)
  .regex(/^(\/([^~/]|~[01])*)*$/, 'must be a JSON pointer such as /spec/replicas');

const valued = z.strictObject({ operator, value: z.unknown().optional() });

/** add and replace need a value, remove takes none (validateOverrideOperator). */
function checkValue(patch: z.infer<typeof valued>, context: z.RefinementCtx): void {
  if (patch.operator !== 'remove' && patch.value === undefined) context.addIssue({ code: 'custom', path: ['value'], message: `is required for the ${patch.operator} operation` });
  if (patch.operator === 'remove' && patch.value !== undefined) context.addIssue({ code: 'custom', path: ['value'], message: 'is not allowed for the remove operation' });
}

const plaintextOverrider = z.strictObject({ path: jsonPointer, operator, value: z.unknown().optional() }).superRefine(checkValue);
const patchOperation = z.strictObject({ subPath: jsonPointer, operator, value: z.unknown().optional() }).superRefine(checkValue);

const imageOverrider = z.strictObject({
  predicate: z.strictObject({ path: jsonPointer }).optional(),
  component: z.enum(['Registry', 'Repository', 'Tag']),
  operator,
  value: z.string().max(1024).optional(),
});

const commandArgsOverrider = z.strictObject({
  containerName: z.string().min(1, 'must not be empty').max(253),
  operator: z.enum(['add', 'remove']),
  value: z.array(z.string().max(32_768)).max(1024).optional(),
});

const fieldOverrider = z
  .strictObject({
    fieldPath: jsonPointer,
    json: z.array(patchOperation).max(256).optional(),
    yaml: z.array(patchOperation).max(256).optional(),
  })
  .superRefine((overrider, context) => {
    const json = (overrider.json ?? []).length > 0;
    const yaml = (overrider.yaml ?? []).length > 0;
    if (json && yaml) context.addIssue({ code: 'custom', path: [], message: 'must set json or yaml, not both' });
    if (!json && !yaml) context.addIssue({ code: 'custom', path: [], message: 'must set json or yaml' });
  });

const overridersSchema = z
  .strictObject({
    plaintext: z.array(plaintextOverrider).max(256).optional(),
    imageOverrider: z.array(imageOverrider).max(256).optional(),
    commandOverrider: z.array(commandArgsOverrider).max(256).optional(),
    argsOverrider: z.array(commandArgsOverrider).max(256).optional(),
    labelsOverrider: z.array(z.strictObject({ operator, value: labels })).max(256).optional(),
    annotationsOverrider: z.array(z.strictObject({ operator, value: annotations })).max(256).optional(),
    fieldOverrider: z.array(fieldOverrider).max(256).optional(),
  })
  .meta({ description: 'How the propagated resource is changed for the target clusters.' });
type Overriders = z.infer<typeof overridersSchema>;

function isEmpty(overriders: Overriders | undefined): boolean {
  return Object.values(overriders ?? {}).every((list) => ((list as unknown[] | undefined)?.length ?? 0) === 0);
}

const overrideSpecSchema = z
  .strictObject({
    resourceSelectors: z.array(resourceSelectorSchema).max(256).optional().meta({ description: 'The resource templates the overrides apply to; all when empty.' }),
    overrideRules: z
      .array(z.strictObject({ targetCluster: clusterAffinitySchema.optional(), overriders: overridersSchema }))
      .max(256)
      .optional()
      .meta({ description: 'Overriders, each for the clusters its targetCluster selects.' }),
    targetCluster: clusterAffinitySchema.optional().meta({ description: 'Deprecated: use overrideRules.' }),
    overriders: overridersSchema.optional().meta({ description: 'Deprecated: use overrideRules.' }),
  })
  .superRefine((spec, context) => {
    if (spec.targetCluster && spec.overrideRules) context.addIssue({ code: 'custom', path: ['targetCluster'], message: "overrideRules and targetCluster can't co-exist" });
    if (!isEmpty(spec.overriders) && spec.overrideRules) context.addIssue({ code: 'custom', path: ['overriders'], message: "overrideRules and overriders can't co-exist" });
  });

export const overridePolicySchema = z
  .strictObject({
    apiVersion: z.literal('policy.karmada.io/v1alpha1'),
    kind: z.literal('OverridePolicy'),
    metadata: objectMeta,
    spec: overrideSpecSchema,
  })
  .superRefine((policy, context) => {
    // Karmada's mutating webhook gives a selector without a namespace the policy's, and its validating one refuses another.
    (policy.spec.resourceSelectors ?? []).forEach((selector, index) => {
      if (selector.namespace !== undefined && selector.namespace !== policy.metadata.namespace) {
        context.addIssue({ code: 'custom', path: ['spec', 'resourceSelectors', index, 'namespace'], message: `must be empty or the policy's own namespace "${policy.metadata.namespace ?? ''}"` });
      }
    });
  })
  .meta({ description: 'Overrides applied to the resource templates of its namespace it selects when they are propagated to member clusters. Stored and served; outrank does not propagate.' });
export type OverridePolicy = z.infer<typeof overridePolicySchema>;

export const clusterOverridePolicySchema = z
  .strictObject({
    apiVersion: z.literal('policy.karmada.io/v1alpha1'),
    kind: z.literal('ClusterOverridePolicy'),
    metadata: objectMeta,
    spec: overrideSpecSchema,
  })
  .meta({ description: 'Overrides applied to the resource templates of any namespace it selects when they are propagated to member clusters. Stored and served; outrank does not propagate.' });
export type ClusterOverridePolicy = z.infer<typeof clusterOverridePolicySchema>;
