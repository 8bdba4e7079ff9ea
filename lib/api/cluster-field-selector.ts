import * as z from 'zod';
import type { Cluster } from './cluster';
import { labelValue } from './meta';

/**
 * Karmada's ClusterAffinity.fieldSelector: clusters chosen by the fields of their spec. Only provider,
 * region and zone, with In or NotIn, as Karmada's webhook allows (pkg/util/validation/validation.go,
 * ValidatePolicyFieldSelector, whose messages these are). In and NotIn need values, each a label value,
 * as Kubernetes requires of selector requirements: Karmada's webhook accepts either lack, and its
 * scheduler then matches no cluster by provider or region (the requirement does not parse).
 */
export const clusterFieldSelectorRequirementSchema = z
  .strictObject({
    key: z.enum(['provider', 'region', 'zone'], {
      error: (issue) => `unsupported key ${JSON.stringify(issue.input)}, must be provider, region, or zone`,
    }),
    operator: z.enum(['In', 'NotIn'], { error: (issue) => `unsupported operator ${JSON.stringify(issue.input)}, must be In or NotIn` }),
    values: z.array(labelValue).max(1024).optional(),
  })
  .superRefine((requirement, context) => {
    if ((requirement.values?.length ?? 0) === 0) {
      context.addIssue({ code: 'custom', path: ['values'], message: `must be non-empty when operator is ${requirement.operator}` });
    }
  });
export type ClusterFieldSelectorRequirement = z.infer<typeof clusterFieldSelectorRequirementSchema>;

export const clusterFieldSelectorSchema = z
  .strictObject({ matchExpressions: z.array(clusterFieldSelectorRequirementSchema).max(64).optional() })
  .meta({ description: "Clusters whose spec.provider, spec.region or spec.zones match every expression (In or NotIn)." });
export type ClusterFieldSelector = z.infer<typeof clusterFieldSelectorSchema>;

/**
 * Karmada's ClusterMatches, field part (pkg/util/selector.go): every expression holds. provider and region
 * are matched as labels would be (an empty field is an absent label: NotIn holds, In does not); zone is
 * matched against spec.zones, In when any zone is listed, NotIn when none is.
 */
export function matchesClusterFieldSelector(selector: ClusterFieldSelector | undefined, cluster: Cluster): boolean {
  return (selector?.matchExpressions ?? []).every((requirement) => holds(requirement, cluster));
}

function holds(requirement: ClusterFieldSelectorRequirement, cluster: Cluster): boolean {
  const values = requirement.values ?? [];
  const present = requirement.key === 'zone' ? (cluster.spec?.zones ?? []) : [cluster.spec?.[requirement.key] ?? ''].filter(Boolean);
  const listed = present.some((value) => values.includes(value));
  return requirement.operator === 'In' ? listed : !listed;
}
