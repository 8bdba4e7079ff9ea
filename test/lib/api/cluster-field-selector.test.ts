/**
 * clusterAffinity.fieldSelector, ported from Karmada: pkg/util/selector_test.go (TestClusterMatches,
 * Test_matchZones, Test_extractClusterFields). Cases whose selector Karmada's webhook or outrank's
 * validation refuses are ported as refusals: the scheduler never sees them.
 */
import { describe, expect, it } from 'vitest';
import { clusterFieldSelectorSchema, matchesClusterFieldSelector } from '../../../lib/api/cluster-field-selector';
import { clusterAffinitySchema, type ClusterAffinity } from '../../../lib/api/propagation-policy';
import { matchesClusterAffinity } from '../../../lib/scheduler/cluster-filter';
import { clusterIn } from '../scheduler/spread/support';

const KARMADA = 'pkg/util/selector_test.go';

const cluster1 = clusterIn('cluster1', { zones: ['zone1', 'zone2', 'zone3'], region: 'region1', provider: 'provider1' }, { labels: { foo: 'bar' } });
const zones = ['zone1', 'zone2', 'zone3'];
const field = (key: string, operator: string, values: string[]) => ({ fieldSelector: { matchExpressions: [{ key, operator, values }] } });

describe(`ClusterMatches with field selectors (${KARMADA}, TestClusterMatches)`, () => {
  it.each<[string, Record<string, unknown>, boolean]>([
    ['test cluster excluded and names', { exclude: ['cluster1'], clusterNames: ['cluster1'] }, false],
    ['test cluster excluded and label selector', { exclude: ['cluster1'], labelSelector: { matchLabels: { foo: 'bar' } } }, false],
    ['test cluster excluded and field selector', { exclude: ['cluster1'], ...field('zone', 'In', zones) }, false],
    ['test cluster names', { clusterNames: ['cluster1'] }, true],
    ['test cluster names not matched', { clusterNames: ['cluster2'] }, false],
    ['test cluster names and label selector', { clusterNames: ['cluster1'], labelSelector: { matchLabels: { foo: 'bar' } } }, true],
    ['test cluster names and label selector not matched', { clusterNames: ['cluster1'], labelSelector: { matchLabels: { foo: 'unmatched' } } }, false],
    [
      'test cluster names and field selector(zone & region)',
      {
        clusterNames: ['cluster1'],
        fieldSelector: {
          matchExpressions: [
            { key: 'zone', operator: 'In', values: zones },
            { key: 'region', operator: 'In', values: ['region1'] },
          ],
        },
      },
      true,
    ],
    ['test cluster names and field selector(provider)', { clusterNames: ['cluster1'], ...field('provider', 'In', ['provider1']) }, true],
    ['test cluster names and field selector(region)', { clusterNames: ['cluster1'], ...field('region', 'In', ['region1']) }, true],
    ['test cluster names and field selector(zone not in)', { clusterNames: ['cluster1'], ...field('zone', 'NotIn', zones) }, false],
    ['test cluster names and field selector(provider not in)', { clusterNames: ['cluster1'], ...field('provider', 'NotIn', ['provider1']) }, false],
    ['test cluster names and field selector(region not in)', { clusterNames: ['cluster1'], ...field('region', 'NotIn', ['region1']) }, false],
    ['test label selector and field selector(zone)', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('zone', 'In', zones) }, true],
    ['test label selector and field selector(provider)', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('provider', 'In', ['provider1']) }, true],
    ['test label selector and field selector(region)', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('region', 'In', ['region1']) }, true],
    ['test label selector and field selector(zone not in)', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('zone', 'NotIn', zones) }, false],
    ['test label selector and field selector(provider) [NotIn]', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('provider', 'NotIn', ['provider1']) }, false],
    ['test label selector and field selector(region) [NotIn]', { labelSelector: { matchLabels: { foo: 'bar' } }, ...field('region', 'NotIn', ['region1']) }, false],
    ['test label selector', { labelSelector: { matchLabels: { foo: 'bar' } } }, true],
    ['test label selector not matched', { labelSelector: { matchLabels: { foo: 'unmatched' } } }, false],
    ['test empty cluster affinity matched', {}, true],
    ['test field selector zone matched', field('zone', 'In', zones), true],
    ['test field selector zone partially matched', { clusterNames: ['cluster1'], ...field('zone', 'NotIn', zones) }, false],
    ['test field selector zone not matched', { clusterNames: ['cluster1'], ...field('zone', 'In', ['zone2']) }, true],
    ['test field selector region matched', field('region', 'In', ['region1']), true],
    ['test field selector region not matched [NotIn]', { clusterNames: ['cluster1'], ...field('region', 'NotIn', ['region1']) }, false],
    ['test field selector region not matched [In region2]', { clusterNames: ['cluster1'], ...field('region', 'In', ['region2']) }, false],
    ['test field selector provider matched', field('provider', 'In', ['provider1']), true],
    ['test field selector provider not matched [NotIn]', field('provider', 'NotIn', ['provider1']), false],
    ['test field selector provider not matched [In provider2]', field('provider', 'In', ['provider2']), false],
    [
      'test field selector cluster names and label selector',
      { ...field('zone', 'In', zones), labelSelector: { matchLabels: { foo: 'bar' } }, clusterNames: ['cluster1'] },
      true,
    ],
    [
      'test field selector cluster names and label selector not matched [cluster2]',
      { ...field('zone', 'In', zones), labelSelector: { matchLabels: { foo: 'bar' } }, clusterNames: ['cluster2'] },
      false,
    ],
    [
      'test field selector cluster names and label selector not matched [zone NotIn]',
      { ...field('zone', 'NotIn', zones), labelSelector: { matchLabels: { foo: 'bar' } }, clusterNames: ['cluster1'] },
      false,
    ],
    [
      'test field selector cluster names and label selector not matched [label Unmatched]',
      { ...field('zone', 'In', zones), labelSelector: { matchLabels: { foo: 'Unmatched' } }, clusterNames: ['cluster1'] },
      false,
    ],
  ])('%s → %s', (_, affinity, expected) => {
    expect(matchesClusterAffinity(clusterAffinitySchema.parse(affinity) as ClusterAffinity, cluster1)).toBe(expected);
  });

  it.each<[string, Record<string, unknown>]>([
    ['test label selector error (an empty label key)', { labelSelector: { matchLabels: { '': 'bar' } } }],
    ['test field selector error (an empty key)', { fieldSelector: { matchExpressions: [{ key: '' }] } }],
    ['test field selector other key not matched (metadata.name)', field('metadata.name', 'In', ['cluster1'])],
  ])('%s: refused by validation, so never matched', (_, affinity) => {
    expect(clusterAffinitySchema.safeParse(affinity).success).toBe(false);
  });
});

describe(`zone expressions against spec.zones (${KARMADA}, Test_matchZones)`, () => {
  const withZones = (zoneList: string[] | undefined) => clusterIn('c', zoneList ? { zones: zoneList } : {});

  it.each<[string, string, string[], string[] | undefined, boolean]>([
    ['empty zones for In operator', 'In', ['foo'], undefined, false],
    ['overlapping zones for In operator', 'In', ['foo'], ['foo', 'bar'], true],
    ['all zones for In operator', 'In', ['foo', 'bar'], ['foo', 'bar'], true],
    ['empty zones for NotIn operator', 'NotIn', ['foo'], undefined, true],
    ['partial zones for NotIn operator', 'NotIn', ['foo'], ['foo', 'bar'], false],
  ])('%s → %s', (_, operator, values, clusterZones, expected) => {
    const selector = clusterFieldSelectorSchema.parse({ matchExpressions: [{ key: 'zone', operator, values }] });
    expect(matchesClusterFieldSelector(selector, withZones(clusterZones))).toBe(expected);
  });

  it.each([
    ['empty zones for Exists operator', 'Exists'],
    ['empty zones for DoesNotExist operator', 'DoesNotExist'],
    ['unknown operator', 'Gt'],
  ])('%s: refused by validation (In or NotIn only), so never matched', (_, operator) => {
    expect(clusterFieldSelectorSchema.safeParse({ matchExpressions: [{ key: 'zone', operator }] }).error?.issues[0]?.message).toBe(
      `unsupported operator "${operator}", must be In or NotIn`,
    );
  });
});

describe(`provider and region are matched only when set (${KARMADA}, Test_extractClusterFields)`, () => {
  it.each<[string, { provider?: string; region?: string }]>([
    ['empty', {}],
    ['provider is set', { provider: 'foo' }],
    ['region is set', { region: 'foo' }],
    ['all are set', { provider: 'foo', region: 'bar' }],
  ])('%s', (_, fields) => {
    const target = clusterIn('c', fields);
    for (const key of ['provider', 'region'] as const) {
      const value = fields[key];
      const matchIn = matchesClusterFieldSelector(clusterFieldSelectorSchema.parse({ matchExpressions: [{ key, operator: 'In', values: [value ?? 'foo'] }] }), target);
      const matchNotIn = matchesClusterFieldSelector(clusterFieldSelectorSchema.parse({ matchExpressions: [{ key, operator: 'NotIn', values: ['foo', 'bar'] }] }), target);
      expect({ key, matchIn, matchNotIn }).toEqual({ key, matchIn: value !== undefined, matchNotIn: value === undefined });
    }
  });

  it('an empty field is an absent one: In never holds, NotIn always does', () => {
    const blank = clusterIn('c', { provider: '', region: '' });
    const selector = (operator: string) =>
      clusterFieldSelectorSchema.parse({ matchExpressions: [{ key: 'provider', operator, values: ['x'] }, { key: 'region', operator, values: ['x'] }] });
    expect([matchesClusterFieldSelector(selector('In'), blank), matchesClusterFieldSelector(selector('NotIn'), blank)]).toEqual([false, true]);
  });

  it('an empty selector, or one without expressions, matches every cluster', () => {
    expect([matchesClusterFieldSelector(undefined, cluster1), matchesClusterFieldSelector({}, cluster1), matchesClusterFieldSelector({ matchExpressions: [] }, cluster1)]).toEqual([true, true, true]);
  });
});
