import { setImmediate as nextTurnOfTheLoop } from 'node:timers/promises';

/**
 * What a simulation sharing its process with other work does between two of its steps. On in-memory
 * ports every `await` of a simulation resolves at once (a microtask), so without this it would hold the
 * event loop from its first step to its last: a write arriving meanwhile would not have its I/O served,
 * nor a deadline its timer. Each call lets the loop run whatever is waiting (setImmediate: after the
 * I/O callbacks and due timers), then ends the simulation by throwing the signal's reason if it has
 * been aborted meanwhile (its answer given without it), so that none of it runs on after the answer.
 */
export function stepsBetween(signal?: AbortSignal): () => Promise<void> {
  return async () => {
    signal?.throwIfAborted();
    await nextTurnOfTheLoop();
    signal?.throwIfAborted();
  };
}
