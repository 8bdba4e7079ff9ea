import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyPropagationPolicy } from '../../../lib/api/propagation-policy';
import type { ResourceTemplate } from '../../../lib/api/resource-template';
import { policySpecificity, Specificity } from '../../../lib/policy/policy-match';
import { policyLookupKeys, policySelectorKeys, templateIndexKeys, templateLookup } from '../../../lib/policy/selector-index';
import { cpp, pp, template } from './support';

const KINDS = [
  { apiVersion: 'apps/v1', kind: 'Deployment' },
  { apiVersion: 'apps/v1', kind: 'StatefulSet' },
  { apiVersion: 'batch/v1', kind: 'Job' },
];
const NAMESPACES = ['default', 'team-a'];
const NAMES = ['web', 'api', 'batch'];
const KEYS = ['app', 'tier'];
const VALUES = ['x', 'y'];

const labelsArb = fc.dictionary(fc.constantFrom(...KEYS), fc.constantFrom(...VALUES), { maxKeys: 2 });

const requirementArb = fc.record({
  key: fc.constantFrom(...KEYS),
  operator: fc.constantFrom('In', 'NotIn', 'Exists', 'DoesNotExist'),
  values: fc.array(fc.constantFrom(...VALUES), { minLength: 1, maxLength: 2 }),
});

const labelSelectorArb = fc.record(
  { matchLabels: labelsArb, matchExpressions: fc.array(requirementArb, { maxLength: 2 }) },
  { requiredKeys: [] },
).map((selector) => ({
  ...selector,
  ...(selector.matchExpressions
    ? {
        matchExpressions: selector.matchExpressions.map((r) =>
          r.operator === 'Exists' || r.operator === 'DoesNotExist' ? { key: r.key, operator: r.operator } : r,
        ),
      }
    : {}),
}));

const selectorArb = fc.record(
  {
    kind: fc.constantFrom(...KINDS),
    namespace: fc.constantFrom(...NAMESPACES),
    name: fc.constantFrom(...NAMES),
    labelSelector: labelSelectorArb,
  },
  { requiredKeys: ['kind'] },
).map(({ kind, ...rest }) => ({ ...kind, ...rest }));

const policyArb: fc.Arbitrary<AnyPropagationPolicy> = fc
  .record({ cluster: fc.boolean(), namespace: fc.constantFrom(...NAMESPACES), selectors: fc.array(selectorArb, { minLength: 1, maxLength: 3 }) })
  .map(({ cluster, namespace, selectors }) =>
    cluster
      ? cpp('policy', { resourceSelectors: selectors })
      : pp('policy', { resourceSelectors: selectors.map(({ namespace: _ignored, ...selector }) => selector) }, namespace),
  );

const templateArb: fc.Arbitrary<ResourceTemplate> = fc
  .record({ kind: fc.constantFrom(...KINDS), namespace: fc.constantFrom(...NAMESPACES), name: fc.constantFrom(...NAMES), labels: labelsArb })
  .map(({ kind, namespace, name, labels }) => template(name, { ...kind, namespace, labels }));

/** Whether the template index, as a policy-change for `policy` looks it up, finds `candidate`. */
function templateFound(policy: AnyPropagationPolicy, candidate: ResourceTemplate): boolean {
  const indexed = new Set(templateIndexKeys(candidate));
  return policy.spec.resourceSelectors.some((selector) => {
    if (selector.apiVersion !== candidate.apiVersion || selector.kind !== candidate.kind) return false;
    const lookup = templateLookup(policy, selector);
    if (lookup.by === 'kind') return true;
    if (lookup.by === 'name') return lookup.namespace === (candidate.metadata.namespace ?? '') && lookup.name === candidate.metadata.name;
    return lookup.keys.some((key) => indexed.has(key));
  });
}

describe('selector indexes (policy priority and preemption (002): claims are decided among every policy that selects a template)', () => {
  it('policy priority and preemption (002): a template write finds every policy that selects it through the policy index', () => {
    fc.assert(
      fc.property(policyArb, templateArb, (policy, candidate) => {
        if (policySpecificity(policy, candidate) === Specificity.None) return;
        const lookedUp = new Set(policyLookupKeys(candidate));
        expect(policySelectorKeys(policy).some((key) => lookedUp.has(key))).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it('policy priority and preemption (002): a policy write finds every template it selects through the template index', () => {
    fc.assert(
      fc.property(policyArb, templateArb, (policy, candidate) => {
        if (policySpecificity(policy, candidate) === Specificity.None) return;
        expect(templateFound(policy, candidate)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });

  it.each([
    ['a selector by name is a point read', pp('p', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] }), { by: 'name', namespace: 'default', name: 'web' }],
    [
      'a label selector looks up one label and value',
      pp('p', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { app: 'web', tier: 'front' } } }] }),
      { by: 'index', keys: ['default|app=web'] },
    ],
    [
      'an In requirement looks up each value',
      pp('p', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a', 'b'] }] } }] }),
      { by: 'index', keys: ['default|app=a', 'default|app=b'] },
    ],
    [
      'only NotIn requirements: the whole namespace',
      pp('p', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchExpressions: [{ key: 'app', operator: 'NotIn', values: ['a'] }] } }] }),
      { by: 'index', keys: ['ns=default'] },
    ],
    ['a ClusterPropagationPolicy naming no namespace, by name: every namespace', cpp('c', { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }] }), { by: 'index', keys: ['name=web'] }],
    ['a ClusterPropagationPolicy for a whole kind: every template of it', cpp('c', {}), { by: 'kind' }],
  ])('%s', (_, policy, expected) => {
    expect(templateLookup(policy, policy.spec.resourceSelectors[0]!)).toEqual(expected);
  });
});
