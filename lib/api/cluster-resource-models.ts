import * as z from 'zod';
import { compareQuantities, QUANTITY_PATTERN } from '../quantity';
import { qualifiedName } from './meta';

/**
 * Karmada's ResourceModel (pkg/apis/cluster/v1alpha1/types.go): grades of node size, each a range per
 * resource, that Karmada's estimator counts nodes in. outrank keeps them as written and does not use them.
 */

const modelQuantity = z
  .union([z.string().max(64).regex(new RegExp(QUANTITY_PATTERN), 'must be a quantity such as "4" or "16Gi"'), z.number()], {
    error: 'must be a quantity: a string such as "4" or "16Gi", or a number',
  })
  .refine(isComparable, 'must be a quantity whose exponent fits in 32 bits')
  .meta({ 'x-kubernetes-int-or-string': true });

function isComparable(value: string | number): boolean {
  try {
    compareQuantities(value, 0);
    return true;
  } catch {
    return false;
  }
}

export const resourceModelSchema = z.strictObject({
  grade: z.number().int('must be an integer').nonnegative('must not be negative'),
  ranges: z
    .array(
      z.strictObject({
        name: qualifiedName,
        min: modelQuantity,
        max: modelQuantity,
      }),
    )
    .max(64),
});
export type ResourceModel = z.infer<typeof resourceModelSchema>;

const LOWEST = '0';
const HIGHEST = '9223372036854775807';

/**
 * The models as Karmada's API server validates them (pkg/registry/cluster/strategy.go, PrepareForCreate
 * and PrepareForUpdate, StandardizeClusterResourceModels): ordered by grade, the first grade's minimums
 * 0 and the last grade's maximums 2^63 - 1.
 */
function standardized(models: readonly ResourceModel[]): ResourceModel[] {
  const sorted = [...models].sort((a, b) => a.grade - b.grade);
  return sorted.map((model, index) => ({
    ...model,
    ranges: model.ranges.map((range) => ({
      ...range,
      ...(index === 0 ? { min: LOWEST } : {}),
      ...(index === sorted.length - 1 ? { max: HIGHEST } : {}),
    })),
  }));
}

/**
 * Karmada's ValidateClusterResourceModels (pkg/apis/cluster/validation/validation.go), with its messages,
 * on the standardized models: the first rule broken, reported on the whole list as Karmada does, or
 * undefined. The models are stored as written.
 */
export function resourceModelsProblem(written: readonly ResourceModel[]): string | undefined {
  const models = standardized(written);
  for (const [index, model] of models.entries()) {
    const previous = models[index - 1];
    if (previous && model.grade === previous.grade) return 'The grade of each models should not be the same';
    if (previous && previous.ranges.length !== model.ranges.length) return 'The number of resource types should be the same';
    for (const [position, range] of model.ranges.entries()) {
      if (compareQuantities(range.max, range.min) <= 0) return 'The max value of each resource must be greater than the min value';
      const below = previous?.ranges[position];
      if (below && below.name !== range.name) return 'The resource types of each models should be the same';
      if (below && compareQuantities(below.max, range.min) !== 0) return 'Model intervals for resources must be contiguous and non-overlapping';
    }
  }
  return undefined;
}
