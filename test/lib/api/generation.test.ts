import { describe, expect, it } from 'vitest';
import { asWrittenByScheduler, generationAfter } from '../../../lib/api/generation';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import { binding } from '../scheduler/support';

/** A binding at generation 3, its spec observed by the scheduler at `observed`. */
function atGeneration3(observed = 3): ResourceBinding {
  const base = binding('web', { clusters: { m1: 2 } });
  return { ...base, metadata: { ...base.metadata, generation: 3 }, status: { schedulerObservedGeneration: observed } };
}

describe("metadata.generation follows the spec as kube-apiserver moves it for a custom resource with a status subresource", () => {
  const stored = atGeneration3();

  it.each<[string, ResourceBinding, number]>([
    ['a label added', { ...stored, metadata: { ...stored.metadata, labels: { team: 'a' } } }, 3],
    ['an owner reference added', { ...stored, metadata: { ...stored.metadata, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', uid: 'u1', controller: true }] } }, 3],
    ['the status written', { ...stored, status: { schedulerObservedGeneration: 3, conditions: [{ type: 'Scheduled', status: 'True', reason: 'Success' }] } }, 3],
    ['the same spec with its members in another order', { ...stored, spec: Object.fromEntries(Object.entries(stored.spec).reverse()) as ResourceBinding['spec'] }, 3],
    ['the placement changed (spec.clusters: the scheduler writes spec)', { ...stored, spec: { ...stored.spec, clusters: [{ name: 'm2', replicas: 2 }] } }, 4],
    ['the suspension changed', { ...stored, spec: { ...stored.spec, suspension: { scheduling: true } } }, 4],
    ['the scheduler name changed', { ...stored, spec: { ...stored.spec, schedulerName: 'my-custom-scheduler' } }, 4],
  ])('%s: generation %i', (_, next, generation) => {
    expect(generationAfter(next, stored)).toBe(generation);
  });

  it('starts at 1', () => {
    expect(generationAfter(stored, undefined)).toBe(1);
  });
});

describe("the scheduler's own writes: their generation moves, and a scheduler that had observed the spec observes its own change", () => {
  it('a new placement of a binding whose spec was observed: generation and observed generation move together', () => {
    const stored = atGeneration3();
    const written = asWrittenByScheduler({ ...stored, spec: { ...stored.spec, clusters: [{ name: 'm2', replicas: 2 }] } }, stored);
    expect(written.metadata.generation).toBe(4);
    expect(written.status?.schedulerObservedGeneration).toBe(4);
  });

  it('a change the scheduler had not observed yet stays unobserved (a victim evicted while its new spec waits)', () => {
    const stored = atGeneration3(2);
    const written = asWrittenByScheduler({ ...stored, spec: { ...stored.spec, clusters: undefined } }, stored);
    expect(written.metadata.generation).toBe(4);
    expect(written.status?.schedulerObservedGeneration).toBe(2);
  });

  it('a status-only write keeps both', () => {
    const stored = atGeneration3();
    const next = { ...stored, status: { ...stored.status, lastScheduledTime: '2026-01-01T00:00:00Z' } };
    expect(asWrittenByScheduler(next, stored)).toBe(next);
  });
});
