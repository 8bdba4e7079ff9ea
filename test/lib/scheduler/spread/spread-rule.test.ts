/**
 * Which selection a placement's spread constraints make, as Karmada's SelectBestClusters decides it
 * (select_clusters.go: shouldIgnoreSpreadConstraint, selectBestClustersBySpreadConstraints; util_test.go,
 * TestIsSpreadConstraintExisted: whether a cluster constraint is among them decides the selection).
 */
import { describe, expect, it } from 'vitest';
import { placementSchema, type Placement } from '../../../../lib/api/propagation-policy';
import { spreadRule } from '../../../../lib/scheduler/spread/spread-rule';

/** Validated placements, but for the one case validation refuses (a field without the cluster constraint). */
const rule = (placement: Record<string, unknown>) =>
  spreadRule(placementSchema.safeParse(placement).success ? placementSchema.parse(placement) : (placement as Placement));

describe('spreadRule', () => {
  it.each<[string, Record<string, unknown>, object | undefined]>([
    ['no constraints: every feasible cluster', {}, undefined],
    ['an empty list: every feasible cluster', { spreadConstraints: [] }, undefined],
    [
      "the specific field is existed in the spread constraints (cluster, zone): by cluster",
      { spreadConstraints: [{ spreadByField: 'cluster', maxGroups: 2 }, { spreadByField: 'zone', maxGroups: 1 }] },
      { by: 'cluster', clusters: { minGroups: 1, maxGroups: 2 } },
    ],
    [
      "the specific field is not existed in the spread constraints (region, zone): by region, Karmada's zero cluster constraint",
      { spreadConstraints: [{ spreadByField: 'region', maxGroups: 2 }, { spreadByField: 'zone', maxGroups: 1 }] },
      { by: 'region', regions: { minGroups: 1, maxGroups: 2 }, clusters: { minGroups: 0, maxGroups: 0 } },
    ],
    [
      'region and cluster: by region',
      { spreadConstraints: [{ spreadByField: 'cluster', minGroups: 2, maxGroups: 4 }, { spreadByField: 'region', minGroups: 2, maxGroups: 2 }] },
      { by: 'region', regions: { minGroups: 2, maxGroups: 2 }, clusters: { minGroups: 2, maxGroups: 4 } },
    ],
    ['a constraint without field or label is by cluster', { spreadConstraints: [{ maxGroups: 3 }] }, { by: 'cluster', clusters: { minGroups: 1, maxGroups: 3 } }],
    ['by label alone: no selection Karmada supports', { spreadConstraints: [{ spreadByLabel: 'net', maxGroups: 2 }] }, { by: 'unsupported' }],
    [
      'static weights are exempt (shouldIgnoreSpreadConstraint)',
      { spreadConstraints: [{ maxGroups: 1 }], replicaScheduling: { weightPreference: { staticWeightList: [{ targetCluster: {}, weight: 1 }] } } },
      undefined,
    ],
    ['Divided without preference is Weighted, exempt', { spreadConstraints: [{ maxGroups: 1 }], replicaScheduling: { replicaSchedulingType: 'Divided' } }, undefined],
    ['an empty weightPreference is exempt too (a divergence: Karmada applies the constraints)', { spreadConstraints: [{ maxGroups: 1 }], replicaScheduling: { weightPreference: {} } }, undefined],
    [
      'dynamic weights are not exempt',
      { spreadConstraints: [{ maxGroups: 1 }], replicaScheduling: { weightPreference: { dynamicWeight: 'AvailableReplicas' } } },
      { by: 'cluster', clusters: { minGroups: 1, maxGroups: 1 } },
    ],
    [
      'Aggregated is not exempt',
      { spreadConstraints: [{ maxGroups: 1 }], replicaScheduling: { replicaDivisionPreference: 'Aggregated' } },
      { by: 'cluster', clusters: { minGroups: 1, maxGroups: 1 } },
    ],
  ])('%s', (_, placement, expected) => {
    expect(rule(placement)).toEqual(expected);
  });
});
