/**
 * What-ifs a process runs at once, by default. A what-if is CPU work on the process's one event loop,
 * taken in steps between the process's other work (steps-between.ts): two at once keep the core busy,
 * one simulating while the other waits on its read of the live state, and each still finishes at about
 * half its speed alone; more would only share the core thinner, pushing every one of them towards its
 * deadline, and hold as many copies of the fleet in memory (210 MB each at 10,000 workloads).
 */
export const DEFAULT_WHAT_IF_CONCURRENCY = 2;

/**
 * The what-ifs running in a process, at most `size` of them: one more is refused at once (429) rather
 * than queued, so that waiting what-ifs never pile up behind a slow one.
 */
export class WhatIfSlots {
  private running = 0;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`what-if concurrency must be a whole number of at least 1, not ${size}`);
  }

  /** A slot, given back by calling the function returned (once); undefined when every slot is taken. */
  take(): (() => void) | undefined {
    if (this.running >= this.size) return undefined;
    this.running += 1;
    let held = true;
    return () => {
      if (held) this.running -= 1;
      held = false;
    };
  }
}
