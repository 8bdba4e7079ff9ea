import type { ResourceBinding } from '../api/resource-binding';

/**
 * Karmada's util.RescheduleRequired: spec.rescheduleTriggeredAt is later than status.lastScheduledTime,
 * a user's request to divide the binding anew. Never before the binding was first scheduled (no
 * lastScheduledTime): that schedule is awaited as it is.
 */
export function rescheduleRequired(binding: Pick<ResourceBinding, 'spec' | 'status'>): boolean {
  const triggeredAt = Date.parse(binding.spec.rescheduleTriggeredAt ?? '');
  const scheduledAt = Date.parse(binding.status?.lastScheduledTime ?? '');
  return triggeredAt > scheduledAt;
}
