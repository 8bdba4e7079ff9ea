import { isDeepStrictEqual } from 'node:util';
import type { FieldCause } from './invalid-object-error';
import { isPlaced, isSuspended, type ResourceBinding } from './resource-binding';

/**
 * Metadata a write may carry other than as stored: resourceVersion is the write's precondition, and
 * managedFields is the API server's record of who wrote what, made anew on every write.
 */
const SET_BY_THE_SERVER: ReadonlySet<string> = new Set(['resourceVersion', 'managedFields']);

/** Maps whose entries are named one by one, as Kubernetes names a map key in a field path: metadata.labels[key]. */
const KEYED: ReadonlySet<string> = new Set(['labels', 'annotations']);

const OUTRANKS = 'is written by outrank: of a binding only spec.suspension may be changed';

function changedKeys(next: object | undefined, previous: object | undefined): string[] {
  const a = (next ?? {}) as Record<string, unknown>;
  const b = (previous ?? {}) as Record<string, unknown>;
  return [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !isDeepStrictEqual(a[key], b[key])).sort();
}

function metadataCauses(next: ResourceBinding['metadata'], previous: ResourceBinding['metadata']): FieldCause[] {
  return changedKeys(next, previous)
    .filter((field) => !SET_BY_THE_SERVER.has(field))
    .flatMap((field) =>
      KEYED.has(field)
        ? changedKeys(next[field as 'labels'], previous[field as 'labels']).map((key) => ({ field: `metadata.${field}[${key}]`, message: OUTRANKS }))
        : [{ field: `metadata.${field}`, message: OUTRANKS }],
    );
}

/**
 * Scheduling suspension (003), the rule of every write of a binding through the API, whoever makes it
 * (admins too; the controllers write through the store): only spec.suspension may change, and not to
 * suspend a binding already placed. Its metadata (the claiming policy's labels, the preemptibility label,
 * annotations, finalizers, owner references, generation), the rest of its spec and its status are
 * outrank's. The causes, one per field changed; none when the write may be made.
 */
export function bindingUpdateCauses(next: ResourceBinding, previous: ResourceBinding): FieldCause[] {
  const { suspension: _next, ...nextSpec } = next.spec;
  const { suspension: _previous, ...previousSpec } = previous.spec;
  // Compared by value: a decoded object has its keys in the schema's order, not the controllers'.
  const causes = [
    ...metadataCauses(next.metadata, previous.metadata),
    ...changedKeys(nextSpec, previousSpec).map((field) => ({ field: `spec.${field}`, message: 'is written by the scheduler; only spec.suspension may be changed' })),
    ...(isDeepStrictEqual(next.status, previous.status) ? [] : [{ field: 'status', message: 'is written by the scheduler; only spec.suspension may be changed' }]),
  ];
  if (isSuspended(next) && !isSuspended(previous) && isPlaced(previous)) {
    causes.push({ field: 'spec.suspension.scheduling', message: 'cannot be set to true: the binding is already scheduled' });
  }
  return causes;
}
