import type { Labels } from '../api/label-selector';
import { compareStorageKeys, storageKey } from '../api/kinds';
import { compareRevisions, type ObjectPage, type ObjectStore, type PageRequest, type StoredObject } from '../ports/object-store';
import type { ApiRequest, ApiResponse } from './api-types';
import { fieldSelectorQuery, type FieldGetters } from './field-selector-query';
import { labelSelectorQuery } from './label-selector-query';
import { jsonResponse } from './response';
import { continuedFrom, continueToken, scopeOf, type ContinuedFrom } from './continue-token';
import { ApiError } from './status';
import type { ServedResource } from './served-resources';

/** The fields every kind can be selected by, as in Kubernetes (kubectl delete waits with metadata.name). */
export const METADATA_FIELDS: FieldGetters<StoredObject> = {
  'metadata.name': (o) => o.metadata.name,
  'metadata.namespace': (o) => o.metadata.namespace ?? '',
};

export interface Selection<T> {
  readonly matches: (object: T) => boolean;
  /** No label or field selector: every object matches. */
  readonly selectsAll: boolean;
  readonly fieldEqualities: ReadonlyMap<string, string>;
  readonly page: Page;
}

/** limit and continue: at most `limit` items, from where the continue token says. */
interface Page extends ContinuedFrom {
  readonly limit: number | undefined;
  /** The list's namespace, or all of them (scopeOf): a token of one list is not taken by another. */
  readonly scope: string;
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new ApiError('BadRequest', `limit: must be a non-negative integer, not "${value}"`);
  return limit;
}

function keyOf(object: StoredObject): [string, string] {
  return [object.metadata.namespace ?? '', object.metadata.name];
}

/** The labelSelector, fieldSelector, limit and continue of a list request (of one namespace, if given). */
export function selectionOf<T extends StoredObject>(request: ApiRequest, fields: FieldGetters<T>, namespace?: string): Selection<T> {
  const labels = labelSelectorQuery(request.query.labelSelector);
  const byFields = fieldSelectorQuery(request.query.fieldSelector, fields);
  return {
    matches: (object) => labels((object.metadata as { labels?: Labels }).labels) && byFields.matches(object),
    selectsAll: isBlank(request.query.labelSelector) && isBlank(request.query.fieldSelector),
    fieldEqualities: byFields.equalities,
    page: { limit: limitOf(request.query.limit), ...continuedFrom(request.query.continue, namespace), scope: scopeOf(namespace) },
  };
}

function isBlank(selector: string | undefined): boolean {
  return selector === undefined || selector.trim() === '';
}

/** Lists are in storage order (storageKey), as Kubernetes lists are in etcd's key order. */
function storageKeyOf(object: StoredObject): string {
  return storageKey(object.metadata.namespace ?? '', object.metadata.name);
}

function inStorageOrder(a: StoredObject, b: StoredObject): number {
  return compareStorageKeys(storageKeyOf(a), storageKeyOf(b));
}

/** A list of events, which carry no versions of their own, answers "0": a watch from it starts now. */
const UNVERSIONED = '0';

/**
 * The version a list of objects answers with: its newest item's, so that a watch from it does not send
 * that write again (the DynamoDB feed reads its last seconds again); but the store's version from before
 * the read (`before`, ObjectStore.currentVersion) when the list is empty or the feed no longer reaches
 * back to its newest item (unchanged for longer than the feed keeps deletions), where a watch from the
 * item's version would be refused as too old and the client would list again and again. Never newer
 * than the state the list holds, so a watch from it misses nothing.
 */
export function listVersion(items: readonly StoredObject[], store: Pick<ObjectStore, 'cursorAt'>, before: string): string {
  let newest: string | undefined;
  // Versions of different objects are compared as revisions too: both stores' grow with time (a sequence, a time prefix).
  for (const item of items) {
    const version = item.metadata.resourceVersion;
    if (version !== undefined && (newest === undefined || compareRevisions(version, newest) > 0)) newest = version;
  }
  return newest !== undefined && store.cursorAt(newest) !== undefined ? newest : before;
}

function listBody(resource: ServedResource, items: readonly StoredObject[], metadata: Record<string, unknown>): ApiResponse {
  return jsonResponse(200, { apiVersion: resource.info.apiVersion, kind: `${resource.info.kind}List`, metadata, items });
}

/**
 * A <Kind>List of the selected items, in storage order, one page of them when the request has a limit;
 * `version` is what the list answers with (listVersion for objects). The continue token names the last object returned:
 * the next page starts after it in the objects as they are then (a page never repeats or skips an object
 * that stays; one created or deleted meanwhile may or may not be seen, as with any list of a changing
 * collection), and answers with the first page's version.
 */
export function listResponse<T extends StoredObject>(resource: ServedResource, items: readonly T[], selection: Selection<T>, version = UNVERSIONED): ApiResponse {
  const { limit, after } = selection.page;
  const from = after && storageKey(after[0], after[1]);
  const selected = items.filter((item) => selection.matches(item) && (from === undefined || storageKeyOf(item) > from)).sort(inStorageOrder);
  const page = limit === undefined ? selected : selected.slice(0, limit);
  const listed = selection.page.version ?? version;
  const next = page.length < selected.length ? { continue: continueToken({ after: keyOf(page[page.length - 1]!) }, selection.page.scope, listed) } : {};
  return listBody(resource, page, { resourceVersion: listed, ...next });
}

/** Objects asked of a store in one read, however many a client's page may hold: a client's limit is not passed on unchecked. */
export const STORE_READ_LIMIT = 1_000;

/** A store's page of a kind's objects, after an object (namespace and name), in storage order. */
export type PageReader<T extends StoredObject> = (page: PageRequest) => Promise<ObjectPage<T>>;

/**
 * One page of a paged list (the request has a limit), read from the store from the continue token on,
 * at most STORE_READ_LIMIT objects a read, until it holds `limit` selected objects or the kind ends: the
 * store reads about as many objects as the page skips and holds (and one more, to know whether more
 * follow), not the kind. Every page of the list answers with the first page's version (`versionOf` the
 * objects it read and whether they are the whole list), which no change committed after that read is
 * older than, so a watch from it misses nothing. No remainingItemCount: counting the rest would read it (Kubernetes leaves the count
 * out when it cannot give it).
 */
export async function pageResponse<T extends StoredObject>(
  resource: ServedResource,
  read: PageReader<T>,
  selection: Selection<T>,
  versionOf: (read: readonly T[], complete: boolean) => string,
): Promise<ApiResponse> {
  const limit = selection.page.limit!;
  const items: T[] = [];
  const seen: T[] = [];
  let after = selection.page.after;
  let more = true;
  while (more && items.length < limit) {
    const page = await read({ limit: Math.min(limit - items.length, STORE_READ_LIMIT), ...(after ? { after } : {}) });
    seen.push(...page.items);
    items.push(...page.items.filter(selection.matches));
    more = page.more;
    after = page.items.length > 0 ? keyOf(page.items[page.items.length - 1]!) : after;
  }
  const listed = selection.page.version ?? versionOf(seen, !more);
  // After the last object read, selected or not: the next page need not read the unselected ones again.
  const next = more && after ? { continue: continueToken({ after: [after[0], after[1]] }, selection.page.scope, listed) } : {};
  return listBody(resource, items, { resourceVersion: listed, ...next });
}

/** A page of a log read in its own order from a position it gives (undefined: its start), and where the next starts (none at its end). */
export type PositionReader<T extends StoredObject> = (limit: number, from: string | undefined) => Promise<{ readonly items: readonly T[]; readonly next?: string }>;

/**
 * A list of a log read in its own order (events, when no field selector names what to read): from the
 * continue token's position on until it holds `limit` selected items (the rest without a limit) or the
 * log ends, each read asking for no more than the page still lacks (at most STORE_READ_LIMIT), so that
 * the next page starts where the last read stopped.
 */
export async function positionPageResponse<T extends StoredObject>(resource: ServedResource, read: PositionReader<T>, selection: Selection<T>, version = UNVERSIONED): Promise<ApiResponse> {
  const limit = selection.page.limit ?? Number.POSITIVE_INFINITY;
  const items: T[] = [];
  let position = selection.page.position;
  do {
    const page = await read(Math.min(limit - items.length, STORE_READ_LIMIT), position);
    items.push(...page.items.filter(selection.matches));
    position = page.next;
  } while (position !== undefined && items.length < limit);
  const listed = selection.page.version ?? version;
  return listBody(resource, items, { resourceVersion: listed, ...(position === undefined ? {} : { continue: continueToken({ position }, selection.page.scope, listed) }) });
}
