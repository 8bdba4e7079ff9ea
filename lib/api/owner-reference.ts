import type { ObjectMeta, OwnerReference } from './meta';

/** What an owner reference names of its owner. */
interface Owner {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: Pick<ObjectMeta, 'name' | 'uid'>;
}

/**
 * The reference making `owner` the controller of an object, as apimachinery's metav1.NewControllerRef
 * makes it (Karmada's detector gives every binding one to its template: BuildResourceBinding). An owner
 * stored without a uid (before objects had one) is named without.
 */
export function controllerRef(owner: Owner): OwnerReference {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name,
    ...(owner.metadata.uid ? { uid: owner.metadata.uid } : {}),
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The object's controller: the owner reference with controller true (apimachinery's GetControllerOf). */
export function controllerOf(object: { readonly metadata: Pick<ObjectMeta, 'ownerReferences'> }): OwnerReference | undefined {
  return object.metadata.ownerReferences?.find((reference) => reference.controller === true);
}

/**
 * Whether `candidate` (the object of the controller's kind and name as it exists now, if it does) is the
 * object's controller, as Kubernetes' garbage collector judges an owner: by its uid. An object whose
 * controller no longer exists is garbage — its controller was deleted, or deleted and created again
 * under the same name, which makes another object. An object with no controller reference, or one
 * without a uid on either side (stored before objects had one), is taken to be the named object's.
 */
export function isControlledBy(object: { readonly metadata: Pick<ObjectMeta, 'ownerReferences'> }, candidate: Owner | undefined): boolean {
  if (!candidate) return false;
  const controller = controllerOf(object);
  if (!controller) return true;
  const sameObject = controller.kind === candidate.kind && controller.name === candidate.metadata.name;
  return sameObject && (controller.uid === undefined || candidate.metadata.uid === undefined || controller.uid === candidate.metadata.uid);
}
