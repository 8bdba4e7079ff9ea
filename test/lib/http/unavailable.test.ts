import { describe, expect, it } from 'vitest';
import { ObjectService } from '../../../lib/controllers/object-service';
import { handleApiRequest } from '../../../lib/http/handle-request';
import { UnavailableError, type ObjectStore } from '../../../lib/ports/object-store';
import { MemorySystem } from '../../../lib/runtime/memory-system';
import { parseReply } from './support';

const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 1, template: { spec: { containers: [{ name: 'main', image: 'busybox' }] } } },
};

/** The in-memory store, but throttled for the operations named. */
function throttled(store: ObjectStore, operations: ReadonlyArray<keyof ObjectStore>): ObjectStore {
  return new Proxy(store, {
    get(target, property, receiver) {
      if (operations.includes(property as keyof ObjectStore)) return async () => Promise.reject(new UnavailableError('the object store is throttling requests'));
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

async function send(system: MemorySystem, store: ObjectStore, method: string, path: string, body?: unknown) {
  const context = { ...system.context, store };
  return parseReply(
    await handleApiRequest(
      { method, path, query: {}, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) },
      { objects: new ObjectService(context), store, events: system.events },
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
    const reply = await send(system, throttled(system.store, operations), method, path, body);
    expect(reply.statusCode).toBe(503);
    expect(reply.headers['retry-after']).toBe('1');
    expect(reply.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'ServiceUnavailable', code: 503, details: { retryAfterSeconds: 1 } });
    expect(await system.store.list('apps', 'Deployment')).toEqual([]);
  });
});
