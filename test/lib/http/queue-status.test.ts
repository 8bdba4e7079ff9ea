import { describe, expect, it } from 'vitest';
import { handleApiRequest } from '../../../lib/http';
import { MemorySystem } from '../../../lib/runtime/memory-system';

/** The in-memory system's queues, in the order the stack's are listed. */
const queuesOf = (system: MemorySystem) => [system.policyChangeQueue, system.bindingEnqueueQueue, ...system.bandQueues.values()];
const get = (path: string, method = 'GET') => ({ method, path, query: {}, headers: {}, body: undefined });

describe('GET /outrank/v1/queues', () => {
  it('reports each queue depth, and all zero once the system is idle', async () => {
    const system = new MemorySystem();
    const deps = { objects: system.objects, store: system.store, events: system.events, queues: queuesOf(system) };
    await system.objects.apply({ apiVersion: 'cluster.karmada.io/v1alpha1', kind: 'Cluster', metadata: { name: 'm1' } });

    const busy = JSON.parse((await handleApiRequest(get('/outrank/v1/queues'), deps)).body);
    expect(busy.kind).toBe('QueueStatusList');
    expect(busy.items.map((q: { name: string }) => q.name)).toEqual([
      'policy-change', 'binding-enqueue', 'schedule-system', 'schedule-high', 'schedule-default', 'schedule-low',
    ]);
    expect(busy.items.find((q: { name: string }) => q.name === 'policy-change')).toEqual({ name: 'policy-change', visible: 1, inFlight: 0, deadLettered: 0 });

    await system.runUntilIdle();
    const idle = JSON.parse((await handleApiRequest(get('/outrank/v1/queues'), deps)).body);
    expect(idle.items.every((q: { visible: number; inFlight: number }) => q.visible === 0 && q.inFlight === 0)).toBe(true);
  });

  it('reports what a queue has given up on: a message received too often without being handled is dead-lettered', async () => {
    const system = new MemorySystem();
    const deps = { objects: system.objects, store: system.store, events: system.events, queues: queuesOf(system) };
    const queue = system.context.queues.bindingEnqueue;
    await queue.send([{ body: { binding: { kind: 'ResourceBinding', namespace: 'default', name: 'poison' }, resourceVersion: '1' }, groupId: 'poison', deduplicationId: 'poison' }]);
    // Received and never deleted nor handed back: each redelivery counts, until the redrive moves it.
    for (let receives = 0; receives < 20 && (await queue.depth()).visible + (await queue.depth()).inFlight > 0; receives += 1) {
      for (const delivery of await queue.receive(10)) await queue.retryAfter(delivery.receipt, 0);
    }
    const status = JSON.parse((await handleApiRequest(get('/outrank/v1/queues'), deps)).body);
    expect(status.items.find((q: { name: string }) => q.name === 'binding-enqueue')).toEqual({ name: 'binding-enqueue', visible: 0, inFlight: 0, deadLettered: 1 });
  });

  it('answers only GET, and is not served without queues', async () => {
    const system = new MemorySystem();
    const withQueues = { objects: system.objects, store: system.store, events: system.events, queues: queuesOf(system) };
    expect((await handleApiRequest(get('/outrank/v1/queues', 'POST'), withQueues)).statusCode).toBe(405);
    const withoutQueues = { objects: system.objects, store: system.store, events: system.events };
    expect((await handleApiRequest(get('/outrank/v1/queues'), withoutQueues)).statusCode).toBe(404);
  });
});
