/**
 * SelfSubjectRulesReview (kubectl auth can-i --list) and wildcard access reviews (kubectl auth can-i
 * '*' '*'), answered from the tenancy rules.
 */
import { describe, expect, it } from 'vitest';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';
import { Api } from './support';

const TENANCY: TenancySettings = { admins: ['ops'], tenants: [{ principals: ['alice'], namespaces: ['team-a'] }] };
const RULES = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';
const ACCESS = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const READS = { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] };

async function rules(api: Api, identity: string | undefined, namespace: string) {
  const reply = await api.send('POST', RULES, { body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace } }, ...(identity ? { identity } : {}) });
  expect(reply.statusCode).toBe(201);
  expect(reply.body).toMatchObject({ kind: 'SelfSubjectRulesReview', spec: { namespace }, status: { incomplete: false } });
  return reply.body.status;
}

describe('SelfSubjectRulesReview', () => {
  const api = new Api(TENANCY);

  it('an admin may do anything, and read everything', async () => {
    expect((await rules(api, 'ops', 'team-a')).resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, READS]);
  });

  it('a tenant writes in its namespace what users write there: bindings only patched, events never', async () => {
    const { resourceRules } = await rules(api, 'alice', 'team-a');
    expect(resourceRules).toContainEqual({ verbs: ['create', 'delete', 'patch', 'update'], apiGroups: ['apps'], resources: ['deployments', 'statefulsets', 'replicasets'] });
    expect(resourceRules).toContainEqual({ verbs: ['patch'], apiGroups: ['work.karmada.io'], resources: ['resourcebindings'] });
    expect(resourceRules.flatMap((rule: { resources: string[] }) => rule.resources)).not.toContain('events');
    expect(resourceRules.at(-1)).toEqual(READS);
  });

  it('a tenant only reads in another namespace', async () => {
    expect((await rules(api, 'alice', 'team-b')).resourceRules).toEqual([READS]);
  });

  it('every caller reads the discovery, OpenAPI and health paths', async () => {
    expect((await rules(api, 'alice', 'team-b')).nonResourceRules).toEqual([{ verbs: ['get'], nonResourceURLs: expect.arrayContaining(['/api', '/apis/*', '/openapi/*', '/readyz']) }]);
  });

  it('without tenancy every caller is an admin', async () => {
    expect((await rules(new Api(), undefined, 'default')).resourceRules[0]).toEqual({ verbs: ['*'], apiGroups: ['*'], resources: ['*'] });
  });
});

describe('wildcard access reviews', () => {
  const api = new Api(TENANCY);

  async function canI(identity: string, resourceAttributes: Record<string, string>): Promise<boolean> {
    const reply = await api.send('POST', ACCESS, { body: { spec: { resourceAttributes } }, identity });
    expect(reply.statusCode).toBe(201);
    return reply.body.status.allowed;
  }

  it.each([
    ['an admin may do anything to anything', 'ops', { verb: '*', resource: '*', group: '*' }, true],
    ['a tenant may not do anything to anything', 'alice', { verb: '*', resource: '*', group: '*', namespace: 'team-a' }, false],
    ['a tenant may list every resource', 'alice', { verb: 'list', resource: '*', group: '*' }, true],
    ['a tenant may not create every resource in its namespace', 'alice', { verb: 'create', resource: '*', group: '*', namespace: 'team-a' }, false],
  ])('%s', async (_, identity, attributes, allowed) => {
    expect(await canI(identity, attributes)).toBe(allowed);
  });
});
