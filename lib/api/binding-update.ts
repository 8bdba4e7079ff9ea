import { isDeepStrictEqual } from 'node:util';
import type { FieldCause } from './invalid-object-error';
import { isPlaced, isSuspended, type ResourceBinding } from './resource-binding';
import { isScheduledBy } from './scheduler-name';

/**
 * Metadata a write may carry other than as stored: resourceVersion is the write's precondition, and
 * managedFields is the API server's record of who wrote what, made anew on every write.
 */
const SET_BY_THE_SERVER: ReadonlySet<string> = new Set(['resourceVersion', 'managedFields']);

/** Maps whose entries are named one by one, as Kubernetes names a map key in a field path: metadata.labels[key]. */
const KEYED: ReadonlySet<string> = new Set(['labels', 'annotations']);

/** What users may change of a binding, as every refusal names it. */
const USERS_MAY = 'only spec.suspension and spec.rescheduleTriggeredAt may be changed';
/** ... and of another scheduler's binding, what that scheduler writes too. */
const OTHERS_MAY = 'only spec.suspension, spec.rescheduleTriggeredAt and, by its scheduler, spec.clusters and the status may be changed';

/**
 * The annotation Karmada's scheduler writes with a placement (util.PolicyPlacementAnnotation,
 * patchScheduleResultForResourceBinding): the placement it applied.
 */
export const APPLIED_PLACEMENT_ANNOTATION = 'policy.karmada.io/applied-placement';

/** The refusals' wording: what may be changed of this binding. */
function wording(othersBinding: boolean) {
  const may = othersBinding ? OTHERS_MAY : USERS_MAY;
  return { outranks: `is written by outrank: of a binding ${may}`, schedulers: `is written by the scheduler; ${may}` };
}

function changedKeys(next: object | undefined, previous: object | undefined): string[] {
  const a = (next ?? {}) as Record<string, unknown>;
  const b = (previous ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !isDeepStrictEqual(a[key], b[key])).sort();
}

function metadataCauses(next: ResourceBinding['metadata'], previous: ResourceBinding['metadata'], othersBinding: boolean): FieldCause[] {
  const { outranks } = wording(othersBinding);
  const schedulersOwn = (field: string, key: string) => othersBinding && field === 'annotations' && key === APPLIED_PLACEMENT_ANNOTATION;
  return changedKeys(next, previous)
    .filter((field) => !SET_BY_THE_SERVER.has(field))
    .flatMap((field) =>
      KEYED.has(field)
        ? changedKeys(next[field as 'labels'], previous[field as 'labels'])
            .filter((key) => !schedulersOwn(field, key))
            .map((key) => ({ field: `metadata.${field}[${key}]`, message: outranks }))
        : [{ field: `metadata.${field}`, message: outranks }],
    );
}

/**
 * The rule of every write of a binding through the API, whoever makes it (admins too; the controllers
 * write through the store): only spec.suspension (scheduling suspension (003)), and not to suspend a
 * binding already placed, and spec.rescheduleTriggeredAt (as Karmada's users and WorkloadRebalancer set
 * it), not to a time later than `now`, the server's: a later one would stay later than every
 * lastScheduledTime until then, and the binding would be divided afresh again and again. Its metadata
 * (the claiming policy's labels, the preemptibility label, annotations, finalizers, owner references,
 * generation, uid), the rest of its spec and its status are outrank's — but for another scheduler's
 * binding (its spec.schedulerName none of `schedulerNames`), whose placement (spec.clusters), status and
 * applied-placement annotation that scheduler writes, as Karmada's scheduler patches them. The causes,
 * one per field changed; none when the write may be made.
 */
export function bindingUpdateCauses(next: ResourceBinding, previous: ResourceBinding, now: string, schedulerNames: readonly string[]): FieldCause[] {
  const othersBinding = !isScheduledBy(schedulerNames, previous);
  const { schedulers } = wording(othersBinding);
  const { suspension: _next, rescheduleTriggeredAt: nextTrigger, ...nextSpec } = next.spec;
  const { suspension: _previous, rescheduleTriggeredAt: previousTrigger, ...previousSpec } = previous.spec;
  const placedByItsScheduler = (field: string) => othersBinding && field === 'clusters';
  // Compared by value: a decoded object has its keys in the schema's order, not the controllers'.
  const causes = [
    ...metadataCauses(next.metadata, previous.metadata, othersBinding),
    ...changedKeys(nextSpec, previousSpec)
      .filter((field) => !placedByItsScheduler(field))
      .map((field) => ({ field: `spec.${field}`, message: schedulers })),
    ...(othersBinding || isDeepStrictEqual(next.status, previous.status) ? [] : [{ field: 'status', message: schedulers }]),
  ];
  if (isSuspended(next) && !isSuspended(previous) && isPlaced(previous)) {
    causes.push({ field: 'spec.suspension.scheduling', message: 'cannot be set to true: the binding is already scheduled' });
  }
  if (nextTrigger !== undefined && nextTrigger !== previousTrigger && Date.parse(nextTrigger) > Date.parse(now)) {
    causes.push({ field: 'spec.rescheduleTriggeredAt', message: `must not be later than the server's time (${now})` });
  }
  return causes;
}
