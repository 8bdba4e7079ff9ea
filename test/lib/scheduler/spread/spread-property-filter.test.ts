/**
 * Karmada's SpreadConstraint filter plugin, ported from
 * pkg/scheduler/framework/plugins/spreadconstraint/spread_constraint_test.go (TestSpreadConstraint_Filter).
 */
import { describe, expect, it } from 'vitest';
import type { SpreadConstraint } from '../../../../lib/api/spread-constraint';
import { describeFilterFailures } from '../../../../lib/scheduler/cluster-filter';
import { filterBySpreadProperties, missingSpreadProperty } from '../../../../lib/scheduler/spread/spread-property-filter';
import { clusterIn, type Topology } from './support';

const KARMADA = 'spread_constraint_test.go, TestSpreadConstraint_Filter';

describe(`a spread by a field keeps out clusters without it (${KARMADA})`, () => {
  it.each<[string, SpreadConstraint[], Topology, string | undefined]>([
    ['no spread constraints', [], {}, undefined],
    ['spread by provider - provider present', [{ spreadByField: 'provider' }], { provider: 'aws' }, undefined],
    ['spread by provider - provider missing', [{ spreadByField: 'provider' }], {}, 'did not have provider property'],
    ['spread by region - region present', [{ spreadByField: 'region' }], { region: 'us-west-2' }, undefined],
    ['spread by region - region missing', [{ spreadByField: 'region' }], {}, 'did not have region property'],
    ['spread by zone - zones present', [{ spreadByField: 'zone' }], { zones: ['us-west-2a'] }, undefined],
    ['spread by zone - zones missing', [{ spreadByField: 'zone' }], {}, 'did not have zones property'],
  ])('%s', (_, constraints, topology, reason) => {
    const failure = missingSpreadProperty(constraints, clusterIn('m1', topology));
    expect(failure && describeFilterFailures(1, new Map([[failure, 1]]))).toBe(reason && `0/1 clusters are available: 1 ${reason}`);
  });

  it('a spread by cluster or by label needs no field; the first constraint whose field is missing is the reason', () => {
    expect(missingSpreadProperty([{ spreadByField: 'cluster' }, { spreadByLabel: 'net' }], clusterIn('m1', {}))).toBeUndefined();
    expect(missingSpreadProperty([{ spreadByField: 'zone' }, { spreadByField: 'region' }], clusterIn('m1', {}))).toBe('no-zones');
    expect(missingSpreadProperty([{ spreadByField: 'zone' }], clusterIn('m1', { zones: [] }))).toBe('no-zones');
  });

  it('counts the clusters it keeps out beside the other filters’ failures, keeping the order of the rest', () => {
    const clusters = [clusterIn('a', { region: 'r1' }), clusterIn('b', {}), clusterIn('c', { region: 'r2' })].map((cluster) => ({ cluster }));
    const result = filterBySpreadProperties({ feasible: clusters, failures: new Map([['taint', 2]]) }, [{ spreadByField: 'region' }, { spreadByField: 'cluster' }]);
    expect(result.feasible.map((c) => c.cluster.metadata.name)).toEqual(['a', 'c']);
    expect([...result.failures]).toEqual([['taint', 2], ['no-region', 1]]);
  });
});
