import type { ListedObject } from '../format/columns';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { errorStatus, type ErrorTarget } from './error-status';
import { mayNameCustomKinds, parseRoute, type ResourceRoute } from './routes';
import { ServedResources, servedResourcesWith } from './served-resources';
import { ApiError, statusResponse } from './status';
import { tableContext } from './table-context';
import { tableFor } from './table-output';
import { openWatch, type OpenWatch, type WatchEvent, type WatchTiming } from './watch';
import type { WatchSlots } from './watch-slots';
import { checkAuthenticated } from './write-authorization';

/** Events of objects, as Tables when the client asked for Tables (kubectl get -w does). */
function asTables(request: ApiRequest, watch: OpenWatch, route: ResourceRoute, deps: ApiDependencies): OpenWatch {
  return {
    run: (sink) =>
      watch.run({
        signal: sink.signal,
        send: async (event: WatchEvent) => {
          if (event.type === 'ERROR' || event.type === 'BOOKMARK') return sink.send(event);
          const objects = [event.object as ListedObject];
          const table = tableFor(request, route.resource, objects, {}, await tableContext(request, route.resource, objects, deps));
          return sink.send(table ? { type: event.type, object: table } : event);
        },
      }),
  };
}

/** Holds the caller's slot while the watch runs, and gives it back when the watch ends. */
function holdingSlot(watch: OpenWatch, release: () => void): OpenWatch {
  return {
    run: async (sink) => {
      try {
        await watch.run(sink);
      } finally {
        release();
      }
    },
  };
}

/**
 * A watch request (`?watch=1`) as a streaming transport serves it: a refusal as an ordinary Status
 * response (checked like a list: authentication, the URL, the query; then, with `slots`, whether the
 * caller may open one more), else the watch to run, whose events the transport writes as they come,
 * one JSON object per line. A watch served must be run: its slot is given back when its run ends.
 */
export function serveWatch(
  request: ApiRequest,
  deps: ApiDependencies,
  timing: WatchTiming,
  slots?: WatchSlots,
  served: ServedResources = ServedResources.BUILT_IN,
): ApiResponse | OpenWatch {
  let target: ErrorTarget | undefined;
  try {
    checkAuthenticated(deps);
    const route = parseRoute(request.path, served);
    if (!route || route.type !== 'resource') throw new ApiError('NotFound', 'the server could not find the requested resource');
    target = { resource: route.resource };
    if (!route.resource.verbs.includes('list')) throw new ApiError('MethodNotAllowed', `${route.resource.info.plural} cannot be watched`);
    const watch = asTables(request, openWatch(route, request, deps, timing), route, deps);
    return slots ? holdingSlot(watch, slots.take(deps.access?.identity ?? deps.caller ?? '')) : watch;
  } catch (error) {
    return statusResponse(errorStatus(error, target));
  }
}

/**
 * serveWatch for a transport: the watch of any resource served, a custom kind's included (the kinds the
 * stored CustomResourceDefinitions register are read only when the path may name one).
 */
export async function serveWatchRequest(request: ApiRequest, deps: ApiDependencies, timing: WatchTiming, slots?: WatchSlots): Promise<ApiResponse | OpenWatch> {
  if (!mayNameCustomKinds(request.path, parseRoute(request.path))) return serveWatch(request, deps, timing, slots);
  let served: ServedResources;
  try {
    served = servedResourcesWith(await deps.objects.customKinds());
  } catch (error) {
    return statusResponse(errorStatus(error, undefined));
  }
  return serveWatch(request, deps, timing, slots, served);
}
