import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery';
import { groupVersionDocument, openApiRoot } from './openapi';
import { findResource, type ServedResource, type Verb } from './served-resources';

/** A URL under a resource: its collection, or one object when the URL names it. */
export interface ResourceRoute {
  readonly type: 'resource';
  readonly resource: ServedResource;
  /** Undefined for cluster-scoped resources and for lists across all namespaces. */
  readonly namespace: string | undefined;
  /** Undefined for the collection. */
  readonly name: string | undefined;
  /** A subresource: a workload template's scale (…/deployments/web/scale), an object's status. */
  readonly subresource?: Subresource;
}

export type Route =
  | { readonly type: 'document'; readonly body: object }
  /** A group-version's OpenAPI v3 document, serialized once. */
  | { readonly type: 'openapi'; readonly body: string }
  | ResourceRoute;

function document(body: object | undefined): Route | undefined {
  return body && { type: 'document', body };
}

function segmentsOf(path: string): string[] | undefined {
  try {
    return path.split('/').filter((s) => s.length > 0).map((s) => decodeURIComponent(s));
  } catch {
    return undefined; // malformed percent-encoding names nothing
  }
}

function resourceRoute(resource: ServedResource | undefined, namespace: string | undefined, name: string | undefined): Route | undefined {
  if (!resource) return undefined;
  // A namespaced kind has no objects outside a namespace; a cluster-scoped kind none inside one.
  if (namespace !== undefined && !resource.info.namespaced) return undefined;
  if (name !== undefined && namespace === undefined && resource.info.namespaced) return undefined;
  return { type: 'resource', resource, namespace, name };
}

export type Subresource = 'scale' | 'status';

/** …/<plural>/<name>/<subresource>, when the resource has that subresource. */
function subresourceRoute(resource: ServedResource | undefined, namespace: string | undefined, name: string, subresource: string): Route | undefined {
  const route = resourceRoute(resource, namespace, name);
  if (route?.type !== 'resource') return undefined;
  if (subresource === 'scale' && route.resource.scalable) return { ...route, subresource };
  if (subresource === 'status' && route.resource.hasStatus) return { ...route, subresource };
  return undefined;
}

/** What follows /api/v1 or /apis/<group>/<version>: [namespaces/<ns>/]<plural>[/<name>[/<subresource>]]. */
function groupVersionRoute(group: string, version: string, rest: readonly string[]): Route | undefined {
  if (rest.length === 0) return document(apiResourceList(group, version));
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest.length <= 4) {
    return resourceRoute(findResource(group, version, rest[2]!), rest[1], rest[3]);
  }
  if (rest[0] === 'namespaces' && rest.length === 5) return subresourceRoute(findResource(group, version, rest[2]!), rest[1], rest[3]!, rest[4]!);
  if (rest.length <= 2) return resourceRoute(findResource(group, version, rest[0]!), undefined, rest[1]);
  if (rest.length === 3) return subresourceRoute(findResource(group, version, rest[0]!), undefined, rest[1]!, rest[2]!);
  return undefined;
}

/** /openapi/v3, or one group-version's document under it (api/v1, apis/<group>/<version>). */
function openApiRoute(rest: readonly string[]): Route | undefined {
  if (rest.length === 0) return document(openApiRoot());
  const [root, ...groupVersion] = rest;
  const body =
    root === 'api' && groupVersion.length === 1 ? groupVersionDocument('', groupVersion[0]!)
    : root === 'apis' && groupVersion.length === 2 ? groupVersionDocument(groupVersion[0]!, groupVersion[1]!)
    : undefined;
  return body === undefined ? undefined : { type: 'openapi', body };
}

/** What a URL path addresses, or undefined when it addresses nothing this API serves. */
export function parseRoute(path: string): Route | undefined {
  const segments = segmentsOf(path);
  if (!segments) return undefined;
  const [root, ...rest] = segments;
  switch (root) {
    case 'version':
      return rest.length === 0 ? document(versionInfo()) : undefined;
    case 'openapi':
      return rest[0] === 'v3' ? openApiRoute(rest.slice(1)) : undefined;
    case 'api':
      if (rest.length === 0) return document(apiVersions());
      return rest[0] === 'v1' ? groupVersionRoute('', 'v1', rest.slice(1)) : undefined;
    case 'apis':
      if (rest.length === 0) return document(apiGroupList());
      if (rest.length === 1) return document(apiGroup(rest[0]!));
      return groupVersionRoute(rest[0]!, rest[1]!, rest.slice(2));
    default:
      return undefined;
  }
}

/** What a request asks of a resource: a verb, and the object's name for verbs on one object. */
export type Operation =
  | { readonly verb: Extract<Verb, 'list' | 'create'> }
  | { readonly verb: Extract<Verb, 'get' | 'update' | 'patch' | 'delete'>; readonly name: string };

function collectionOperation(method: string, route: ResourceRoute): Operation | undefined {
  if (method === 'GET') return { verb: 'list' };
  // Objects are created in a namespace, never across all of them.
  const acrossNamespaces = route.resource.info.namespaced && route.namespace === undefined;
  return method === 'POST' && !acrossNamespaces ? { verb: 'create' } : undefined;
}

const ITEM_VERBS = new Map<string, Extract<Verb, 'get' | 'update' | 'patch' | 'delete'>>([
  ['GET', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
]);

function itemOperation(method: string, name: string): Operation | undefined {
  const verb = ITEM_VERBS.get(method);
  return verb && { verb, name };
}

/** The operation a method means on a route, or undefined when Kubernetes has none (POST to an object, PUT to a collection). */
export function operationOf(method: string, route: ResourceRoute): Operation | undefined {
  const upper = method.toUpperCase();
  return route.name === undefined ? collectionOperation(upper, route) : itemOperation(upper, route.name);
}
