import { sameJson } from './plain-object';
import type { ResourceBinding } from './resource-binding';

/**
 * kube-apiserver's rule for a custom resource with a status subresource, as Karmada's bindings are:
 * metadata.generation starts at 1 and moves by one on every write that changes the spec, and on no
 * other (metadata, status). The scheduler's own writes (spec.clusters) count as any other.
 */
export function generationAfter(next: Pick<ResourceBinding, 'spec'>, previous: Pick<ResourceBinding, 'spec' | 'metadata'> | undefined): number {
  if (!previous) return 1;
  const current = previous.metadata.generation ?? 0;
  return sameJson(next.spec, previous.spec) ? current : current + 1;
}

/**
 * A binding as the scheduler writes it over `previous` (its placement, its evictions): the generation
 * per generationAfter, and a scheduler that had observed `previous`'s spec observes its own change too
 * (Karmada's scheduler records it in the status once its placement is written), while a change it had
 * not observed yet stays unobserved.
 */
export function asWrittenByScheduler(next: ResourceBinding, previous: ResourceBinding): ResourceBinding {
  const generation = generationAfter(next, previous);
  const before = previous.metadata.generation ?? 0;
  if (generation === before) return next.metadata.generation === before ? next : { ...next, metadata: { ...next.metadata, generation } };
  const observed = next.status?.schedulerObservedGeneration;
  const current = observed === before ? { status: { ...next.status, schedulerObservedGeneration: generation } } : {};
  return { ...next, metadata: { ...next.metadata, generation }, ...current };
}
