import type { FieldCause } from './invalid-object-error';

/**
 * Deletion with finalizers, as kube-apiserver does it: deleting an object that carries
 * metadata.finalizers only marks it (deletionTimestamp, deletionGracePeriodSeconds 0); it stays until
 * updates have removed every finalizer, and then it goes. Karmada's own finalizers (karmada.io/…) guard
 * work its controllers do on deletion — removing a template's binding, a cluster's work — which
 * outrank's controllers do as the object goes: they never hold a deletion here, so manifests exported
 * from a Karmada control plane delete as they did there.
 */

interface Meta {
  readonly finalizers?: readonly string[];
  readonly deletionTimestamp?: string;
  readonly deletionGracePeriodSeconds?: number;
}

const KARMADA_FINALIZER = /^([a-z0-9-]+\.)*karmada\.io\//;

/** The finalizers that hold the object's deletion: all but Karmada's own. */
export function holdingFinalizers(metadata: Meta): string[] {
  return (metadata.finalizers ?? []).filter((finalizer) => !KARMADA_FINALIZER.test(finalizer));
}

/** Whether the object is being deleted: marked, waiting for its finalizers. */
export function isBeingDeleted(object: { readonly metadata: Meta } | undefined): boolean {
  return object?.metadata.deletionTimestamp !== undefined;
}

/** The object, unless it is being deleted: what controllers act on treats one being deleted as gone. */
export function unlessBeingDeleted<T extends { readonly metadata: Meta }>(object: T | undefined): T | undefined {
  return isBeingDeleted(object) ? undefined : object;
}

/**
 * What a write may not do to an object being deleted: add a finalizer. Its deletion marks are the
 * server's, kept as they are whatever the write says (deletionMarks).
 */
export function deletionUpdateCauses(next: Meta, existing: Meta): FieldCause[] {
  if (existing.deletionTimestamp === undefined) return [];
  const had = new Set(existing.finalizers ?? []);
  const added = (next.finalizers ?? []).filter((finalizer) => !had.has(finalizer));
  if (added.length === 0) return [];
  return [{ field: 'metadata.finalizers', message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers ${JSON.stringify(added)}` }];
}

/** The deletion marks a write keeps: those stored (none for an object not being deleted, whatever a client sends). */
export function deletionMarks(existing: Meta | undefined): Pick<Meta, 'deletionTimestamp' | 'deletionGracePeriodSeconds'> {
  if (existing?.deletionTimestamp === undefined) return {};
  return { deletionTimestamp: existing.deletionTimestamp, deletionGracePeriodSeconds: existing.deletionGracePeriodSeconds ?? 0 };
}

/**
 * A Namespace is held, besides, by the finalizers of its spec: `kubernetes` until the namespace
 * deletion step has deleted what it holds (lib/controllers/namespace-deletion.ts).
 */
export const NAMESPACE_FINALIZER = 'kubernetes';

function namespaceFinalizers(object: { readonly kind?: string; readonly apiVersion?: string }): readonly string[] {
  if (object.kind !== 'Namespace' || object.apiVersion !== 'v1') return [];
  return (object as { spec?: { finalizers?: string[] } }).spec?.finalizers ?? [];
}

/** Whether anything still holds the deletion of an object being deleted. */
export function isHeld(object: { readonly kind?: string; readonly apiVersion?: string; readonly metadata: Meta }): boolean {
  return (object.metadata.finalizers ?? []).length > 0 || namespaceFinalizers(object).length > 0;
}

/** Whether a delete marks the object rather than removing it: finalizers hold it, or it is a Namespace (whose content goes first). */
export function deletionIsHeld(object: { readonly kind?: string; readonly apiVersion?: string; readonly metadata: Meta }): boolean {
  return holdingFinalizers(object.metadata).length > 0 || (object.kind === 'Namespace' && object.apiVersion === 'v1');
}
