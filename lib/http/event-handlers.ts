import type { KubeEvent } from '../api/event';
import type { EventSelection } from '../ports/event-log';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { notFound } from './error-status';
import type { FieldGetters } from './field-selector-query';
import { listResponse, METADATA_FIELDS, selectionOf } from './lists';
import { jsonResponse } from './response';
import type { ResourceRoute } from './routes';

/** Handlers for core/v1 Events, which outrank records in its event log rather than the object store. */

/** The fields kubectl describe selects an object's events by, and the others Kubernetes supports that outrank records. */
const EVENT_FIELDS: FieldGetters<KubeEvent> = {
  ...METADATA_FIELDS,
  'involvedObject.apiVersion': (e) => e.involvedObject.apiVersion ?? '',
  'involvedObject.kind': (e) => e.involvedObject.kind,
  'involvedObject.name': (e) => e.involvedObject.name,
  'involvedObject.namespace': (e) => e.involvedObject.namespace ?? '',
  // Outrank does not record uids; kubectl describe sends one for objects that carry it, and matching
  // it against nothing would hide every event.
  'involvedObject.uid': () => undefined,
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

function inNamespace(route: ResourceRoute, events: readonly KubeEvent[]): KubeEvent[] {
  return route.namespace === undefined ? [...events] : events.filter((e) => (e.metadata.namespace ?? '') === route.namespace);
}

export async function listEvents(route: ResourceRoute, request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  const selection = selectionOf(request, EVENT_FIELDS, route.namespace);
  const events = await deps.events.list(eventSelection(selection.fieldEqualities));
  return listResponse(route.resource, inNamespace(route, events), selection);
}

export async function getEvent(route: ResourceRoute, name: string, deps: ApiDependencies): Promise<ApiResponse> {
  const event = inNamespace(route, await deps.events.list()).find((e) => e.metadata.name === name);
  if (!event) throw notFound(route.resource, name);
  return jsonResponse(200, event);
}
