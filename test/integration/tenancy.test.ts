import type { Server } from 'node:http';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetControllerContext } from '../../functions/context';
import { startHttpGateway } from '../../functions/local/http-gateway';
import { localLambdaContext } from '../../functions/local/lambda-context';
import { loadLocalFunctions, type LocalFunctions } from '../../functions/local/local-functions';
import { localIdentity } from '../../functions/local/local-identity';
import { provisionTestAws, type TestAws } from '../support/aws';
import { apiEvent } from '../functions/api-event';
import { ADMIN, TEAM_A, TEAM_A_SESSION, TENANCY } from '../lib/auth/support';

const POLICIES = (namespace: string) => `/apis/policy.karmada.io/v1alpha1/namespaces/${namespace}/propagationpolicies`;
const PRIORITY_CLASSES = '/apis/scheduling.k8s.io/v1/priorityclasses';

const policy = (namespace: string, name: string, priorityClassName?: string) => ({
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name, namespace },
  spec: { resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }], ...(priorityClassName ? { schedulePriority: { priorityClassName } } : {}) },
});

/** The deployed api function in this process, on real tables and queues, with tenancy configured as the stack would pass it. */
describe('tenant isolation in the api function (API Gateway payload v2, IAM authorizer)', () => {
  let aws: TestAws;
  let functions: LocalFunctions;

  async function invoke(method: string, path: string, options: { body?: unknown; userArn?: string } = {}) {
    const result = await functions.api(apiEvent(method, path, options), localLambdaContext('outrank-api', 29_000));
    return { status: result.statusCode, body: JSON.parse(result.body ?? '') };
  }

  async function tableContents(): Promise<unknown[]> {
    const result = await aws.clients.documents.send(new ScanCommand({ TableName: aws.resources.objectsTable, ConsistentRead: true }));
    return (result.Items ?? []).sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`));
  }

  beforeAll(async () => {
    aws = await provisionTestAws();
    functions = await loadLocalFunctions(aws.clients, aws.resources, { tenancy: TENANCY }, () => undefined);
    const critical = { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'critical' }, value: 1_000_000 };
    expect((await invoke('POST', PRIORITY_CLASSES, { body: critical, userArn: ADMIN })).status).toBe(201);
  });

  afterAll(() => {
    // The next functions loaded in this process must not inherit this tenancy.
    delete process.env.OUTRANK_SETTINGS;
    resetControllerContext();
  });

  it('lets a tenant write its own namespace, identified by requestContext.authorizer.iam.userArn', async () => {
    const reply = await invoke('POST', POLICIES('team-a'), { body: policy('team-a', 'web'), userArn: TEAM_A_SESSION });
    expect(reply.status).toBe(201);
    expect((await invoke('GET', `${POLICIES('team-a')}/web`, { userArn: TEAM_A })).body.metadata.name).toBe('web');
  });

  it.each([
    ['another tenant\'s namespace', POLICIES('team-b'), policy('team-b', 'theirs'), 'not a namespace of this tenant'],
    ['a restricted PriorityClass', POLICIES('team-a'), policy('team-a', 'urgent', 'critical'), 'PriorityClass "critical" is restricted'],
    ['a PriorityClass, which is cluster-scoped', PRIORITY_CLASSES, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'mine' }, value: 2_000_000 }, 'only admins write cluster-scoped objects'],
  ])('refuses a tenant %s with 403 and writes nothing to DynamoDB', async (_, path, body, rule) => {
    const before = await tableContents();
    const reply = await invoke('POST', path, { body, userArn: TEAM_A });
    expect(reply.status).toBe(403);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Forbidden', code: 403 });
    expect(reply.body.message).toContain(`user "${TEAM_A}" cannot create`);
    expect(reply.body.message).toContain(rule);
    expect(await tableContents()).toEqual(before);
  });

  it('answers 401 to an event without an authenticated caller, writing nothing', async () => {
    const before = await tableContents();
    const reply = await invoke('POST', POLICIES('team-a'), { body: policy('team-a', 'anonymous') });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Unauthorized', code: 401 });
    expect(await tableContents()).toEqual(before);
  });

  it('takes the caller from x-outrank-identity in the local runtime only when told to trust it', async () => {
    const servers: Server[] = [];
    const urlOf = async (environment: NodeJS.ProcessEnv) => {
      const server = await startHttpGateway(functions.api, 0, localIdentity(environment));
      servers.push(server);
      const address = server.address();
      return `http://localhost:${typeof address === 'object' && address ? address.port : 0}`;
    };
    const post = (url: string, name: string) =>
      fetch(`${url}${POLICIES('team-a')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-outrank-identity': TEAM_A },
        body: JSON.stringify(policy('team-a', name)),
      });
    try {
      const trusting = await urlOf({ OUTRANK_IDENTITY: 'nobody', OUTRANK_TRUST_IDENTITY_HEADER: 'true' });
      expect((await post(trusting, 'by-header')).status).toBe(201);
      const distrusting = await urlOf({ OUTRANK_IDENTITY: 'nobody' });
      const refused = await post(distrusting, 'ignored-header');
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { message: string }).message).toContain('user "nobody" cannot create');
    } finally {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });
});
