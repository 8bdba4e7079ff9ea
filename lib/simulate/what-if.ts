import { isDeepStrictEqual } from 'node:util';
import { InvalidObjectError } from '../api/invalid-object-error';
import type { SchedulerConfig } from '../config';
import { listBindings } from '../controllers/binding-requests';
import { ConflictError, type StoredObject } from '../ports/object-store';
import { MemorySystem } from '../runtime/memory-system';
import { describeRaw, summarizeBinding, summarizeEvent, type SimulatedBinding, type SimulationResult } from './run-scenario';

/** What applying some manifests now would do, decided on a copy of the live state; nothing live is written. */
export interface WhatIfResult {
  /** The scheduler's and the policy controller's decisions, as events, in the order they were made. */
  readonly decisions: SimulationResult['events'];
  /** The bindings placed otherwise than now (new ones included), before and after. */
  readonly placements: ReadonlyArray<{ readonly binding: string; readonly before: SimulatedBinding['clusters'] | null; readonly after: SimulatedBinding['clusters'] }>;
  /** The bindings preempted, as namespace/name. */
  readonly victims: readonly string[];
  /** Manifests that would be refused, with why. */
  readonly rejections: ReadonlyArray<{ readonly object: string; readonly message: string }>;
}

const nameOf = (binding: SimulatedBinding) => (binding.namespace ? `${binding.namespace}/${binding.name}` : binding.name);

/**
 * Copies `live` into an in-memory system (the same controllers `outrank simulate` runs) as it is, no
 * change announced, so the controllers start from it as warm informers would instead of deciding every
 * template's claim again (`live` is handed over: frozen where it is, not copied); applies `manifests` through the same write path as the API, lets the system
 * settle, and reports what changed. Its cost is the copy (every object of the fleet, once) and the
 * work the manifests cause.
 */
export async function whatIf(live: readonly StoredObject[], manifests: readonly unknown[], config: SchedulerConfig, now: number): Promise<WhatIfResult> {
  const system = new MemorySystem(config);
  system.clock.advance(Math.max(0, now - system.clock.now()));
  system.store.restore(live);
  const before = new Map((await listBindings(system.context)).map((binding) => [nameOf(summarizeBinding(binding)), summarizeBinding(binding)]));

  const rejections: Array<{ object: string; message: string }> = [];
  for (const manifest of manifests) {
    try {
      await system.objects.apply(manifest);
    } catch (error) {
      if (!(error instanceof InvalidObjectError || error instanceof ConflictError)) throw error;
      const { kind, name } = describeRaw(manifest);
      rejections.push({ object: `${kind}/${name}`, message: error.message });
    }
  }
  await system.runUntilIdle();

  const decisions = (await system.events.list()).map(summarizeEvent);
  const placements = (await listBindings(system.context))
    .map(summarizeBinding)
    .filter((binding) => !isDeepStrictEqual(before.get(nameOf(binding))?.clusters, binding.clusters))
    .map((binding) => ({ binding: nameOf(binding), before: before.get(nameOf(binding))?.clusters ?? null, after: binding.clusters }));
  const victims = decisions
    .filter((event) => event.reason === 'Preempted')
    .map((event) => (event.object.namespace ? `${event.object.namespace}/${event.object.name}` : event.object.name));
  return { decisions, placements, victims, rejections };
}
