import type { Labels } from '../api/label-selector';
import type { ObjectPage, PageRequest, StoredObject } from '../ports/object-store';
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
  /** Where a log read in its own order (events) continues: the position it gave with the previous page. */
  readonly position: string | undefined;
  /** The resourceVersion of the list the token continues: every page of it answers with the first page's. */
  readonly version: string | undefined;
}

function limitOf(value: string | undefined): number | undefined {
  if (value === undefined || value === '' || value === '0') return undefined;
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 0) throw new ApiError('BadRequest', `limit: must be a non-negative integer, not "${value}"`);
  return limit;
}

const NOT_OURS = 'continue: the token is not one this server gave for this list; list again from the start';

function continuedFrom(token: string | undefined, namespace: string | undefined): Pick<Page, 'after' | 'position' | 'version'> {
  if (token === undefined || token === '') return { after: undefined, position: undefined, version: undefined };
  try {
    const { after, position, version } = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { after?: unknown; position?: unknown; version?: unknown };
    if (version !== undefined && typeof version !== 'string') throw new TypeError('version');
    if (typeof position === 'string' && after === undefined) return { after: undefined, position, version };
    const [from, name] = Array.isArray(after) ? (after as unknown[]) : [];
    const valid = Array.isArray(after) && after.length === 2 && typeof from === 'string' && typeof name === 'string';
    if (valid && position === undefined && (namespace === undefined || from === namespace)) return { after: [from, name], position: undefined, version };
  } catch {
    // falls through to the refusal
  }
  throw new ApiError('BadRequest', NOT_OURS);
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
    fieldEqualities: byFields.equalities,
    page: { limit: limitOf(request.query.limit), ...continuedFrom(request.query.continue, namespace) },
  };
}

/**
 * Lists are in the order of their keys in storage, as Kubernetes lists are in etcd's: `<namespace>/<name>`
 * compared as strings (DynamoDB's sort key), so a namespace "a-b" comes before "a".
 */
function storageKey(object: StoredObject): string {
  return `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
}

function inStorageOrder(a: StoredObject, b: StoredObject): number {
  const [left, right] = [storageKey(a), storageKey(b)];
  return left < right ? -1 : left > right ? 1 : 0;
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

function listBody(resource: ServedResource, items: readonly StoredObject[], metadata: Record<string, unknown>): ApiResponse {
  return jsonResponse(200, { apiVersion: resource.info.apiVersion, kind: `${resource.info.kind}List`, metadata, items });
}

function continueToken(from: { after: [string, string] } | { position: string }, version: string): string {
  return Buffer.from(JSON.stringify({ ...from, version })).toString('base64url');
}

/** A continue token no list of this kind gave (one of another kind's, or of a log read by position). */
export function notOurToken(): ApiError {
  return new ApiError('BadRequest', NOT_OURS);
}

/**
 * A <Kind>List of the selected items, in storage order, one page of them when the request has a limit.
 * The continue token names the last object returned: the next page starts after it in the objects as
 * they are then (a page never repeats or skips an object that stays; one created or deleted meanwhile
 * may or may not be seen, as with any list of a changing collection).
 */
export function listResponse<T extends StoredObject>(resource: ServedResource, items: readonly T[], selection: Selection<T>): ApiResponse {
  const { limit, after } = selection.page;
  const from = after && `${after[0]}/${after[1]}`;
  const selected = items.filter((item) => selection.matches(item) && (from === undefined || storageKey(item) > from)).sort(inStorageOrder);
  const page = limit === undefined ? selected : selected.slice(0, limit);
  const version = selection.page.version ?? listVersion(items);
  const next = page.length < selected.length ? { continue: continueToken({ after: keyOf(page[page.length - 1]!) }, version) } : {};
  return listBody(resource, page, { resourceVersion: version, ...next });
}

/** A store's page of a kind's objects, after an object (namespace and name), in storage order. */
export type PageReader<T extends StoredObject> = (page: PageRequest) => Promise<ObjectPage<T>>;

/**
 * One page of a paged list (the request has a limit), read from the store page by page from the continue
 * token on until it holds `limit` selected objects or the kind ends: the store reads about as many
 * objects as the page skips and holds, not the kind. A later page answers with the first page's
 * resourceVersion, which no change made after the first page was read can be older than, so a watch
 * from it misses nothing. No remainingItemCount: counting the rest would read it (Kubernetes leaves
 * the count out when it cannot give it).
 */
export async function pageResponse<T extends StoredObject>(resource: ServedResource, read: PageReader<T>, selection: Selection<T>): Promise<ApiResponse> {
  const limit = selection.page.limit!;
  const items: T[] = [];
  const seen: T[] = [];
  let after = selection.page.after;
  let more = true;
  while (more && items.length < limit) {
    const page = await read({ limit, after });
    seen.push(...page.items);
    for (const [index, item] of page.items.entries()) {
      if (!selection.matches(item)) continue;
      items.push(item);
      if (items.length === limit) {
        more = index < page.items.length - 1 || page.more;
        break;
      }
    }
    if (items.length < limit) more = page.more;
    after = page.items.length > 0 ? keyOf(page.items[page.items.length - 1]!) : after;
  }
  const version = selection.page.version ?? listVersion(seen);
  const next = more && items.length > 0 ? { continue: continueToken({ after: keyOf(items[items.length - 1]!) }, version) } : {};
  return listBody(resource, items, { resourceVersion: version, ...next });
}

/** A page of a log read in its own order from a position it gives (undefined: its start), and where the next starts (none at its end). */
export type PositionReader<T extends StoredObject> = (limit: number, from: string | undefined) => Promise<{ readonly items: readonly T[]; readonly next?: string }>;

/**
 * One page of a paged list of a log read in its own order (events, when no field selector names what to
 * read): read from the continue token's position on until it holds `limit` selected items or the log
 * ends, each read asking for no more than the page still lacks, so that the next page starts where the
 * last read stopped. As pageResponse, every page answers with the first page's resourceVersion.
 */
export async function positionPageResponse<T extends StoredObject>(resource: ServedResource, read: PositionReader<T>, selection: Selection<T>): Promise<ApiResponse> {
  const limit = selection.page.limit!;
  const items: T[] = [];
  const seen: T[] = [];
  let position = selection.page.position;
  do {
    const page = await read(limit - items.length, position);
    seen.push(...page.items);
    items.push(...page.items.filter(selection.matches));
    position = page.next;
  } while (position !== undefined && items.length < limit);
  const version = selection.page.version ?? listVersion(seen);
  return listBody(resource, items, { resourceVersion: version, ...(position === undefined ? {} : { continue: continueToken({ position }, version) }) });
}
