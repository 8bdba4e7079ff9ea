import { ApiError } from './status';

/** The most watches one caller holds open at once in a process when nothing else is set. */
export const DEFAULT_WATCHES_PER_CALLER = 20;

/**
 * The watches each caller holds open in this process, at most `perCaller` each: one client (a script
 * opening a watch per object, a browser with many console tabs) cannot take every watch the process
 * serves. Past the limit a watch is refused 429 TooManyRequests with Retry-After, as kube-apiserver's
 * priority and fairness refuses a request past a flow's share, and the client tries again.
 */
export class WatchSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly perCaller: number) {
    if (!Number.isSafeInteger(perCaller) || perCaller < 1) throw new Error(`watches per caller: must be a positive integer, not ${perCaller}`);
  }

  /** Takes a slot for the caller, or refuses with TooManyRequests; returns what gives the slot back (once). */
  take(caller: string): () => void {
    const held = this.open.get(caller) ?? 0;
    if (held >= this.perCaller) {
      throw new ApiError('TooManyRequests', `too many watches open: ${this.perCaller} at most per caller; close one or try again later`, { retryAfterSeconds: 1 });
    }
    this.open.set(caller, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(caller) ?? 1) - 1;
      if (left === 0) this.open.delete(caller);
      else this.open.set(caller, left);
    };
  }
}
