import { setImmediate } from 'node:timers/promises';

/**
 * Waits for the next turn of the event loop. A property whose runs await only in-memory work is one
 * chain of microtasks, which holds the event loop for the whole assertion; on a loaded machine the
 * test worker then misses the replies to its reports to vitest (60 s) and the run fails though every
 * test passed. Each run of such a property starts with this.
 */
export function nextEventLoopTurn(): Promise<void> {
  return setImmediate();
}
