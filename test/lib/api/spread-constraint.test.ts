/**
 * placement.spreadConstraints and clusterAffinity.fieldSelector validation, ported from Karmada:
 * pkg/util/validation/validation_test.go, TestValidatePropagationSpec (the spread and field selector
 * cases), with Karmada's messages and outrank's field paths; and the defaults of
 * pkg/util/helper/policy.go, SetDefaultSpreadConstraints, which the rules are checked after.
 */
import { describe, expect, it } from 'vitest';
import { clusterPropagationPolicySchema, placementSchema, propagationPolicySchema } from '../../../lib/api/propagation-policy';
import { effectiveSpreadConstraint } from '../../../lib/api/spread-constraint';

const KARMADA = 'pkg/util/validation/validation_test.go, TestValidatePropagationSpec';

function issues(placement: Record<string, unknown>) {
  return (placementSchema.safeParse(placement).error?.issues ?? []).map((issue) => ({ path: issue.path, message: issue.message }));
}

const expression = (key: string, operator: string, values = ['fooCloud']) => ({ key, operator, values });

describe(`spread constraints and field selectors (${KARMADA})`, () => {
  it("'valid spec'", () => {
    expect(
      issues({
        clusterAffinity: {
          fieldSelector: { matchExpressions: [expression('provider', 'In'), expression('region', 'NotIn'), expression('zone', 'NotIn')] },
        },
        spreadConstraints: [{ maxGroups: 2, minGroups: 1, spreadByField: 'region' }, { spreadByField: 'cluster' }],
      }),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, Array<{ path: PropertyKey[]; message: string }>]>([
    [
      'clusterAffinity.fieldSelector has unsupported key',
      { clusterAffinity: { fieldSelector: { matchExpressions: [expression('foo', 'In')] } } },
      [{ path: ['clusterAffinity', 'fieldSelector', 'matchExpressions', 0, 'key'], message: 'unsupported key "foo", must be provider, region, or zone' }],
    ],
    [
      'clusterAffinity.fieldSelector has unsupported operator',
      { clusterAffinity: { fieldSelector: { matchExpressions: [expression('provider', 'Exists')] } } },
      [{ path: ['clusterAffinity', 'fieldSelector', 'matchExpressions', 0, 'operator'], message: 'unsupported operator "Exists", must be In or NotIn' }],
    ],
    [
      'clusterAffinities.[index].clusterAffinity.fieldSelector has unsupported key',
      { clusterAffinities: [{ affinityName: 'group1', fieldSelector: { matchExpressions: [expression('foo', 'In')] } }] },
      [{ path: ['clusterAffinities', 0, 'fieldSelector', 'matchExpressions', 0, 'key'], message: 'unsupported key "foo", must be provider, region, or zone' }],
    ],
    [
      'clusterAffinities.[index].clusterAffinity.fieldSelector has unsupported operator',
      { clusterAffinities: [{ affinityName: 'group1', fieldSelector: { matchExpressions: [expression('provider', 'Exists')] } }] },
      [{ path: ['clusterAffinities', 0, 'fieldSelector', 'matchExpressions', 0, 'operator'], message: 'unsupported operator "Exists", must be In or NotIn' }],
    ],
    [
      'spreadConstraint spreadByLabel co-exist with spreadByField',
      { spreadConstraints: [{ spreadByField: 'cluster', spreadByLabel: 'foo' }] },
      [{ path: ['spreadConstraints', 0, 'spreadByLabel'], message: 'spreadByLabel should not co-exist with spreadByField' }],
    ],
    [
      'spreadConstraint maxGroups lower than minGroups',
      { spreadConstraints: [{ maxGroups: 1, minGroups: 2 }] },
      [{ path: ['spreadConstraints', 0, 'maxGroups'], message: 'maxGroups lower than minGroups is not allowed' }],
    ],
    [
      'spreadConstraint maxGroups lower than 0',
      { spreadConstraints: [{ maxGroups: -1, minGroups: 1 }] },
      [{ path: ['spreadConstraints', 0, 'maxGroups'], message: 'maxGroups lower than 0 is not allowed' }],
    ],
    [
      'spreadConstraint minGroups lower than 0',
      { spreadConstraints: [{ maxGroups: 2, minGroups: -2 }] },
      [{ path: ['spreadConstraints', 0, 'minGroups'], message: 'minGroups lower than 0 is not allowed' }],
    ],
    [
      'spreadConstraint has two cluster spread constraints',
      {
        spreadConstraints: [
          { spreadByField: 'cluster', maxGroups: 2, minGroups: -2 },
          { spreadByField: 'cluster', maxGroups: 5, minGroups: 3 },
          { spreadByLabel: 'grouped-by-net', maxGroups: 5, minGroups: 3 },
        ],
      },
      [
        { path: ['spreadConstraints', 0, 'minGroups'], message: 'minGroups lower than 0 is not allowed' },
        { path: ['spreadConstraints', 1, 'spreadByField'], message: 'multiple cluster spread constraints are not allowed' },
      ],
    ],
    [
      'spreadConstraint has multiple region spread constraints',
      {
        spreadConstraints: [
          { spreadByField: 'region', maxGroups: 1, minGroups: 3 },
          { spreadByField: 'region', maxGroups: 4, minGroups: 2 },
          { spreadByField: 'region', maxGroups: 6, minGroups: 5 },
          { spreadByField: 'cluster', maxGroups: 10, minGroups: 5 },
        ],
      },
      [
        { path: ['spreadConstraints', 0, 'maxGroups'], message: 'maxGroups lower than minGroups is not allowed' },
        { path: ['spreadConstraints', 1, 'spreadByField'], message: 'multiple region spread constraints are not allowed' },
      ],
    ],
    [
      'spreadConstraint spreadByFieldCluster must be included if using spreadByField',
      { spreadConstraints: [{ spreadByField: 'region' }] },
      [{ path: ['spreadConstraints'], message: 'the cluster spread constraint must be enabled in one of the constraints in case of SpreadByField is enabled' }],
    ],
  ])('%s', (_, placement, expected) => {
    expect(issues(placement)).toEqual(expected);
  });
});

describe('validation beyond Karmada: what it accepts and can never match is refused', () => {
  it.each<[string, Record<string, unknown>, PropertyKey[], string]>([
    ['In without values', { matchExpressions: [{ key: 'region', operator: 'In' }] }, ['values'], 'must be non-empty when operator is In'],
    ['NotIn with an empty list', { matchExpressions: [{ key: 'zone', operator: 'NotIn', values: [] }] }, ['values'], 'must be non-empty when operator is NotIn'],
    ['a value that is not a label value', { matchExpressions: [{ key: 'region', operator: 'In', values: ['us east'] }] }, ['values', 0], expect.stringContaining('alphanumerics')],
  ])('%s', (_, fieldSelector, path, message) => {
    const [issue] = placementSchema.safeParse({ clusterAffinity: { fieldSelector } }).error?.issues ?? [];
    expect(issue).toMatchObject({ path: ['clusterAffinity', 'fieldSelector', 'matchExpressions', 0, ...path], message });
  });

  it('spreadByLabel must be a label key', () => {
    expect(issues({ spreadConstraints: [{ spreadByLabel: 'not a key' }] })).toEqual([
      { path: ['spreadConstraints', 0, 'spreadByLabel'], message: expect.stringContaining('qualified name') },
    ]);
  });

  it('an unknown spreadByField is refused', () => {
    expect(issues({ spreadConstraints: [{ spreadByField: 'rack' }] })[0]?.path).toEqual(['spreadConstraints', 0, 'spreadByField']);
  });
});

describe('the rules are checked after Karmada’s defaults (SetDefaultSpreadConstraints)', () => {
  it.each<[string, Record<string, unknown>, object]>([
    ['neither field nor label: by cluster, minGroups 1, maxGroups unset (0)', {}, { field: 'cluster', label: undefined, minGroups: 1, maxGroups: 0 }],
    ['minGroups 0 means 1', { spreadByField: 'region', minGroups: 0, maxGroups: 3 }, { field: 'region', label: undefined, minGroups: 1, maxGroups: 3 }],
    ['by label: no field', { spreadByLabel: 'net', minGroups: 2 }, { field: undefined, label: 'net', minGroups: 2, maxGroups: 0 }],
  ])('%s', (_, constraint, effective) => {
    expect(effectiveSpreadConstraint(constraint)).toEqual(effective);
  });

  it.each<[string, Record<string, unknown>[], boolean]>([
    ['a region constraint beside a defaulted one: the defaulted one is the cluster constraint', [{ spreadByField: 'region', maxGroups: 2 }, { maxGroups: 3 }], true],
    ['two defaulted ones are two cluster constraints', [{ maxGroups: 2 }, {}], false],
    ['maxGroups 0 (unset) is never lower than minGroups', [{ spreadByField: 'cluster', minGroups: 5 }], true],
    ['by label alone needs no cluster constraint', [{ spreadByLabel: 'net' }], true],
  ])('%s', (_, spreadConstraints, valid) => {
    expect(placementSchema.safeParse({ spreadConstraints }).success).toBe(valid);
  });

  it('applies to both policy kinds, and the error names the full field path', () => {
    const spec = { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], placement: { spreadConstraints: [{ spreadByField: 'zone' }] } };
    for (const [schema, policy] of [
      [propagationPolicySchema, { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'p', namespace: 'default' }, spec }],
      [clusterPropagationPolicySchema, { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'ClusterPropagationPolicy', metadata: { name: 'p' }, spec }],
    ] as const) {
      expect(schema.safeParse(policy).error?.issues.map((issue) => issue.path)).toEqual([['spec', 'placement', 'spreadConstraints']]);
    }
  });
});
