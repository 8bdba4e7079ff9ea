import { describe, expect, it } from 'vitest';
import {
  describePolicy,
  explicitPriority,
  isClusterPolicy,
  policyRef,
  policySpecificity,
  samePolicy,
  Specificity,
} from '../../../lib/policy/policy-match';
import { cpp, DEPLOYMENTS, pp, template } from './support';

const web = template('web', { labels: { app: 'web', tier: 'front' } });

describe('policySpecificity (policy priority and preemption (002): implicit priority name > label selector > kind)', () => {
  it.each<[string, Record<string, unknown>, Specificity]>([
    ['kind only', DEPLOYMENTS, Specificity.KindOnly],
    ['matching name', { ...DEPLOYMENTS, name: 'web' }, Specificity.Name],
    ['other name', { ...DEPLOYMENTS, name: 'api' }, Specificity.None],
    ['name wins over a label selector that does not match', { ...DEPLOYMENTS, name: 'web', labelSelector: { matchLabels: { app: 'api' } } }, Specificity.Name],
    ['matching label selector', { ...DEPLOYMENTS, labelSelector: { matchLabels: { app: 'web' } } }, Specificity.LabelSelector],
    ['label selector with expressions', { ...DEPLOYMENTS, labelSelector: { matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }] } }, Specificity.LabelSelector],
    ['label selector that does not match', { ...DEPLOYMENTS, labelSelector: { matchLabels: { app: 'api' } } }, Specificity.None],
    ['other kind', { apiVersion: 'apps/v1', kind: 'StatefulSet' }, Specificity.None],
    ['other apiVersion', { apiVersion: 'apps/v1beta1', kind: 'Deployment' }, Specificity.None],
    ['matching namespace', { ...DEPLOYMENTS, namespace: 'default' }, Specificity.KindOnly],
  ])('one selector, %s → %s', (_, selector, expected) => {
    expect(policySpecificity(cpp('c', { resourceSelectors: [selector] }), web)).toBe(expected);
  });

  it('a ClusterPropagationPolicy selector for another namespace does not match', () => {
    expect(policySpecificity(cpp('c', { resourceSelectors: [{ ...DEPLOYMENTS, namespace: 'team' }] }), web)).toBe(Specificity.None);
  });

  it('takes the most specific of several selectors', () => {
    const policy = pp('p', {
      resourceSelectors: [DEPLOYMENTS, { ...DEPLOYMENTS, labelSelector: { matchLabels: { app: 'web' } } }, { ...DEPLOYMENTS, name: 'api' }],
    });
    expect(policySpecificity(policy, web)).toBe(Specificity.LabelSelector);
  });

  it.each<[string, ReturnType<typeof template>, Specificity, Specificity]>([
    ['a template in the policy namespace', web, Specificity.KindOnly, Specificity.KindOnly],
    ['a template in another namespace', template('web', { namespace: 'team' }), Specificity.None, Specificity.KindOnly],
    ['a cluster-scoped template (pp cannot match it)', template('w', { apiVersion: 'example.com/v1', kind: 'Widget', namespace: null, replicas: 1 }), Specificity.None, Specificity.KindOnly],
  ])('PropagationPolicy vs ClusterPropagationPolicy on %s', (_, object, ppExpected, cppExpected) => {
    const selector = { apiVersion: object.apiVersion, kind: object.kind };
    expect(policySpecificity(pp('p', { resourceSelectors: [selector] }), object)).toBe(ppExpected);
    expect(policySpecificity(cpp('c', { resourceSelectors: [selector] }), object)).toBe(cppExpected);
  });
});

describe('policy identity', () => {
  it('explicitPriority defaults to 0 (policy priority and preemption (002): +kubebuilder:default=0)', () => {
    expect(explicitPriority(pp('p', {}))).toBe(0);
    expect(explicitPriority(pp('p', { priority: -3 }))).toBe(-3);
    expect(explicitPriority(cpp('c', { priority: 9 }))).toBe(9);
  });

  it('tells the scopes apart', () => {
    expect(isClusterPolicy(pp('p', {}))).toBe(false);
    expect(isClusterPolicy(cpp('p', {}))).toBe(true);
  });

  it.each([
    [pp('p', {}), { kind: 'PropagationPolicy', namespace: 'default', name: 'p' }, 'PropagationPolicy default/p'],
    [cpp('p', {}), { kind: 'ClusterPropagationPolicy', namespace: '', name: 'p' }, 'ClusterPropagationPolicy p'],
  ])('policyRef and describePolicy of %#', (policy, ref, text) => {
    expect(policyRef(policy)).toEqual(ref);
    expect(describePolicy(policyRef(policy))).toBe(text);
  });

  it.each([
    [pp('p', {}), pp('p', { priority: 5 }), true],
    [pp('p', {}), pp('p', {}, 'team'), false],
    [pp('p', {}), pp('q', {}), false],
    [pp('p', {}), cpp('p', {}), false],
  ])('samePolicy %# → %s', (a, b, expected) => {
    expect(samePolicy(policyRef(a), policyRef(b))).toBe(expected);
  });
});
