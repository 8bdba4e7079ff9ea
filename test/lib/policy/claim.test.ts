import { describe, expect, it } from 'vitest';
import type { AnyPropagationPolicy } from '../../../lib/api/propagation-policy';
import { canPreempt, decideClaim, type ClaimDecision } from '../../../lib/policy/claim';
import { policyRef } from '../../../lib/policy/policy-match';
import { cpp, DEPLOYMENTS, pp, template } from './support';

const SPEC = 'policy priority and preemption (002)';

const web = template('web', { labels: { app: 'web' } });
const byName = { ...DEPLOYMENTS, name: 'web' };
const byLabel = { ...DEPLOYMENTS, labelSelector: { matchLabels: { app: 'web' } } };

/** A policy that may preempt: it must name the template (and its namespace, for a ClusterPropagationPolicy). */
function ppAlways(name: string, priority: number): AnyPropagationPolicy {
  return pp(name, { resourceSelectors: [byName], priority, preemption: 'Always' });
}
function cppAlways(name: string, priority: number): AnyPropagationPolicy {
  return cpp(name, { resourceSelectors: [{ ...byName, namespace: 'default' }], priority, preemption: 'Always' });
}

/** "claim p", "keep p", "preempt q from p" or "unclaimed", with the kind abbreviated. */
function summary(decision: ClaimDecision): string {
  const label = (policy: AnyPropagationPolicy) => `${policy.kind === 'PropagationPolicy' ? 'pp' : 'cpp'}/${policy.metadata.name}`;
  switch (decision.kind) {
    case 'unclaimed':
      return 'unclaimed';
    case 'keep':
    case 'claim':
      return `${decision.kind} ${label(decision.policy)}`;
    case 'preempt':
      return `preempt ${label(decision.policy)} from ${label(decision.from)}`;
  }
}

describe(`first claims (${SPEC}, "Summary"; issue 2 rule 1)`, () => {
  it.each<[string, AnyPropagationPolicy[], string]>([
    ['no policy', [], 'unclaimed'],
    ['no matching policy', [pp('other', { resourceSelectors: [{ ...DEPLOYMENTS, name: 'api' }] })], 'unclaimed'],
    ['a policy in another namespace', [pp('p', {}, 'team')], 'unclaimed'],
    ['the highest explicit priority', [pp('a', { priority: 1, resourceSelectors: [byName] }), pp('b', { priority: 2 })], 'claim pp/b'],
    ['a negative priority loses to the default 0', [pp('a', { priority: -1, resourceSelectors: [byName] }), pp('b', {})], 'claim pp/b'],
    ['equal priority: a name beats a label selector', [pp('a', { resourceSelectors: [byLabel] }), pp('b', { resourceSelectors: [byName] })], 'claim pp/b'],
    ['equal priority: a label selector beats kind only', [pp('a', {}), pp('b', { resourceSelectors: [byLabel] })], 'claim pp/b'],
    ['equal priority and selector: the smaller name', [pp('b', {}), pp('a-2', {}), pp('a-1', {})], 'claim pp/a-1'],
    ['a PropagationPolicy before a ClusterPropagationPolicy of higher priority', [cpp('c', { priority: 100, resourceSelectors: [byName] }), pp('p', { priority: -5 })], 'claim pp/p'],
    ['among ClusterPropagationPolicies, the highest priority', [cpp('a', { priority: 1 }), cpp('b', { priority: 3 }), pp('x', {}, 'team')], 'claim cpp/b'],
  ])('%s', (_, policies, expected) => {
    expect(summary(decideClaim(web, policies, undefined, true))).toBe(expected);
  });
});

describe(`claims are sticky (${SPEC})`, () => {
  it.each<[string, AnyPropagationPolicy[], AnyPropagationPolicy, string]>([
    ['a higher-priority policy without preemption', [pp('low', {}), pp('high', { priority: 9, resourceSelectors: [byName] })], pp('low', {}), 'keep pp/low'],
    ['a PropagationPolicy without preemption and a claiming ClusterPropagationPolicy', [cpp('c', {}), pp('p', { resourceSelectors: [byName] })], cpp('c', {}), 'keep cpp/c'],
    ['the claimant no longer selects the template', [pp('low', { resourceSelectors: [{ ...DEPLOYMENTS, name: 'api' }] }), pp('b', {}), pp('a', {})], pp('low', {}), 'claim pp/a'],
    ['the claimant was deleted: the next matching policy claims', [pp('second', {}), cpp('third', { priority: 9 })], pp('first', {}), 'claim pp/second'],
  ])('%s', (_, policies, current, expected) => {
    expect(summary(decideClaim(web, policies, policyRef(current), true))).toBe(expected);
  });
});

describe(`policy preemption (${SPEC}, "PreemptionBehavior")`, () => {
  it.each<[string, AnyPropagationPolicy[], AnyPropagationPolicy, string]>([
    ['Always with strictly higher priority, same scope (pp)', [pp('low', { priority: 1 }), ppAlways('high', 2)], pp('low', { priority: 1 }), 'preempt pp/high from pp/low'],
    ['Always with strictly higher priority, same scope (cpp)', [cpp('low', { priority: 1 }), cppAlways('high', 2)], cpp('low', { priority: 1 }), 'preempt cpp/high from cpp/low'],
    ['equal priority never preempts, even with a more specific selector', [pp('low', { priority: 2 }), ppAlways('same', 2)], pp('low', { priority: 2 }), 'keep pp/low'],
    ['lower priority does not preempt', [pp('low', { priority: 3 }), ppAlways('lower', 2)], pp('low', { priority: 3 }), 'keep pp/low'],
    ['a PropagationPolicy takes from a ClusterPropagationPolicy whatever the priorities', [cpp('c', { priority: 1000 }), ppAlways('p', -1000)], cpp('c', { priority: 1000 }), 'preempt pp/p from cpp/c'],
    ['a ClusterPropagationPolicy never takes from a PropagationPolicy', [pp('p', { priority: -1 }), cppAlways('c', 1000)], pp('p', { priority: -1 }), 'keep pp/p'],
    ['the highest-priority preemptor wins', [pp('low', {}), ppAlways('b', 5), ppAlways('a', 3)], pp('low', {}), 'preempt pp/b from pp/low'],
    ['a PropagationPolicy preempts before a higher ClusterPropagationPolicy', [cpp('low', {}), cppAlways('c', 50), ppAlways('p', 1)], cpp('low', {}), 'preempt pp/p from cpp/low'],
    ['a preemptor that does not select the template does nothing', [pp('low', {}), pp('other', { resourceSelectors: [{ ...DEPLOYMENTS, name: 'api' }], priority: 9, preemption: 'Always' })], pp('low', {}), 'keep pp/low'],
  ])('%s', (_, policies, current, expected) => {
    expect(summary(decideClaim(web, policies, policyRef(current), true))).toBe(expected);
  });

  it('the feature gate off: nothing preempts', () => {
    const decision = decideClaim(web, [cpp('c', {}), ppAlways('p', 9), pp('low', {})], policyRef(cpp('c', {})), false);
    expect(summary(decision)).toBe('keep cpp/c');
  });

  it.each([
    [3, 'keep pp/claimant'],
    [4, 'preempt pp/always from pp/claimant'],
    [5, 'preempt pp/always from pp/claimant'],
  ])('after the claimant drops from 5 to 3, an Always policy of priority %i (range (B, A]) → %s', (priority, expected) => {
    const before = pp('claimant', { priority: 5 });
    const after = pp('claimant', { priority: 3 });
    const always = ppAlways('always', priority);
    expect(summary(decideClaim(web, [before, always], policyRef(before), true))).toBe('keep pp/claimant');
    expect(summary(decideClaim(web, [after, always], policyRef(after), true))).toBe(expected);
  });
});

describe(`canPreempt (${SPEC})`, () => {
  it.each<[string, AnyPropagationPolicy, AnyPropagationPolicy, boolean]>([
    ['pp Never over lower pp', pp('p', { priority: 9 }), pp('q', {}), false],
    ['pp Always over lower pp', ppAlways('p', 1), pp('q', { priority: 0 }), true],
    ['pp Always over equal pp', ppAlways('p', 1), pp('q', { priority: 1 }), false],
    ['pp Always over higher pp', ppAlways('p', 1), pp('q', { priority: 2 }), false],
    ['cpp Always over lower cpp', cppAlways('p', 1), cpp('q', { priority: 0 }), true],
    ['cpp Always over equal cpp', cppAlways('p', 0), cpp('q', {}), false],
    ['pp Always over higher cpp', ppAlways('p', 0), cpp('q', { priority: 10 }), true],
    ['pp Never over lower cpp', pp('p', { priority: 10 }), cpp('q', {}), false],
    ['cpp Always over lower pp', cppAlways('p', 10), pp('q', {}), false],
  ])('%s → %s', (_, preemptor, claimant, expected) => {
    expect(canPreempt(preemptor, claimant)).toBe(expected);
  });
});
