/**
 * RBAC objects are validated as kube-apiserver validates them (pkg/apis/rbac/validation): names are
 * path segments (system:… names carry colons), rules name verbs and resources or non-resource URLs,
 * bindings refer to a role of the RBAC group and name their subjects properly.
 */
import { describe, expect, it } from 'vitest';
import { decodeObject } from '../../../lib/api/decode';
import { BUNDLE_OBJECTS } from '../../support/bundle-objects';
import { refusalCauses } from '../../support/refusal-causes';

const RBAC = 'rbac.authorization.k8s.io';

const causesOf = (raw: unknown) => refusalCauses(() => decodeObject(raw));

const role = (rules: unknown[], kind = 'Role', name = 'reader') => ({ apiVersion: `${RBAC}/v1`, kind, metadata: { name }, rules });
const roleBinding = (fields: Record<string, unknown>, kind = 'RoleBinding') => ({
  apiVersion: `${RBAC}/v1`,
  kind,
  metadata: { name: 'readers' },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
  ...fields,
});

describe('Role and ClusterRole', () => {
  it.each([
    ['a system: name', role([], 'ClusterRole', 'system:aggregate-to-view')],
    ['an aggregated ClusterRole without rules', { ...role([], 'ClusterRole'), rules: undefined, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate': 'true' } }] } }],
    ['a rule on the core group', role([{ apiGroups: [''], resources: ['pods', 'pods/log'], resourceNames: ['web'], verbs: ['get'] }])],
    ['a ClusterRole rule on non-resource URLs', role([{ nonResourceURLs: ['/healthz', '/metrics/*'], verbs: ['get'] }], 'ClusterRole')],
  ])('accepts %s', (_, raw) => {
    expect(decodeObject(raw)).toMatchObject({ apiVersion: `${RBAC}/v1` });
  });

  it.each<[string, unknown, { field: string; message: string }]>([
    ['a rule without verbs', role([{ apiGroups: [''], resources: ['pods'], verbs: [] }]), { field: 'rules[0].verbs', message: 'must name at least one verb' }],
    ['a resource rule without API groups', role([{ resources: ['pods'], verbs: ['get'] }]), { field: 'rules[0].apiGroups', message: 'resource rules must supply at least one api group' }],
    ['a rule on nothing', role([{ apiGroups: [''], verbs: ['get'] }]), { field: 'rules[0].resources', message: 'resource rules must supply at least one resource' }],
    ['a Role rule on non-resource URLs', role([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]), { field: 'rules[0].nonResourceURLs', message: 'namespaced rules cannot apply to non-resource URLs' }],
    [
      'a ClusterRole rule on both',
      role([{ apiGroups: [''], resources: ['pods'], nonResourceURLs: ['/metrics'], verbs: ['get'] }], 'ClusterRole'),
      { field: 'rules[0].nonResourceURLs', message: 'rules cannot apply to both regular resources and non-resource URLs' },
    ],
    ['a name with a slash', role([], 'Role', 'a/b'), { field: 'metadata.name', message: 'must not be "." or "..", nor contain "/" or "%"' }],
    ['a name its binding could not be named after', role([], 'ClusterRole', 'system::view'), { field: 'metadata.name', message: expect.stringContaining('so that its binding can be named after it') }],
  ])('refuses %s', (_, raw, cause) => {
    expect(causesOf(raw)).toContainEqual(cause);
  });
});

describe('RoleBinding and ClusterRoleBinding', () => {
  it('accepts the bundle\'s bindings', () => {
    expect(decodeObject(BUNDLE_OBJECTS.RoleBinding!())).toMatchObject({ kind: 'RoleBinding' });
    expect(decodeObject(BUNDLE_OBJECTS.ClusterRoleBinding!())).toMatchObject({ kind: 'ClusterRoleBinding' });
  });

  it.each<[string, unknown, { field: string; message: string }]>([
    ['a roleRef of another group', roleBinding({ roleRef: { apiGroup: 'example.com', kind: 'Role', name: 'r' } }), { field: 'roleRef.apiGroup', message: `must be ${RBAC}` }],
    ['a ClusterRoleBinding to a Role', roleBinding({ roleRef: { apiGroup: RBAC, kind: 'Role', name: 'r' } }, 'ClusterRoleBinding'), { field: 'roleRef.kind', message: 'must be ClusterRole' }],
    ['no roleRef', { ...roleBinding({}), roleRef: undefined }, { field: 'roleRef', message: expect.any(String) }],
    ['a user without the RBAC group', roleBinding({ subjects: [{ kind: 'User', name: 'jane' }] }), { field: 'subjects[0].apiGroup', message: `must be ${RBAC} for a User` }],
    ['a service account with a group', roleBinding({ subjects: [{ kind: 'ServiceAccount', apiGroup: RBAC, name: 'web', namespace: 'default' }] }), { field: 'subjects[0].apiGroup', message: 'must be empty for a ServiceAccount' }],
    [
      'a service account without its namespace in a ClusterRoleBinding',
      roleBinding({ subjects: [{ kind: 'ServiceAccount', name: 'web' }] }, 'ClusterRoleBinding'),
      { field: 'subjects[0].namespace', message: 'is required for a ServiceAccount in a ClusterRoleBinding' },
    ],
    ['a subject of another kind', roleBinding({ subjects: [{ kind: 'Robot', name: 'r2' }] }), { field: 'subjects[0].kind', message: expect.any(String) }],
  ])('refuses %s', (_, raw, cause) => {
    expect(causesOf(raw)).toContainEqual(cause);
  });
});
