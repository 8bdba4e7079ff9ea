import type { PreemptionPolicy, PriorityClass } from '../api/priority-class';
import { effectivePreemptionPolicy } from '../api/priority-class';
import type { SchedulePriority } from '../api/propagation-policy';
import type { PodSpec } from '../api/resource-template';

export interface ResolvedPriority {
  readonly priority: number;
  readonly preemptionPolicy: PreemptionPolicy;
  /** Set when a named class was missing and the default was used instead (a Warning event). */
  readonly missingClassName?: string;
}

/** Binding priority and preemption (000): with several global defaults the smallest value wins. */
export function globalDefaultClass(classes: readonly PriorityClass[]): PriorityClass | undefined {
  return classes
    .filter((c) => c.globalDefault === true)
    .sort((a, b) => a.value - b.value || a.metadata.name.localeCompare(b.metadata.name))[0];
}

/**
 * Resolves a policy's schedulePriority to the binding's priority and preemption policy
 * (binding priority and preemption (000), "SchedulePriority"): KubePriorityClass names the class, PodPriorityClass
 * reads it from the pod template; no class or a missing class falls back to the global default, and
 * without one to priority 0 with preemption policy Never.
 */
export function resolvePriority(
  schedulePriority: SchedulePriority | undefined,
  podSpec: PodSpec,
  classes: readonly PriorityClass[],
): ResolvedPriority {
  const source = schedulePriority?.priorityClassSource ?? 'KubePriorityClass';
  const className = source === 'PodPriorityClass' ? podSpec.priorityClassName : schedulePriority?.priorityClassName;
  const named = className === undefined ? undefined : classes.find((c) => c.metadata.name === className);
  if (named) return { priority: named.value, preemptionPolicy: effectivePreemptionPolicy(named) };

  const fallback = globalDefaultClass(classes);
  const resolved: ResolvedPriority = fallback
    ? { priority: fallback.value, preemptionPolicy: effectivePreemptionPolicy(fallback) }
    : { priority: 0, preemptionPolicy: 'Never' };
  return className === undefined ? resolved : { ...resolved, missingClassName: className };
}
