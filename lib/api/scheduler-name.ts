import type { ResourceBinding } from './resource-binding';

/**
 * The name Karmada's scheduler answers to by default (pkg/scheduler/scheduler.go, DefaultScheduler), and
 * the default of a policy's spec.schedulerName (its CRD's `+kubebuilder:default`).
 */
export const DEFAULT_SCHEDULER_NAME = 'default-scheduler';

/**
 * The scheduler a binding is for: its spec.schedulerName, the default scheduler's when empty or absent
 * (Karmada's schedulerNameFilter, pkg/scheduler/event_handler.go).
 */
export function schedulerNameOf(binding: Pick<ResourceBinding, 'spec'>): string {
  return binding.spec.schedulerName || DEFAULT_SCHEDULER_NAME;
}

/**
 * Whether a scheduler answering to these names takes the binding: schedules it, preempts for it and may
 * preempt it. Karmada's scheduler filters every binding event by its name; each scheduler preempts only
 * the bindings it manages, so that two never preempt each other in turn (binding priority and preemption
 * (000), "Preemption in multi-scheduler").
 */
export function isScheduledBy(names: readonly string[], binding: Pick<ResourceBinding, 'spec'>): boolean {
  return names.includes(schedulerNameOf(binding));
}
