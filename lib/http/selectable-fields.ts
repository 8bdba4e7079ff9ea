import { CLUSTER_RESOURCE_BINDING, RESOURCE_BINDING } from '../api/kinds';
import type { StoredObject } from '../ports/object-store';
import type { FieldGetters } from './field-selector-query';
import { METADATA_FIELDS } from './lists';
import type { ServedResource } from './served-resources';

interface WithTargets {
  readonly spec?: { readonly clusters?: ReadonlyArray<{ readonly name: string }> };
}

/**
 * Bindings are also selected by the clusters they are placed on, as Pods are by spec.nodeName:
 * spec.clusters.name=<cluster> selects those placed there, spec.clusters.name= (no value) those placed
 * nowhere, what waits for the scheduler. Outrank's own selectable field (Karmada declares none); a list
 * and a watch serve it alike, so that an informer can keep either set without the rest of the kind.
 */
const BINDING_FIELDS: FieldGetters<StoredObject> = {
  ...METADATA_FIELDS,
  'spec.clusters.name': (binding) => ((binding as WithTargets).spec?.clusters ?? []).map((target) => target.name),
};

const isBinding = (resource: ServedResource) =>
  [RESOURCE_BINDING, CLUSTER_RESOURCE_BINDING].some((info) => info.apiVersion === resource.info.apiVersion && info.kind === resource.info.kind);

/** The fields a list or watch of `resource` can be selected by (fieldSelector). */
export function selectableFields(resource: ServedResource): FieldGetters<StoredObject> {
  return isBinding(resource) ? BINDING_FIELDS : METADATA_FIELDS;
}
