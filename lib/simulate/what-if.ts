import { isDeepStrictEqual } from 'node:util';
import { NoRoomError } from '../api/no-room-error';
import { InvalidObjectError } from '../api/invalid-object-error';
import { apiGroupOf } from '../api/resource-template';
import type { SchedulerConfig } from '../config';
import { listBindings } from '../controllers/binding-requests';
import { liveSnapshot } from '../controllers/live-snapshot';
import { ConflictError, type StoredObject } from '../ports/object-store';
import { MemorySystem } from '../runtime/memory-system';
import { describeRaw, summarizeBinding, summarizeEvent, type SimulatedBinding, type SimulatedEvent } from './run-scenario';
import { stepsBetween } from './steps-between';

/** What applying some manifests now would do, decided on a copy of the live state; nothing live is written. */
export interface WhatIfResult {
  /** The scheduler's and the policy controller's decisions, as events, in the order they were made. */
  readonly decisions: SimulatedEvent[];
  /** The bindings placed otherwise than now (new ones included), before and after. */
  readonly placements: ReadonlyArray<{ readonly binding: string; readonly before: SimulatedBinding['clusters'] | null; readonly after: SimulatedBinding['clusters'] }>;
  /** The bindings preempted, as namespace/name. */
  readonly victims: readonly string[];
  /** Manifests that would be refused (not authorized for the caller, invalid, or in conflict), with why; none of them is applied. */
  readonly rejections: ReadonlyArray<{ readonly object: string; readonly message: string }>;
}

export interface WhatIfOptions {
  /**
   * Aborted when the what-if's answer has been given without it (its deadline passed, its client went):
   * the simulation stops at its next step (steps-between.ts) and rejects with the signal's reason.
   */
  readonly signal?: AbortSignal;
  /**
   * Why the caller could not write a manifest for real (the 403 its write would get), or undefined when
   * it could. A manifest refused is reported and not applied, so the result is what the caller's own
   * writes would do. Without it every manifest is tried.
   */
  readonly refusalOf?: (manifest: unknown) => Promise<string | undefined>;
}

/** Objects copied per step: at 10,000 workloads a slice and the snapshot's read of it hold the event loop about 15 ms. */
const COPY_SLICE = 1_000;

const nameOf = (binding: SimulatedBinding) => (binding.namespace ? `${binding.namespace}/${binding.name}` : binding.name);

/**
 * Copies `live` into the system slice by slice, each slice read as it comes by the informers of its
 * kinds, the scheduling snapshot among their handlers (an informer reads only what changed since its
 * last read), so that neither the copy nor the controllers' first read of it (together half a second
 * at 10,000 workloads) is one step: the informers end as warm as a running process's.
 */
async function copyInSlices(system: MemorySystem, live: readonly StoredObject[], betweenSteps: () => Promise<void>): Promise<void> {
  liveSnapshot(system.context);
  for (let start = 0; start < live.length; start += COPY_SLICE) {
    await betweenSteps();
    const slice = live.slice(start, start + COPY_SLICE);
    system.store.restore(slice);
    const oneOfEachKind = new Map(slice.map((object) => [`${object.kind}.${apiGroupOf(object.apiVersion)}`, object]));
    for (const { apiVersion, kind } of oneOfEachKind.values()) await system.context.informers.of(apiGroupOf(apiVersion), kind).sync();
  }
}

/**
 * Copies `live` into an in-memory system (the same controllers `outrank simulate` runs) as it is, no
 * change announced, so the controllers start from it as warm informers would instead of deciding every
 * template's claim again (`live` is handed over: frozen where it is, not copied); applies the
 * manifests the caller may write through the same write path as the API, lets the system settle, and
 * reports what changed. Its cost is the copy (every object of the fleet, once) and the work the
 * manifests cause, done step by step between other work of the process (steps-between.ts).
 */
export async function whatIf(live: readonly StoredObject[], manifests: readonly unknown[], config: SchedulerConfig, now: number, options: WhatIfOptions = {}): Promise<WhatIfResult> {
  const betweenSteps = stepsBetween(options.signal);
  const system = new MemorySystem(config);
  system.clock.advance(Math.max(0, now - system.clock.now()));
  await copyInSlices(system, live, betweenSteps);
  const before = new Map((await listBindings(system.context)).map((binding) => [nameOf(summarizeBinding(binding)), summarizeBinding(binding)]));

  const rejections: Array<{ object: string; message: string }> = [];
  for (const manifest of manifests) {
    const { kind, name } = describeRaw(manifest);
    try {
      const refused = await options.refusalOf?.(manifest);
      if (refused === undefined) await system.objects.apply(manifest);
      else rejections.push({ object: `${kind}/${name}`, message: refused });
    } catch (error) {
      if (!(error instanceof InvalidObjectError || error instanceof ConflictError || error instanceof NoRoomError)) throw error;
      rejections.push({ object: `${kind}/${name}`, message: error.message });
    }
    await betweenSteps();
  }
  await system.runUntilIdle(betweenSteps);

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
