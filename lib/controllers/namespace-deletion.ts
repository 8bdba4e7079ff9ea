import { isBeingDeleted, NAMESPACE_FINALIZER } from '../api/deletion';
import type { KubeObject } from '../api/decode';
import { BUILT_IN_KINDS, CLUSTER_RESOURCE_BINDING, EVENT, RESOURCE_BINDING, refOf, type ObjectRef } from '../api/kinds';
import { NotFoundError } from '../api/not-found-error';
import { apiGroupOf } from '../api/resource-template';
import { customKindsOf } from '../cache/custom-kinds-informer';
import type { ControllerContext } from './context';
import { ObjectService } from './object-service';

/**
 * Namespace deletion, as Kubernetes' namespace controller does it: a deleted Namespace is marked
 * (deletionTimestamp, status.phase Terminating) and held by the `kubernetes` finalizer of its spec;
 * this step, run on the namespace's change notice, deletes every object in it — templates, policies,
 * the rest (bindings go with their templates; events are a log, kept) — kind by kind, one query of the
 * namespace each, never a whole kind; once nothing remains, the namespace goes (or waits for the
 * finalizers of its metadata). An object in it that waits for its own finalizers keeps the namespace
 * Terminating; its going runs this step again (ObjectService announces it to the namespace).
 */

export const NAMESPACE_KIND = { group: '', kind: 'Namespace' } as const;

export function isNamespace(ref: Pick<ObjectRef, 'group' | 'kind'>): boolean {
  return ref.group === NAMESPACE_KIND.group && ref.kind === NAMESPACE_KIND.kind;
}

/** What the namespace holds that this step deletes: every namespaced kind stored, but bindings and events. */
async function namespacedKinds(context: ControllerContext): Promise<Array<{ group: string; kind: string }>> {
  const builtIn = BUILT_IN_KINDS.filter((info) => info.namespaced && info !== RESOURCE_BINDING && info !== CLUSTER_RESOURCE_BINDING && info !== EVENT);
  const custom = (await customKindsOf(context.informers)).versions().filter((version) => version.info.namespaced);
  const kinds = [...builtIn, ...custom.map((version) => version.info)].map((info) => ({ group: apiGroupOf(info.apiVersion), kind: info.kind }));
  return [...new Map(kinds.map((kind) => [`${kind.group}/${kind.kind}`, kind])).values()];
}

/** The object as deleted (marked, if finalizers hold it); undefined if it went meanwhile. */
async function deletedUnlessGone(objects: ObjectService, ref: ObjectRef): Promise<KubeObject | undefined> {
  try {
    return await objects.delete(ref);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** Deletes what the namespace holds; true when nothing remains in it (nothing waits for its finalizers). */
async function emptied(context: ControllerContext, namespace: string): Promise<boolean> {
  const objects = new ObjectService(context);
  let held = 0;
  for (const { group, kind } of await namespacedKinds(context)) {
    for (const object of await context.store.list<KubeObject>(group, kind, namespace)) {
      if (isBeingDeleted(object) || isBeingDeleted(await deletedUnlessGone(objects, refOf(object)))) held += 1;
    }
  }
  return held === 0;
}

/** The step for one namespace: nothing unless it is being deleted. */
export async function namespaceChanged(context: ControllerContext, name: string): Promise<void> {
  const ref: ObjectRef = { ...NAMESPACE_KIND, namespace: '', name };
  const namespace = await context.store.get<KubeObject>(ref);
  if (!namespace || !isBeingDeleted(namespace)) return;
  if (!(await emptied(context, name))) return;
  const spec = (namespace as { spec?: { finalizers?: string[] } }).spec ?? {};
  // The `kubernetes` finalizer removed: the namespace goes, unless finalizers of its metadata hold it.
  await new ObjectService(context).apply({ ...namespace, spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== NAMESPACE_FINALIZER) } });
}
