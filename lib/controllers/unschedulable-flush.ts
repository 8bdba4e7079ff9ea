import { CONDITION_SCHEDULED, findCondition, type ResourceBinding } from '../api/resource-binding';
import type { SchedulerConfig } from '../config';
import { accumulate, type ResourceList } from '../resources';
import { scheduleBinding } from '../scheduler/schedule-binding';
import { bindingState, type SchedulingSnapshot } from '../scheduler/snapshot';
import { isWaitingForRoom } from './scheduling-need';

/**
 * Whether a binding waits for room: its last attempt found no cluster or no room (or it lost its
 * cluster). One whose attempt was cut short (SchedulerError) did not learn that, and is tried again
 * as any due binding.
 */
export function awaitsRoom(binding: ResourceBinding): boolean {
  return isWaitingForRoom(binding) && findCondition(binding, CONDITION_SCHEDULED)?.reason !== 'SchedulerError';
}

function byPriority(a: ResourceBinding, b: ResourceBinding): number {
  return bindingState(b).priority - bindingState(a).priority || (bindingState(a).key < bindingState(b).key ? -1 : 1);
}

/**
 * Binding priority and preemption (000), queue: an unschedulable binding is tried again at the latest
 * after the flush interval — if the scheduler would place it now. Of the waiting bindings given, the
 * ones it places on the snapshot (preempting where the binding may and the gate allows, as the cycle
 * would), highest priority first, each placement's room reserved against the ones after it: one pass
 * over the snapshot, no attempt and no message for a binding that would fail again, so a flush when
 * nothing changed sends nothing. Room freed in between has woken the ones that fit already (wake-up.ts).
 */
export function placeableNow(
  waiting: readonly ResourceBinding[],
  snapshot: SchedulingSnapshot,
  config: Pick<SchedulerConfig, 'gates' | 'victimSearchBudget'>,
  now: number,
): ResourceBinding[] {
  const reserved = new Map<string, ResourceList>();
  const placeable: ResourceBinding[] = [];
  for (const binding of [...waiting].sort(byPriority)) {
    const decision = scheduleBinding(binding, snapshot, {
      preemption: config.gates.PriorityBasedPreemptiveScheduling,
      victimSearchBudget: config.victimSearchBudget,
      reserved,
      now,
    });
    if (decision.result !== 'scheduled') continue;
    placeable.push(binding);
    const { request } = bindingState(binding);
    for (const target of decision.targets) {
      const taken = { ...reserved.get(target.name) };
      accumulate(taken, request, target.replicas);
      reserved.set(target.name, taken);
    }
  }
  return placeable;
}
