import type { Labels } from '../api/label-selector';
import type { StoredObject } from '../ports/object-store';
import type { ApiRequest, ApiResponse } from './api-types';
import { fieldSelectorQuery, type FieldGetters } from './field-selector-query';
import { labelSelectorQuery } from './label-selector-query';
import { jsonResponse } from './response';
import type { ServedResource } from './served-resources';

/** The fields every kind can be selected by, as in Kubernetes (kubectl delete waits with metadata.name). */
export const METADATA_FIELDS: FieldGetters<StoredObject> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

export interface Selection<T> {
  readonly matches: (object: T) => boolean;
  readonly fieldEqualities: ReadonlyMap<string, string>;
}

/**
 * The labelSelector and fieldSelector of a list request. limit and continue are ignored: the whole
 * list comes in one page, which clients following continue tokens accept.
 */
export function selectionOf<T extends StoredObject>(request: ApiRequest, fields: FieldGetters<T>): Selection<T> {
  const labels = labelSelectorQuery(request.query.labelSelector);
  const byFields = fieldSelectorQuery(request.query.fieldSelector, fields);
  return {
    matches: (object) => labels((object.metadata as { labels?: Labels }).labels) && byFields.matches(object),
    fieldEqualities: byFields.equalities,
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function byNamespaceAndName(a: StoredObject, b: StoredObject): number {
  return compareText(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareText(a.metadata.name, b.metadata.name);
}

/**
 * Stores count versions up from 1, so the greatest item version (longer is greater) says how recent
 * the list is; to clients it stays an opaque string.
 */
function listVersion(items: readonly StoredObject[]): string {
  return items
    .map((item) => item.metadata.resourceVersion ?? '0')
    .reduce((max, version) => (version.length > max.length || (version.length === max.length && version > max) ? version : max), '0');
}

/** A <Kind>List of the selected items, ordered by namespace, then name. */
export function listResponse<T extends StoredObject>(resource: ServedResource, items: readonly T[], selection: Selection<T>): ApiResponse {
  const selected = items.filter(selection.matches).sort(byNamespaceAndName);
  return jsonResponse(200, {
    apiVersion: resource.info.apiVersion,
    kind: `${resource.info.kind}List`,
    metadata: { resourceVersion: listVersion(items) },
    items: selected,
  });
}
