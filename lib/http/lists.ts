import type { Labels } from '../api/label-selector';
import type { StoredObject } from '../ports/object-store';
import type { ApiRequest, ApiResponse } from './api-types';
import { fieldSelectorQuery, type FieldGetters } from './field-selector-query';
import { labelSelectorQuery } from './label-selector-query';
import { jsonResponse } from './response';
import { ApiError } from './status';
import type { ServedResource } from './served-resources';

/** The fields every kind can be selected by, as in Kubernetes (kubectl delete waits with metadata.name). */
export const METADATA_FIELDS: FieldGetters<StoredObject> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

export interface Selection<T> {
  readonly matches: (object: T) => boolean;
  readonly fieldEqualities: ReadonlyMap<string, string>;
  readonly page: Page;
}

/** limit and continue: at most `limit` items, after the object the continue token names. */
interface Page {
  readonly limit: number | undefined;
  /** Namespace and name of the last object of the previous page. */
  readonly after: readonly [string, string] | undefined;
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new ApiError('BadRequest', `limit: must be a non-negative integer, not "${value}"`);
  return limit;
}

function afterOf(token: string | undefined): readonly [string, string] | undefined {
  if (token === undefined || token === '') return undefined;
  try {
    const { after } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown };
    const [namespace, name] = Array.isArray(after) ? (after as unknown[]) : [];
    if (Array.isArray(after) && after.length === 2 && typeof namespace === 'string' && typeof name === 'string') return [namespace, name];
  } catch {
    // falls through to the refusal
  }
  throw new ApiError('BadRequest', 'continue: the token is not one this server gave; list again from the start');
}

function keyOf(object: StoredObject): [string, string] {
  return [object.metadata.namespace ?? '', object.metadata.name];
}

/** The labelSelector, fieldSelector, limit and continue of a list request. */
export function selectionOf<T extends StoredObject>(request: ApiRequest, fields: FieldGetters<T>): Selection<T> {
  const labels = labelSelectorQuery(request.query.labelSelector);
  const byFields = fieldSelectorQuery(request.query.fieldSelector, fields);
  return {
    matches: (object) => labels((object.metadata as { labels?: Labels }).labels) && byFields.matches(object),
    fieldEqualities: byFields.equalities,
    page: { limit: limitOf(request.query.limit), after: afterOf(request.query.continue) },
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareKeys(a: readonly [string, string], b: readonly [string, string]): number {
  return compareText(a[0], b[0]) || compareText(a[1], b[1]);
}

function byNamespaceAndName(a: StoredObject, b: StoredObject): number {
  return compareKeys(keyOf(a), keyOf(b));
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

/**
 * A <Kind>List of the selected items, ordered by namespace, then name, one page of them when the
 * request has a limit. The continue token names the last object returned: the next page starts after
 * it in the objects as they are then (a page never repeats or skips an object that stays; one created
 * or deleted meanwhile may or may not be seen, as with any list of a changing collection). Each page
 * reads the kind (one store query), so paging lightens the client's response, not the store's work.
 */
export function listResponse<T extends StoredObject>(resource: ServedResource, items: readonly T[], selection: Selection<T>): ApiResponse {
  const { limit, after } = selection.page;
  const selected = items.filter((item) => selection.matches(item) && (after === undefined || compareKeys(keyOf(item), after) > 0)).sort(byNamespaceAndName);
  const page = limit === undefined ? selected : selected.slice(0, limit);
  const remaining = selected.length - page.length;
  const next = remaining > 0 ? { continue: Buffer.from(JSON.stringify({ after: keyOf(page[page.length - 1]!) })).toString('base64url'), remainingItemCount: remaining } : {};
  return jsonResponse(200, {
    apiVersion: resource.info.apiVersion,
    kind: `${resource.info.kind}List`,
    metadata: { resourceVersion: listVersion(items), ...next },
    items: page,
  });
}
