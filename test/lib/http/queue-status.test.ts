import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http';
import { MemorySystem } from '../../../lib/runtime/memory-system';

const get = (path: string, method = 'GET') => ({ method, path, query: {}, headers: {}, body: undefined });

describe('GET /outrank/v1/queues', () => {
  it('reports each queue depth, and all zero once the system is idle', async () => {
    const system = new MemorySystem();
    const deps = { objects: system.objects, store: system.store, events: system.events, queues: system.context.queues };
    await system.objects.apply({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' } });

    const busy = JSON.parse((await handleApiRequest(get('/outrank/v1/queues'), deps)).body);
    expect(busy.kind).toBe('QueueStatusList');
    expect(busy.items.map((q: { name: string }) => q.name)).toEqual([
      'policy-change', 'binding-enqueue', 'schedule-system', 'schedule-high', 'schedule-default', 'schedule-low',
    ]);
    expect(busy.items.find((q: { name: string }) => q.name === 'policy-change')).toEqual({ name: 'policy-change', visible: 1, inFlight: 0 });

    await system.runUntilIdle();
    const idle = JSON.parse((await handleApiRequest(get('/outrank/v1/queues'), deps)).body);
    expect(idle.items.every((q: { visible: number; inFlight: number }) => q.visible === 0 && q.inFlight === 0)).toBe(true);
  });

  it('answers only GET, and is not served without queues', async () => {
    const system = new MemorySystem();
    const withQueues = { objects: system.objects, store: system.store, events: system.events, queues: system.context.queues };
    expect((await handleApiRequest(get('/outrank/v1/queues', 'POST'), withQueues)).statusCode).toBe(405);
    const withoutQueues = { objects: system.objects, store: system.store, events: system.events };
    expect((await handleApiRequest(get('/outrank/v1/queues'), withoutQueues)).statusCode).toBe(404);
  });
});
