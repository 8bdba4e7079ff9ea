import type { KubeEvent } from '../api/event';
import { EventPositionError, type EventSelection } from '../ports/event-log';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { notFound } from './error-status';
import type { FieldGetters } from './field-selector-query';
import { notOurToken } from './continue-token';
import { listResponse, METADATA_FIELDS, positionPageResponse, selectionOf } from './lists';
import { jsonResponse } from './response';
import type { ResourceRoute } from './routes';

/** Handlers for core/v1 Events, which outrank records in its event log rather than the object store. */

/** The fields kubectl describe selects an object's events by, and the others Kubernetes supports that outrank records. */
export const EVENT_FIELDS: FieldGetters<KubeEvent> = {
  ...METADATA_FIELDS,
  'involvedObject.apiVersion': (e) => e.involvedObject.apiVersion ?? '',
  'involvedObject.kind': (e) => e.involvedObject.kind,
  'involvedObject.name': (e) => e.involvedObject.name,
  'involvedObject.namespace': (e) => e.involvedObject.namespace ?? '',
  // kubectl describe sends the object's uid: it selects that object's events, not an earlier one's of
  // the same name. An event recorded without one (before events kept uids) is not excluded by it.
  'involvedObject.uid': (e) => e.involvedObject.uid,
  reason: (e) => e.reason,
  type: (e) => e.type,
  source: (e) => e.source?.component ?? '',
};

/**
 * What the event log reads for a field selector: one object's events when it names the object fully
 * (what kubectl describe asks), else one reason's (indexed for the reasons operators list across the
 * fleet, such as reason=Preempted), else all. The selector is applied in full to what is read.
 */
function eventSelection(equalities: ReadonlyMap<string, string>): EventSelection | undefined {
  const kind = equalities.get('involvedObject.kind');
  const name = equalities.get('involvedObject.name');
  const namespace = equalities.get('involvedObject.namespace');
  if (kind !== undefined && name !== undefined && namespace !== undefined) return { object: { kind, name, namespace } };
  const reason = equalities.get('reason');
  return reason === undefined ? undefined : { reason };
}

export function isInRoute(route: ResourceRoute, event: KubeEvent): boolean {
  return route.namespace === undefined || (event.metadata.namespace ?? '') === route.namespace;
}

function inNamespace(route: ResourceRoute, events: readonly KubeEvent[]): KubeEvent[] {
  return events.filter((event) => isInRoute(route, event));
}

/**
 * A list of events. Paged without a field selector that names what to read (kubectl get events, whose
 * chunks are 500), each page is read from the log in its own order from the continue token's position,
 * reading about a page; otherwise what the selector names is read, ordered and paged here. It answers
 * with the log's version from before the read, which a watch of events goes on from (kubectl get -w).
 */
export async function listEvents(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const selection = selectionOf(request, EVENT_FIELDS, route.namespace);
  const version = deps.events.currentVersion();
  const readable = eventSelection(selection.fieldEqualities);
  const { limit, after, position } = selection.page;
  if (readable === undefined && (limit !== undefined || position !== undefined)) {
    if (after !== undefined) throw notOurToken();
    const inRoute = { ...selection, matches: (event: KubeEvent) => isInRoute(route, event) && selection.matches(event) };
    return positionPageResponse(route.resource, (pageLimit, from) => readEventPage(deps, pageLimit, from), inRoute, version);
  }
  if (position !== undefined) throw notOurToken();
  return listResponse(route.resource, inNamespace(route, await deps.events.list(readable)), selection, version);
}

async function readEventPage(deps: ApiDependencies, limit: number, from: string | undefined) {
  try {
    const { events, next } = await deps.events.listPage(limit, from);
    return { items: events, ...(next === undefined ? {} : { next }) };
  } catch (error) {
    throw error instanceof EventPositionError ? notOurToken() : error;
  }
}

export async function getEvent(route: ResourceRoute, name: string, deps: ApiDependencies): Promise<ApiResponse> {
  const event = inNamespace(route, await deps.events.list()).find((e) => e.metadata.name === name);
  if (!event) throw notFound(route.resource, name);
  return jsonResponse(200, event);
}
