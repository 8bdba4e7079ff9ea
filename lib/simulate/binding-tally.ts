import { refKey } from '../api/kinds';
import { bindingPriority, BINDING_GROUP, type ResourceBinding } from '../api/resource-binding';
import { bindingState } from '../format/columns';
import type { MemoryObjectStore } from '../memory/memory-store';

/** Where a binding stands: placed (Scheduled True), waiting for a placement, or with its scheduling suspended. */
export type Standing = 'placed' | 'waiting' | 'suspended';

export interface StandingCounts {
  placed: number;
  waiting: number;
  suspended: number;
}

export function standingOf(binding: ResourceBinding): Standing {
  const state = bindingState(binding);
  return state === 'Suspended' ? 'suspended' : state === 'True' ? 'placed' : 'waiting';
}

/** The key of a binding, as an event names it, in the tally. */
export function bindingKey(binding: { kind: string; namespace?: string; name: string }): string {
  return refKey({ group: BINDING_GROUP, kind: binding.kind, namespace: binding.namespace ?? '', name: binding.name });
}

/**
 * Every binding as last committed, and how many stand where at each priority, kept up to date by the
 * store's commits as they happen: after each step a simulation reads its counts without listing the
 * bindings, and a preemption finds its preemptor's placement as it was committed.
 */
export class BindingTally {
  private readonly bindings = new Map<string, ResourceBinding>();
  private readonly byPriority = new Map<number, StandingCounts>();

  constructor(store: MemoryObjectStore) {
    store.onCommit((changes) => {
      for (const change of changes) {
        if (change.ref.group !== BINDING_GROUP) continue;
        const key = refKey(change.ref);
        const previous = this.bindings.get(key);
        if (previous) this.count(previous, -1);
        const current = change.object as ResourceBinding | undefined;
        if (current) {
          this.bindings.set(key, current);
          this.count(current, 1);
        } else {
          this.bindings.delete(key);
        }
      }
    });
  }

  private count(binding: ResourceBinding, by: 1 | -1): void {
    const priority = bindingPriority(binding);
    let counts = this.byPriority.get(priority);
    if (!counts) this.byPriority.set(priority, (counts = { placed: 0, waiting: 0, suspended: 0 }));
    counts[standingOf(binding)] += by;
  }

  /** The binding as last committed. */
  get(key: string): ResourceBinding | undefined {
    return this.bindings.get(key);
  }

  /** How many stand where, of every priority. */
  totals(): StandingCounts {
    const totals = { placed: 0, waiting: 0, suspended: 0 };
    for (const counts of this.byPriority.values()) {
      totals.placed += counts.placed;
      totals.waiting += counts.waiting;
      totals.suspended += counts.suspended;
    }
    return totals;
  }

  /** How many stand where at each priority that has a binding, highest first. */
  priorities(): Array<{ priority: number } & StandingCounts> {
    return [...this.byPriority.entries()]
      .filter(([, counts]) => counts.placed + counts.waiting + counts.suspended > 0)
      .sort(([a], [b]) => b - a)
      .map(([priority, counts]) => ({ priority, ...counts }));
  }
}
