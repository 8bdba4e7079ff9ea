import type { ResourceBinding } from '../api/resource-binding';

/**
 * How a binding's replicas are assigned when it is divided again, as Karmada decides it
 * (pkg/scheduler/core/assignment.go, newAssignState): Steady keeps the replicas where they run and
 * changes only what must change (dynamic-assignment.ts); Fresh divides every replica anew as if none
 * were placed. Steady is the rule; Fresh only for a reschedule a user asked for (rescheduleRequired).
 */
export type AssignmentMode = 'Steady' | 'Fresh';

/**
 * Karmada's util.RescheduleRequired: spec.rescheduleTriggeredAt is later than status.lastScheduledTime.
 * Never before the binding was first scheduled (no lastScheduledTime): that schedule is awaited as it is.
 */
export function rescheduleRequired(binding: Pick<ResourceBinding, 'spec' | 'status'>): boolean {
  const triggeredAt = Date.parse(binding.spec.rescheduleTriggeredAt ?? '');
  const scheduledAt = Date.parse(binding.status?.lastScheduledTime ?? '');
  return triggeredAt > scheduledAt;
}

export function assignmentModeOf(binding: Pick<ResourceBinding, 'spec' | 'status'>): AssignmentMode {
  return rescheduleRequired(binding) ? 'Fresh' : 'Steady';
}
