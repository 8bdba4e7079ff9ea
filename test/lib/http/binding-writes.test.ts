import { describe, expect, it } from 'vitest';
import { POLICY_NAME_LABEL } from '../../../lib/api/resource-binding';
import { ADMIN, TEAM_A, TENANCY } from '../auth/support';
import { Api, cluster, job, propagationPolicy, type RequestOptions } from './support';

const BINDINGS = '/apis/work.karmada.io/v1alpha2/namespaces/team-a/resourcebindings';
const REPORT = `${BINDINGS}/report-job`;
const MERGE = 'application/merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const STRATEGIC = 'application/strategic-merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const PREEMPTIBILITY = 'kai.scheduler/preemptibility';
/** The rule every refusal names. */
const RULE = 'only spec.suspension and spec.rescheduleTriggeredAt may be changed';

/** As examples/003-scheduling-suspension.yaml, in a tenant's namespace: report-job waits, suspended. */
async function suspendedReport(): Promise<Api> {
  const api = new Api(TENANCY);
  await api.seed(cluster(), propagationPolicy('queued', 'team-a', { suspension: { scheduling: true } }), job('report', 'team-a'));
  return api;
}

/** The binding as the tenant reads it (the API answers no caller without an identity). */
async function stored(api: Api): Promise<any> {
  const reply = await api.send('GET', REPORT, { identity: TEAM_A });
  expect(reply.statusCode).toBe(200);
  return reply.body;
}

/** What kubectl apply --server-side sends of a file that sets the suspension alone. */
const appliedSuspension = (scheduling: boolean, metadata: Record<string, unknown> = {}) => ({
  apiVersion: 'work.karmada.io/v1alpha2',
  kind: 'ResourceBinding',
  metadata: { name: 'report-job', namespace: 'team-a', ...metadata },
  spec: { suspension: { scheduling } },
});

interface Refusal {
  readonly name: string;
  readonly request: RequestOptions & { readonly method?: string; readonly path?: string };
  /** The field the 422 names. */
  readonly field: string;
}

const REFUSALS: readonly Refusal[] = [
  { name: 'kubectl label (a merge patch of a label)', request: { body: { metadata: { labels: { team: 'a' } } }, contentType: MERGE }, field: 'metadata.labels[team]' },
  { name: 'the preemptibility label, by merge patch', request: { body: { metadata: { labels: { [PREEMPTIBILITY]: 'non-preemptible' } } }, contentType: MERGE }, field: `metadata.labels[${PREEMPTIBILITY}]` },
  { name: 'the claiming policy label, removed by merge patch', request: { body: { metadata: { labels: { [POLICY_NAME_LABEL]: null } } }, contentType: MERGE }, field: `metadata.labels[${POLICY_NAME_LABEL}]` },
  { name: 'kubectl annotate (a merge patch of an annotation)', request: { body: { metadata: { annotations: { note: 'x' } } }, contentType: MERGE }, field: 'metadata.annotations[note]' },
  { name: 'a finalizer, by merge patch', request: { body: { metadata: { finalizers: ['example.com/hold'] } }, contentType: MERGE }, field: 'metadata.finalizers' },
  {
    name: 'an owner reference, by merge patch',
    request: { body: { metadata: { ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '1' }] } }, contentType: MERGE },
    field: 'metadata.ownerReferences',
  },
  { name: 'the generation, by merge patch', request: { body: { metadata: { generation: 42 } }, contentType: MERGE }, field: 'metadata.generation' },
  {
    name: 'the preemptibility label, by JSON patch',
    request: { body: [{ op: 'add', path: `/metadata/labels/${PREEMPTIBILITY.replace('/', '~1')}`, value: 'non-preemptible' }], contentType: JSON_PATCH },
    field: `metadata.labels[${PREEMPTIBILITY}]`,
  },
  { name: 'a finalizer, by JSON patch', request: { body: [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/hold'] }], contentType: JSON_PATCH }, field: 'metadata.finalizers' },
  { name: 'the preemptibility label, by strategic merge patch', request: { body: { metadata: { labels: { [PREEMPTIBILITY]: 'non-preemptible' } } }, contentType: STRATEGIC }, field: `metadata.labels[${PREEMPTIBILITY}]` },
  {
    name: 'the preemptibility label, by server-side apply',
    request: { body: appliedSuspension(true, { labels: { [PREEMPTIBILITY]: 'non-preemptible' } }), contentType: APPLY },
    field: `metadata.labels[${PREEMPTIBILITY}]`,
  },
  {
    name: 'the suspension together with a label: neither is written',
    request: { body: { metadata: { labels: { team: 'a' } }, spec: { suspension: { scheduling: false } } }, contentType: MERGE },
    field: 'metadata.labels[team]',
  },
  { name: 'the placement, by merge patch', request: { body: { spec: { clusters: [{ name: 'member1', replicas: 1 }] } }, contentType: MERGE }, field: 'spec.clusters' },
  { name: 'the status, by JSON patch', request: { body: [{ op: 'add', path: '/status/schedulerObservedGeneration', value: 9 }], contentType: JSON_PATCH }, field: 'status' },
  {
    name: "the status, by merge patch of the status subresource (as Karmada's scheduler writes it)",
    request: { path: `${REPORT}/status`, body: { status: { schedulerObservedGeneration: 9 } }, contentType: MERGE },
    field: 'status',
  },
];

describe('the write rule of bindings (scheduling suspension (003)): only spec.suspension and spec.rescheduleTriggeredAt may be changed, by any caller', () => {
  it.each(REFUSALS.flatMap((refusal) => [ADMIN, TEAM_A].map((identity) => ({ ...refusal, identity, caller: identity === ADMIN ? 'an admin' : 'the tenant' }))))(
    '$caller writing $name: 422 Invalid naming $field, nothing written',
    async ({ request, field, identity }) => {
      const api = await suspendedReport();
      const before = await api.snapshot();
      const reply = await api.send(request.method ?? 'PATCH', request.path ?? REPORT, { ...request, identity });
      expect(reply.statusCode).toBe(422);
      expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Invalid', details: { name: 'report-job', kind: 'ResourceBinding' } });
      expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field, message: expect.stringContaining(RULE) }));
      expect(reply.body.message).toContain(`${field}: `);
      await api.system.runUntilIdle();
      expect(await api.snapshot()).toEqual(before);
    },
  );

  it.each([
    ['PUT', REPORT],
    ['PUT', `${REPORT}/status`],
  ])('%s %s: 405, nothing written', async (method, path) => {
    const api = await suspendedReport();
    const current = await stored(api);
    const before = await api.snapshot();
    const body = { ...current, metadata: { ...current.metadata, labels: { ...current.metadata.labels, [PREEMPTIBILITY]: 'non-preemptible' } } };
    const reply = await api.send(method, path, { body, contentType: method === 'PATCH' ? MERGE : 'application/json', identity: ADMIN });
    expect(reply.statusCode).toBe(405);
    expect(await api.snapshot()).toEqual(before);
  });

  it.each<[string, (current: any) => RequestOptions]>([
    ["kubectl patch --type merge -p '{\"spec\":{\"suspension\":{\"scheduling\":false}}}'", () => ({ body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE })],
    ['kubectl patch (a strategic merge patch)', () => ({ body: { spec: { suspension: { scheduling: false } } }, contentType: STRATEGIC })],
    ['kubectl patch --type json', () => ({ body: [{ op: 'replace', path: '/spec/suspension/scheduling', value: false }], contentType: JSON_PATCH })],
    ['kubectl apply --server-side of the suspension alone', () => ({ body: appliedSuspension(false), contentType: APPLY })],
    [
      'a merge patch naming the current resourceVersion, with the metadata as stored',
      (current) => ({ body: { metadata: { ...current.metadata }, spec: { suspension: { scheduling: false } } }, contentType: MERGE }),
    ],
    [
      'the whole object as read, managedFields, status and all, with the suspension changed (kubectl edit, a client that sends back what it got)',
      (current) => ({ body: { ...current, spec: { ...current.spec, suspension: { scheduling: false } } }, contentType: MERGE }),
    ],
  ])('resumes with %s, then is scheduled', async (_, request) => {
    const api = await suspendedReport();
    // A first write through the API, so that the binding carries managedFields as kubectl then reads it.
    expect((await api.send('PATCH', REPORT, { body: appliedSuspension(true), contentType: APPLY, identity: TEAM_A })).statusCode).toBe(200);
    const current = await stored(api);
    expect(current.metadata.managedFields).toEqual(expect.any(Array));
    const reply = await api.send('PATCH', REPORT, { ...request(current), identity: TEAM_A });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.suspension).toEqual({ scheduling: false });
    expect(reply.body.metadata.labels).toEqual(current.metadata.labels);
    await api.system.runUntilIdle();
    expect((await stored(api)).spec.clusters).toEqual([{ name: 'member1', replicas: 1 }]);
  });

  it('refuses a patch naming a resourceVersion that is no longer current with 409, nothing written', async () => {
    const api = await suspendedReport();
    const read = await stored(api);
    await api.send('PATCH', REPORT, { body: appliedSuspension(true), contentType: APPLY, identity: TEAM_A });
    const before = await api.snapshot();
    const reply = await api.send('PATCH', REPORT, { body: { metadata: { resourceVersion: read.metadata.resourceVersion }, spec: { suspension: { scheduling: false } } }, contentType: MERGE, identity: TEAM_A });
    expect(reply.statusCode).toBe(409);
    expect(await api.snapshot()).toEqual(before);
  });
});

describe("spec.rescheduleTriggeredAt: users ask for a fresh division, as Karmada's WorkloadRebalancer does", () => {
  /** report-job placed on member1, as examples/003 ends once resumed. */
  async function placedReport(): Promise<Api> {
    const api = new Api(TENANCY);
    await api.seed(cluster(), propagationPolicy('all', 'team-a'), job('report', 'team-a'));
    return api;
  }
  const at = (api: Api, offsetMs: number) => new Date(api.system.clock.now() + offsetMs).toISOString();

  it.each([
    ['kubectl patch --type merge', MERGE],
    ['kubectl patch (a strategic merge patch)', STRATEGIC],
  ])('set with %s to the server time: accepted, and the binding is scheduled again, after it', async (_, contentType) => {
    const api = await placedReport();
    const placedAt = (await stored(api)).status.lastScheduledTime;
    api.system.clock.advance(60_000);
    const reply = await api.send('PATCH', REPORT, { body: { spec: { rescheduleTriggeredAt: at(api, 0) } }, contentType, identity: TEAM_A });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.rescheduleTriggeredAt).toBe(at(api, 0));
    await api.system.runUntilIdle();
    const after = await stored(api);
    expect(after.status.lastScheduledTime).not.toBe(placedAt);
    expect(Date.parse(after.status.lastScheduledTime)).toBeGreaterThanOrEqual(Date.parse(after.spec.rescheduleTriggeredAt));
    expect(after.spec.clusters).toEqual([{ name: 'member1', replicas: 1 }]);
  });

  it('by server-side apply of that field alone', async () => {
    const api = await placedReport();
    const body = { apiVersion: 'work.karmada.io/v1alpha2', kind: 'ResourceBinding', metadata: { name: 'report-job', namespace: 'team-a' }, spec: { rescheduleTriggeredAt: at(api, -1_000) } };
    const reply = await api.send('PATCH', REPORT, { body, contentType: APPLY, identity: TEAM_A });
    expect(reply.statusCode).toBe(200);
    expect(reply.body.spec.rescheduleTriggeredAt).toBe(at(api, -1_000));
  });

  it.each([
    ['later than the server time', (api: Api) => at(api, 1_000), "must not be later than the server's time"],
    ['not an RFC 3339 time', () => 'tomorrow', 'must be an RFC 3339 time'],
  ])('%s: 422 naming spec.rescheduleTriggeredAt, nothing written', async (_, value, message) => {
    const api = await placedReport();
    const before = await api.snapshot();
    const reply = await api.send('PATCH', REPORT, { body: { spec: { rescheduleTriggeredAt: value(api) } }, contentType: MERGE, identity: TEAM_A });
    expect(reply.statusCode).toBe(422);
    expect(reply.body.details.causes).toContainEqual(expect.objectContaining({ field: 'spec.rescheduleTriggeredAt', message: expect.stringContaining(message) }));
    await api.system.runUntilIdle();
    expect(await api.snapshot()).toEqual(before);
  });
});

describe('the uids of a binding', () => {
  it("has its own metadata.uid and its template's in spec.resource.uid (Karmada's ObjectReference), both kept as it is written again", async () => {
    const api = new Api();
    await api.seed(cluster(), propagationPolicy('all', 'team-a'), job('report', 'team-a'));
    const template = (await api.get('/apis/batch/v1/namespaces/team-a/jobs/report')).body;
    const binding = (await api.get(REPORT)).body;
    expect(binding.metadata.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(binding.metadata.uid).not.toBe(template.metadata.uid);
    expect(binding.spec.resource).toEqual({ apiVersion: 'batch/v1', kind: 'Job', namespace: 'team-a', name: 'report', uid: template.metadata.uid });

    await api.send('PATCH', REPORT, { body: { spec: { suspension: { scheduling: false } } }, contentType: MERGE });
    await api.seed({ ...job('report', 'team-a'), metadata: { ...job('report', 'team-a').metadata, labels: { changed: 'yes' } } });
    expect((await api.get(REPORT)).body.metadata.uid).toBe(binding.metadata.uid);
  });
});

describe("another scheduler's binding, written as Karmada's scheduler writes it (patchScheduleResultForResourceBinding, then the status)", () => {
  async function othersReport(cpu = '8'): Promise<Api> {
    const api = new Api(TENANCY);
    await api.seed(cluster('member1', cpu), propagationPolicy('theirs', 'team-a', { schedulerName: 'my-custom-scheduler' }), job('report', 'team-a'));
    return api;
  }

  it('its placement with the applied-placement annotation by merge patch, then the status by a merge patch of the status subresource: both written', async () => {
    const api = await othersReport();
    const placed = await api.send('PATCH', REPORT, {
      body: { metadata: { annotations: { 'policy.karmada.io/applied-placement': '{}' } }, spec: { clusters: [{ name: 'member1', replicas: 1 }] } },
      contentType: MERGE,
      identity: ADMIN,
    });
    expect(placed.statusCode).toBe(200);
    expect(placed.body.spec.clusters).toEqual([{ name: 'member1', replicas: 1 }]);
    const status = { schedulerObservedGeneration: placed.body.metadata.generation, conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success', message: 'Binding has been scheduled' }] };
    const observed = await api.send('PATCH', `${REPORT}/status`, { body: { status }, contentType: MERGE, identity: ADMIN });
    expect(observed.statusCode).toBe(200);
    expect(observed.body.status).toEqual(status);
    await api.system.runUntilIdle();
    expect((await stored(api)).spec.clusters).toEqual([{ name: 'member1', replicas: 1 }]);
  });

  it("a placement the cluster has no room for: 403 Forbidden, as a quota refuses, naming the cluster and the room; nothing written", async () => {
    const api = await othersReport('500m');
    const before = await api.snapshot();
    const reply = await api.send('PATCH', REPORT, { body: { spec: { clusters: [{ name: 'member1', replicas: 1 }] } }, contentType: MERGE, identity: ADMIN });
    expect(reply.statusCode).toBe(403);
    expect(reply.body).toMatchObject({
      kind: 'Status',
      reason: 'Forbidden',
      message: 'resourcebindings.work.karmada.io "report-job" is forbidden: exceeded room on cluster member1: requested: cpu=1,pods=1, placed: cpu=0,pods=0, capacity: cpu=500m,pods=110',
      details: { name: 'report-job', group: 'work.karmada.io', kind: 'resourcebindings' },
    });
    expect(await api.snapshot()).toEqual(before);
  });
});
