/**
 * POST /outrank/v1/whatif served by the API handler, in process on the in-memory system with example
 * 000's set-up live: what-ifs bounded per process, stopped when answered without them, answered out of
 * time as the reads they are, never holding up the writes beside them, and decided with the caller's
 * authorization.
 */
import { readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { Authorizer } from '../../../lib/auth/authorizer';
import { storedPriorityClasses } from '../../../lib/auth/priority-class-lookup';
import type { TenancySettings } from '../../../lib/auth/tenancy-settings';
import { Informer } from '../../../lib/cache/informer';
import { ObjectService } from '../../../lib/controllers/object-service';
import { PolicyChangeController } from '../../../lib/controllers/policy-change';
import { ScheduleCycleController } from '../../../lib/controllers/schedule-cycle';
import { answerWithin } from '../../../lib/http/answer-within';
import type { ApiDependencies, ApiRequest } from '../../../lib/http/api-types';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { WHAT_IF_PATH } from '../../../lib/http/what-if-request';
import { WhatIfSlots } from '../../../lib/http/what-if-slots';
import { MemoryObjectStore } from '../../../lib/memory/memory-store';
import type { ObjectStore } from '../../../lib/ports/object-store';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { loadScenario } from '../../../lib/simulate/load-scenario';
import { parseReply } from './support';

const example = loadScenario(readFileSync('examples/000-binding-preemption.yaml', 'utf8'));
const [setUp, arrival] = example.steps as [{ apply: unknown[] }, { apply: unknown[] }];

async function liveSystem(): Promise<MemorySystem> {
  const system = new MemorySystem();
  for (const object of setUp.apply) await system.objects.apply(object);
  await system.runUntilIdle();
  return system;
}

function depsOf(system: MemorySystem, more: Partial<ApiDependencies> = {}): ApiDependencies {
  return { objects: system.objects, store: system.store, events: system.events, config: system.context.config, clock: system.clock, ...more };
}

function whatIfRequest(manifests: readonly unknown[]): ApiRequest {
  return { method: 'POST', path: WHAT_IF_PATH, query: {}, headers: { 'content-type': 'application/json' }, body: manifests.map((manifest) => JSON.stringify(manifest)).join('\n---\n') };
}

const deployment = (name: string, priorityClassName: string, cpu: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { priorityClassName, containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu } } }] } } },
});

/** The store, its operations named waiting a turn of the event loop first, as a store across a network answers. */
function overTheNetwork(store: ObjectStore, operations: ReadonlyArray<keyof ObjectStore>, before: () => Promise<void> = () => nextTurn()): ObjectStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (!operations.includes(property as keyof ObjectStore)) return value.bind(target);
      return async (...args: unknown[]) => {
        await before();
        return (value as (...args: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Lets the event loop run whatever is left to run (a what-if goes a turn at a time). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await nextTurn();
}

const handlePolicyChange = PolicyChangeController.prototype.handle;

/** The steps of simulations: slices of a copy, informer reads, messages, scheduling batches. The live system runs none of them here. */
let stepSpies: MockInstance[] = [];
let policyChanges: MockInstance<PolicyChangeController['handle']>;
const steps = () => stepSpies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);

beforeEach(() => {
  policyChanges = vi.spyOn(PolicyChangeController.prototype, 'handle');
  stepSpies = [vi.spyOn(MemoryObjectStore.prototype, 'restore'), vi.spyOn(Informer.prototype, 'sync'), policyChanges, vi.spyOn(ScheduleCycleController.prototype, 'runBatch')];
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('what-ifs at once: a few run, the rest are refused at once, and none runs on after its answer', () => {
  it('20 at once with two slots: two answered 200 with the victims, 18 answered 429 with Retry-After at once; nothing runs after the answers', async () => {
    const system = await liveSystem();
    const deps = depsOf(system, { whatIfSlots: new WhatIfSlots(2) });
    const request = whatIfRequest(arrival.apply);
    const answers = (await Promise.all(Array.from({ length: 20 }, () => answerWithin(60_000, request, (signal) => handleApiRequest(request, deps, signal))))).map(parseReply);

    const answered = steps();
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([...Array(2).fill(200), ...Array(18).fill(429)]);
    for (const answer of answers.filter((reply) => reply.statusCode === 200)) expect(answer.body.victims).toEqual(['default/batch-p2-deployment']);
    for (const answer of answers.filter((reply) => reply.statusCode === 429)) {
      expect(answer.headers['retry-after']).toBe('1');
      expect(answer.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 1 } });
    }
    await settle();
    expect(steps()).toBe(answered);
    // The slots were given back.
    expect(parseReply(await handleApiRequest(request, deps)).statusCode).toBe(200);
  });

  it('one out of time is answered as a read (503, Retry-After), not as a write; its work stops then and gives its slot back', async () => {
    const system = await liveSystem();
    let readLiveState!: () => void;
    const readHeldUp = new Promise<void>((resolve) => (readLiveState = resolve));
    const internalErrors: unknown[] = [];
    const deps = depsOf(system, { store: overTheNetwork(system.store, ['list'], () => readHeldUp), whatIfSlots: new WhatIfSlots(1), onInternalError: (error) => internalErrors.push(error) });
    const request = whatIfRequest(arrival.apply);
    const before = steps();
    let work!: Promise<unknown>;

    const answer = parseReply(await answerWithin(5, request, (signal) => (work = handleApiRequest(request, deps, signal))));
    expect(answer.statusCode).toBe(503);
    expect(answer.headers['retry-after']).toBe('1');
    expect(answer.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', details: { retryAfterSeconds: 1 } });
    expect(answer.body.message).not.toContain('may still be completed');

    readLiveState();
    await work;
    await settle();
    expect(steps()).toBe(before);
    expect(internalErrors).toEqual([]);
    expect(parseReply(await handleApiRequest(request, { ...deps, store: system.store })).statusCode).toBe(200);
  });

  it('aborted in the middle of its simulation, it stops after the step under way: no later step starts', async () => {
    const system = await liveSystem();
    const answered = new AbortController();
    let stepsWhenAnswered: number | undefined;
    policyChanges.mockImplementation(async function (this: PolicyChangeController, change) {
      await handlePolicyChange.call(this, change);
      if (stepsWhenAnswered === undefined) {
        answered.abort();
        stepsWhenAnswered = steps();
      }
    });
    const request = whatIfRequest(arrival.apply);

    const answer = parseReply(await handleApiRequest(request, depsOf(system), answered.signal));
    await settle();
    expect(answer.statusCode).toBe(503);
    expect(stepsWhenAnswered).toBeGreaterThan(0);
    expect(steps()).toBe(stepsWhenAnswered);
  });

  it('a write sent while a what-if runs is answered before the what-if is: the what-if lets the event loop serve it between its steps', async () => {
    const system = await liveSystem();
    // The write's reads and commit wait for I/O, as on DynamoDB; the what-if's simulation is in memory.
    const store = overTheNetwork(system.store, ['get', 'getMany', 'transact']);
    const deps = depsOf(system, { store, objects: new ObjectService({ ...system.context, store }) });
    const finished: string[] = [];

    const whatIf = handleApiRequest(whatIfRequest(arrival.apply), deps).then((reply) => finished.push(`what-if ${reply.statusCode}`));
    const write = handleApiRequest(
      { method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', query: {}, headers: { 'content-type': 'application/json' }, body: JSON.stringify(deployment('late', 'p0', '1')) },
      deps,
    ).then((reply) => finished.push(`write ${reply.statusCode}`));
    await Promise.all([whatIf, write]);
    expect(finished).toEqual(['write 201', 'what-if 200']);
  });
});

describe('what-if with tenancy: decided with the caller\'s authorization', () => {
  const ADMIN = 'arn:aws:iam::1:role/platform';
  const TENANT = 'arn:aws:iam::1:role/team-default';
  const TENANCY: TenancySettings = { admins: [ADMIN], tenants: [{ principals: [TENANT], namespaces: ['default'] }], restrictedPriorityClasses: ['urgent'] };
  // member1 grown to 14 cpu (4 free), the urgent Deployment (5 cpu, restricted class), and one the tenant may write.
  const grownCluster = { ...(setUp.apply[0] as object), status: { resourceSummary: { allocatable: { cpu: '14', memory: '64Gi', pods: '110' } } } };
  const manifests = [grownCluster, deployment('urgent', 'urgent', '5'), deployment('late', 'p3', '1')];

  async function whatIfAs(system: MemorySystem, identity: string, tried: readonly unknown[]) {
    const deps = depsOf(system, { access: { identity, authorizer: new Authorizer(TENANCY, storedPriorityClasses(system.store)) } });
    const reply = parseReply(await handleApiRequest(whatIfRequest(tried), deps));
    expect(reply.statusCode).toBe(200);
    return reply.body;
  }

  it('a tenant\'s Cluster and restricted PriorityClass are rejections naming the rule, not applied: the result is what it is without them', async () => {
    const system = await liveSystem();
    const tenant = await whatIfAs(system, TENANT, manifests);
    expect(tenant.rejections).toEqual([
      { object: 'Cluster/member1', message: `user "${TENANT}" cannot patch clusters "member1" at the cluster scope: only admins write cluster-scoped objects` },
      {
        object: 'Deployment/urgent',
        message: `user "${TENANT}" cannot create deployments "urgent" in namespace "default": spec.template.spec.priorityClassName: PriorityClass "urgent" is restricted and not allowed in namespace "default"`,
      },
    ]);
    const without = await whatIfAs(system, TENANT, [manifests[2]]);
    expect(without.rejections).toEqual([]);
    expect({ ...tenant, rejections: [] }).toEqual(without);
    expect(tenant.victims).toEqual([]);
    expect(tenant.placements).toEqual([{ binding: 'default/late-deployment', before: null, after: [] }]);
  });

  it('an admin\'s what-if applies them: the urgent Deployment preempts, on the grown cluster, the one binding it still needs room from', async () => {
    const system = await liveSystem();
    const admin = await whatIfAs(system, ADMIN, manifests);
    expect(admin.rejections).toEqual([]);
    // On member1 as it is (10 cpu, full), urgent would preempt batch-p2 (5 cpu); with 4 cpu free, batch-p0 (1 cpu) is enough.
    expect(admin.victims).toEqual(['default/batch-p0-deployment']);
    expect(admin.placements).toContainEqual({ binding: 'default/urgent-deployment', before: null, after: [{ name: 'member1', replicas: 1 }] });
  });
});
