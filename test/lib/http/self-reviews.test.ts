/**
 * SelfSubjectAccessReview and SelfSubjectReview (kubectl auth can-i, kubectl auth whoami), answered
 * from the tenancy rules: what a review allows is what a write is then allowed to do.
 */
import { describe, expect, it } from 'vitest';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';
import { Api } from './support';

const TENANCY: TenancySettings = { admins: ['ops'], tenants: [{ principals: ['alice'], namespaces: ['team-a'] }] };
const REVIEWS = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';

async function canI(api: Api, identity: string | undefined, resourceAttributes: Record<string, string>): Promise<{ allowed: boolean; reason: string }> {
  const reply = await api.send('POST', REVIEWS, {
    body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } },
    ...(identity ? { identity } : {}),
  });
  expect(reply.statusCode).toBe(201);
  return reply.body.status;
}

describe('SelfSubjectAccessReview', () => {
  const api = new Api(TENANCY);

  it.each([
    ['a tenant may create deployments in its namespace', 'alice', { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'team-a' }, true],
    ['a tenant may not create deployments in another namespace', 'alice', { verb: 'create', group: 'apps', resource: 'deployments', namespace: 'team-b' }, false],
    ['a tenant may not write cluster-scoped kinds', 'alice', { verb: 'create', group: 'scheduling.k8s.io', resource: 'priorityclasses' }, false],
    ['a tenant may patch bindings in its namespace (scheduling suspension (003))', 'alice', { verb: 'patch', group: 'work.karmada.io', resource: 'resourcebindings', namespace: 'team-a' }, true],
    ['nobody creates bindings: outrank writes them', 'ops', { verb: 'create', group: 'work.karmada.io', resource: 'resourcebindings', namespace: 'team-a' }, false],
    ['nobody writes events', 'ops', { verb: 'delete', resource: 'events', namespace: 'team-a' }, false],
    ['everyone may read', 'alice', { verb: 'list', group: 'cluster.karmada.io', resource: 'clusters' }, true],
    ['everyone may watch what can be listed, events too', 'alice', { verb: 'watch', resource: 'events', namespace: 'team-b' }, true],
    ['an admin may write anywhere', 'ops', { verb: 'delete', group: 'cluster.karmada.io', resource: 'clusters' }, true],
    ['a tenant may not write in every namespace at once', 'alice', { verb: 'delete', group: 'apps', resource: 'deployments' }, false],
    ['a resource the API does not serve is not allowed', 'ops', { verb: 'get', resource: 'pods', namespace: 'team-a' }, false],
    ['a tenant may scale deployments in its namespace', 'alice', { verb: 'patch', group: 'apps', resource: 'deployments', subresource: 'scale', namespace: 'team-a' }, true],
    ['nobody writes a binding\'s status: the scheduler does', 'ops', { verb: 'patch', group: 'work.karmada.io', resource: 'resourcebindings', subresource: 'status', namespace: 'team-a' }, false],
    ['a subresource that does not exist is not allowed', 'ops', { verb: 'get', group: 'apps', resource: 'deployments', subresource: 'logs', namespace: 'team-a' }, false],
  ])('%s', async (_, identity, attributes, allowed) => {
    const status = await canI(api, identity, attributes);
    expect(status.allowed).toBe(allowed);
    expect(status.reason.length).toBeGreaterThan(0);
  });

  it('agrees with the write it reviews: a denied create is then refused with 403', async () => {
    const attributes = { verb: 'create', group: 'policy.karmada.io', resource: 'propagationpolicies', namespace: 'team-b' };
    expect((await canI(api, 'alice', attributes)).allowed).toBe(false);
    const write = await api.send('POST', '/apis/policy.karmada.io/v1alpha1/namespaces/team-b/propagationpolicies', {
      identity: 'alice',
      body: { apiVersion: 'policy.karmada.io/v1alpha1', kind: 'PropagationPolicy', metadata: { name: 'p' }, spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }] } },
    });
    expect(write.statusCode).toBe(403);
  });

  it('without tenancy allows every write a resource supports', async () => {
    const open = new Api();
    expect((await canI(open, undefined, { verb: 'create', group: 'scheduling.k8s.io', resource: 'priorityclasses' })).allowed).toBe(true);
    expect((await canI(open, undefined, { verb: 'update', group: 'work.karmada.io', resource: 'resourcebindings', namespace: 'default' })).allowed).toBe(false);
  });

  it('refuses a review without a verb with 400', async () => {
    const reply = await api.send('POST', REVIEWS, { identity: 'alice', body: { spec: { resourceAttributes: { resource: 'deployments' } } } });
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(/^spec\.resourceAttributes/);
  });
});

describe('SelfSubjectReview', () => {
  it('names the caller', async () => {
    const reply = await new Api(TENANCY).send('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { identity: 'alice', body: {} });
    expect(reply.statusCode).toBe(201);
    expect(reply.body.status.userInfo.username).toBe('alice');
  });
});

describe('SelfSubjectAccessReview in protobuf, as kubectl sends it', () => {
  // kubectl auth can-i create deployments -n team-a, as kubectl v1.32 encodes it (group left empty).
  const KUBECTL_REVIEW =
    '6b3873000a320a17617574686f72697a6174696f6e2e6b38732e696f2f7631121753656c665375626a656374416363657373526576696577124a0a100a0012001a0022002a00320038004200122c0a2a0a067465616d2d6112066372656174651a0022002a106465706c6f796d656e74732e6170707332003a001a08080012001a0020001a002200';

  async function sendProtobuf(api: Api, hex: string) {
    const bytes = Buffer.from(hex, 'hex');
    const { handleApiRequest } = await import('../../../lib/http/handle-request');
    const response = await handleApiRequest(
      { method: 'POST', path: REVIEWS, query: {}, headers: { 'content-type': 'application/vnd.kubernetes.protobuf' }, body: bytes.toString('utf8'), bodyBytes: bytes },
      { objects: api.system.objects, store: api.system.store, events: api.system.events },
    );
    return { statusCode: response.statusCode, body: JSON.parse(response.body) };
  }

  it('reads the resource attributes from the protobuf body', async () => {
    const reply = await sendProtobuf(new Api(), KUBECTL_REVIEW);
    expect(reply.statusCode).toBe(201);
    expect(reply.body.spec.resourceAttributes).toEqual({ namespace: 'team-a', verb: 'create', resource: 'deployments.apps' });
  });

  it('refuses a body that is not Kubernetes protobuf with 400', async () => {
    const reply = await sendProtobuf(new Api(), '7b7d');
    expect(reply.statusCode).toBe(400);
    expect(reply.body.message).toMatch(/protobuf/);
  });
});
