/**
 * OverridePolicy and ClusterOverridePolicy are stored with Karmada's schema (override_types.go) and its
 * validating webhook's rules (pkg/util/validation/validation.go, ValidateOverrideSpec and the
 * overrider checks), each refusal naming the field.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject, isOverridePolicy, isTemplate } from '../../../lib/api/decode';
import { BUNDLE_OBJECTS } from '../../support/bundle-objects';
import { refusalCauses } from '../../support/refusal-causes';

const causesOf = (raw: unknown) => refusalCauses(() => decodeObject(raw));

const override = (spec: Record<string, unknown>, kind = 'OverridePolicy') => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind,
  metadata: kind === 'OverridePolicy' ? { name: 'o', namespace: 'shop' } : { name: 'o' },
  spec,
});
const rules = (overriders: Record<string, unknown>) => ({ overrideRules: [{ targetCluster: { clusterNames: ['member1'] }, overriders }] });

describe('OverridePolicy and ClusterOverridePolicy', () => {
  it('accepts Karmada\'s overriders, and is no template', () => {
    for (const kind of ['OverridePolicy', 'ClusterOverridePolicy']) {
      const object = decodeObject(BUNDLE_OBJECTS[kind]!());
      expect(isOverridePolicy(object)).toBe(true);
      expect(isTemplate(object)).toBe(false);
    }
    const all = rules({
      commandOverrider: [{ containerName: 'main', operator: 'add', value: ['--verbose'] }],
      argsOverrider: [{ containerName: 'main', operator: 'remove', value: ['--debug'] }],
      fieldOverrider: [{ fieldPath: '/data/config.yaml', yaml: [{ subPath: '/db/host', operator: 'replace', value: 'db.eu' }] }],
      imageOverrider: [{ predicate: { path: '/spec/template/spec/containers/0/image' }, component: 'Tag', operator: 'replace', value: 'v2' }],
    });
    expect(decodeObject(override(all))).toMatchObject({ kind: 'OverridePolicy' });
    expect(decodeObject(override({ targetCluster: { clusterNames: ['member1'] }, overriders: { plaintext: [{ path: '/spec/replicas', operator: 'remove' }] } }))).toMatchObject({ kind: 'OverridePolicy' });
  });

  it.each<[string, Record<string, unknown>, { field: string; message: string }]>([
    ['targetCluster beside overrideRules', { targetCluster: { clusterNames: ['m1'] }, ...rules({}) }, { field: 'spec.targetCluster', message: "overrideRules and targetCluster can't co-exist" }],
    ['overriders beside overrideRules', { overriders: { plaintext: [{ path: '/a', operator: 'remove' }] }, ...rules({}) }, { field: 'spec.overriders', message: "overrideRules and overriders can't co-exist" }],
    ['an add without a value', rules({ plaintext: [{ path: '/spec/replicas', operator: 'add' }] }), { field: 'spec.overrideRules[0].overriders.plaintext[0].value', message: 'is required for the add operation' }],
    ['a remove with a value', rules({ plaintext: [{ path: '/spec/replicas', operator: 'remove', value: 1 }] }), { field: 'spec.overrideRules[0].overriders.plaintext[0].value', message: 'is not allowed for the remove operation' }],
    ['a path that is no JSON pointer', rules({ plaintext: [{ path: 'spec/replicas', operator: 'remove' }] }), { field: 'spec.overrideRules[0].overriders.plaintext[0].path', message: 'must be a JSON pointer such as /spec/replicas' }],
    ['a field overrider with json and yaml', rules({ fieldOverrider: [{ fieldPath: '/data/a', json: [{ subPath: '/x', operator: 'remove' }], yaml: [{ subPath: '/y', operator: 'remove' }] }] }), { field: 'spec.overrideRules[0].overriders.fieldOverrider[0]', message: 'must set json or yaml, not both' }],
    ['an image component not known', rules({ imageOverrider: [{ component: 'Digest', operator: 'replace', value: 'x' }] }), { field: 'spec.overrideRules[0].overriders.imageOverrider[0].component', message: expect.any(String) }],
    ['a label that is no label', rules({ labelsOverrider: [{ operator: 'add', value: { 'bad key': 'x' } }] }), { field: 'spec.overrideRules[0].overriders.labelsOverrider[0].value.bad key', message: expect.stringContaining('qualified name') }],
    ['a selector of another namespace', { resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }, { field: 'spec.resourceSelectors[0].namespace', message: 'must be empty or the policy\'s own namespace "shop"' }],
  ])('refuses %s', (_, spec, cause) => {
    expect(causesOf(override(spec))).toContainEqual(cause);
  });

  it('lets a ClusterOverridePolicy select any namespace', () => {
    expect(decodeObject(override({ resourceSelectors: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'other' }] }, 'ClusterOverridePolicy'))).toMatchObject({ kind: 'ClusterOverridePolicy' });
  });
});
