import { useEffect } from 'preact/hooks';
import { Samples, type Sample } from './series';

/**
 * What the console samples while it is open, for the last hour's charts: the API serves how things
 * stand now, not how they stood. Kept for the page's life, so that moving between pages keeps them.
 */

/** Messages waiting or in flight, per queue: sampled at every read of the queue depths, on every page. */
export const queueSamples = new Samples<Readonly<Record<string, number>>>();

/** Bindings waiting for a placement, per band: sampled while the Queue page is open. */
export const waitingSamples = new Samples<Readonly<Record<string, number>>>();

/** Clusters per fill bin, per resource: sampled while the Clusters page is open. */
export const fillSamples = new Samples<ReadonlyMap<string, readonly number[]>>();

/** The samples of the last hour with `value` as the one at `now`, which is kept once drawn. */
export function useSampled<T>(samples: Samples<T>, now: number, value: T): Array<Sample<T>> {
  useEffect(() => samples.add(now, value), [samples, now, value]);
  return samples.through(now, value);
}
