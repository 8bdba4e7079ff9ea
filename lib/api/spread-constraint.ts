import * as z from 'zod';
import { qualifiedName } from './meta';

/** The Cluster fields clusters are grouped by (Karmada's SpreadFieldValue). */
export const spreadField = z.enum(['cluster', 'region', 'zone', 'provider']);
export type SpreadField = z.infer<typeof spreadField>;

// Signs are checked with the rules between constraints (checkSpreadConstraints), so that all are reported together, as Karmada does.
const groupCount = z.number().int('must be an integer').min(-2_147_483_648, 'must fit in a 32-bit signed integer').max(2_147_483_647, 'must fit in a 32-bit signed integer');

/** Karmada's SpreadConstraint (pkg/apis/policy/v1alpha1/propagation_types.go). */
export const spreadConstraintSchema = z.strictObject({
  spreadByField: spreadField.optional().meta({
    description: 'Group clusters by their name (cluster), spec.region, spec.zones or spec.provider; cluster when neither this nor spreadByLabel is set.',
  }),
  spreadByLabel: qualifiedName.optional().meta({ description: 'Group clusters by the value of this label; not together with spreadByField.' }),
  maxGroups: groupCount.optional().meta({ description: 'At most this many groups are selected.' }),
  minGroups: groupCount.optional().meta({ description: 'At least this many groups are selected; 0 or absent means 1.' }),
});
export type SpreadConstraint = z.infer<typeof spreadConstraintSchema>;

/** A constraint with the defaults Karmada's mutating webhook writes (pkg/util/helper/policy.go, SetDefaultSpreadConstraints). */
export interface EffectiveSpreadConstraint {
  /** Undefined for a constraint by label. */
  readonly field: SpreadField | undefined;
  readonly label: string | undefined;
  readonly minGroups: number;
  /** 0 when unset: no group may be selected. */
  readonly maxGroups: number;
}

export function effectiveSpreadConstraint(constraint: SpreadConstraint): EffectiveSpreadConstraint {
  return {
    field: constraint.spreadByField ?? (constraint.spreadByLabel ? undefined : 'cluster'),
    label: constraint.spreadByLabel,
    minGroups: constraint.minGroups || 1,
    maxGroups: constraint.maxGroups ?? 0,
  };
}

/**
 * Karmada's webhook rules for spreadConstraints (pkg/util/validation/validation.go, ValidateSpreadConstraint),
 * after its defaults, with its messages: spreadByField and spreadByLabel exclusive, no negative group counts,
 * maxGroups (when set) not below minGroups, each field at most once, and a cluster constraint whenever any
 * constraint is by field.
 */
export function checkSpreadConstraints(constraints: readonly SpreadConstraint[], context: z.RefinementCtx, path: readonly PropertyKey[]): void {
  const seen = new Set<SpreadField>();
  const reported = new Set<SpreadField>();
  constraints.forEach((constraint, index) => {
    const effective = effectiveSpreadConstraint(constraint);
    if (constraint.spreadByField && constraint.spreadByLabel) {
      context.addIssue({ code: 'custom', path: [...path, index, 'spreadByLabel'], message: 'spreadByLabel should not co-exist with spreadByField' });
    }
    for (const count of ['minGroups', 'maxGroups'] as const) {
      if ((constraint[count] ?? 0) < 0) context.addIssue({ code: 'custom', path: [...path, index, count], message: `${count} lower than 0 is not allowed` });
    }
    if (effective.maxGroups > 0 && effective.maxGroups < effective.minGroups) {
      context.addIssue({ code: 'custom', path: [...path, index, 'maxGroups'], message: 'maxGroups lower than minGroups is not allowed' });
    }
    const field = effective.field;
    if (!field) return;
    if (seen.has(field) && !reported.has(field)) {
      reported.add(field);
      context.addIssue({ code: 'custom', path: [...path, index, 'spreadByField'], message: `multiple ${field} spread constraints are not allowed` });
    }
    seen.add(field);
  });
  if (seen.size > 0 && !seen.has('cluster')) {
    context.addIssue({
      code: 'custom',
      path: [...path],
      message: 'the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled',
    });
  }
}
