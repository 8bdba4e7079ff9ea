import { describe, expect, it } from 'vitest';
import { ObjectService } from '../../../lib/controllers/object-service';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { StoreTimeoutError, UnavailableError, type ObjectStore } from '../../../lib/ports/object-store';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { parseReply } from './support';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
};

/** The in-memory store, but failing with `failure` for the operations named. */
function failing(store: ObjectStore, operations: ReadonlyArray<keyof ObjectStore>, failure: () => Error): ObjectStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (operations.includes(property as keyof ObjectStore)) return async () => Promise.reject(failure());
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function send(system: MemorySystem, store: ObjectStore, method: string, path: string, body?: unknown, onStoreTimeout?: (error: StoreTimeoutError) => void) {
  const context = { ...system.context, store };
  return parseReply(
    await handleApiRequest(
      { method, path, query: {}, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) },
      { objects: new ObjectService(context), store, events: system.events, ...(onStoreTimeout ? { onStoreTimeout } : {}) },
    ),
  );
}

describe('a throttled store: 503 ServiceUnavailable with Retry-After, nothing written (as client-go expects to retry)', () => {
  it.each([
    { request: 'a read', method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments/web', operations: ['get'] as const },
    { request: 'a list', method: 'GET', path: '/apis/apps/v1/namespaces/default/deployments', operations: ['list'] as const },
    { request: 'a create', method: 'POST', path: '/apis/apps/v1/namespaces/default/deployments', body: deployment, operations: ['transact'] as const },
  ])('$request', async ({ method, path, body, operations }) => {
    const system = new MemorySystem();
    const reply = await send(system, failing(system.store, operations, () => new UnavailableError('the object store is throttling requests')), method, path, body);
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503, details: { retryAfterSeconds: 1 } });
    expect(await system.store.list('apps', 'Deployment')).toEqual([]);
  });
});

describe('a store that did not answer: a read 503 with Retry-After, a write 504 Timeout (it may have been made), as kube-apiserver answers a storage timeout', () => {
  const timedOut = () => new StoreTimeoutError('the object store did not answer: Connection timed out after the request was sent');

  it('a read', async () => {
    const system = new MemorySystem();
    const reply = await send(system, failing(system.store, ['get'], timedOut), 'GET', '/apis/apps/v1/namespaces/default/deployments/web');
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'ServiceUnavailable', code: 503 });
  });

  it('a create, its message saying to read the object before writing it again; the transport is told, to count it', async () => {
    const system = new MemorySystem();
    const told: StoreTimeoutError[] = [];
    const reply = await send(system, failing(system.store, ['transact'], timedOut), 'POST', '/apis/apps/v1/namespaces/default/deployments', deployment, (error) => told.push(error));
    expect(told.map((error) => error.message)).toEqual(['the object store did not answer: Connection timed out after the request was sent']);
    expect(reply.statusCode).toBe(504);
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Timeout', code: 504 });
    expect((reply.body as { message: string }).message).toMatch(/read the object/);
  });
});
