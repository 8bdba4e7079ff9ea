import { isPlainObject } from '../api/plain-object';
import type { JsonObject } from './request-body';
import type { ResourceRoute } from './routes';
import { ApiError } from './status';

function shown(value: unknown): string {
  return typeof value === 'string' ? value : String(JSON.stringify(value)).slice(0, 100);
}

/** A field the URL determines: taken from the URL when the body omits it, refused when they disagree. */
function agreed(bodyValue: unknown, urlValue: string, what: string): string {
  if (bodyValue === undefined) return urlValue;
  if (bodyValue !== urlValue) throw new ApiError('BadRequest', `the ${what} of the object (${shown(bodyValue)}) does not match the ${what} on the URL (${urlValue})`);
  return urlValue;
}

/**
 * The body with the identity the URL gives it (apiVersion, kind, namespace and, on an object's URL,
 * name), as the Kubernetes API server defaults and checks them. A metadata that is not an object is
 * left for validation to report.
 */
export function withUrlIdentity(body: JsonObject, route: ResourceRoute): JsonObject {
  const { info } = route.resource;
  const apiVersion = agreed(body.apiVersion, info.apiVersion, 'API version');
  const kind = agreed(body.kind, info.kind, 'kind');
  const metadata = body.metadata === undefined ? {} : body.metadata;
  if (!isPlainObject(metadata)) return { ...body, apiVersion, kind };
  return {
    ...body,
    apiVersion,
    kind,
    metadata: {
      ...metadata,
      ...(route.namespace !== undefined ? { namespace: agreed(metadata.namespace, route.namespace, 'namespace') } : {}),
      ...(route.name !== undefined ? { name: agreed(metadata.name, route.name, 'name') } : {}),
    },
  };
}
