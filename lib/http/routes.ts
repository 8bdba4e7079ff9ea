import { apiGroup, apiGroupList, apiResourceList, apiVersions, versionInfo } from './discovery';
import { groupVersionDocument, openApiRoot } from './openapi';
import type { CustomKinds } from '../api/custom-kinds';
import { ServedResources, servedResourcesWith, type ServedResource, type Verb } from './served-resources';

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
  /** The OpenAPI v2 document: empty (openapi.ts, emptyOpenApiV2). */
  | { readonly type: 'openapi-v2' }
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
function groupVersionRoute(served: ServedResources, group: string, version: string, rest: readonly string[]): Route | undefined {
  const find = (plural: string) => served.find(group, version, plural);
  if (rest.length === 0) return document(apiResourceList(served, group, version));
  if (rest[0] === 'namespaces' && rest.length >= 3 && rest.length <= 4) return resourceRoute(find(rest[2]!), rest[1], rest[3]);
  if (rest[0] === 'namespaces' && rest.length === 5) return subresourceRoute(find(rest[2]!), rest[1], rest[3]!, rest[4]!);
  if (rest.length <= 2) return resourceRoute(find(rest[0]!), undefined, rest[1]);
  if (rest.length === 3) return subresourceRoute(find(rest[0]!), undefined, rest[1]!, rest[2]!);
  return undefined;
}

/** /openapi/v3, or one group-version's document under it (api/v1, apis/<group>/<version>). */
function openApiRoute(served: ServedResources, rest: readonly string[]): Route | undefined {
  if (rest.length === 0) return document(openApiRoot(served));
  const [root, ...groupVersion] = rest;
  const body =
    root === 'api' && groupVersion.length === 1 ? groupVersionDocument(served, '', groupVersion[0]!)
    : root === 'apis' && groupVersion.length === 2 ? groupVersionDocument(served, groupVersion[0]!, groupVersion[1]!)
    : undefined;
  return body === undefined ? undefined : { type: 'openapi', body };
}

/**
 * Whether what the path addresses may depend on the kinds stored CustomResourceDefinitions register: a
 * path under /apis that names no resource outrank serves by itself (a custom kind, or discovery of the
 * groups), or an OpenAPI document of a named group. The core group (/api) has none.
 */
export function mayNameCustomKinds(path: string, builtIn: Route | undefined): boolean {
  if (builtIn?.type === 'resource') return false;
  return path === '/apis' || path.startsWith('/apis/') || path === '/openapi/v3' || path.startsWith('/openapi/v3/apis/');
}

/**
 * What a URL path addresses, or undefined when it addresses nothing this API serves. `served` are the
 * resources served: outrank's own, and those of the custom kinds when the caller read them.
 */
export function parseRoute(path: string, served: ServedResources = ServedResources.BUILT_IN): Route | undefined {
  const segments = segmentsOf(path);
  if (!segments) return undefined;
  const [root, ...rest] = segments;
  switch (root) {
    case 'version':
      return rest.length === 0 ? document(versionInfo()) : undefined;
    case 'openapi':
      if (rest[0] === 'v2' && rest.length === 1) return { type: 'openapi-v2' };
      return rest[0] === 'v3' ? openApiRoute(served, rest.slice(1)) : undefined;
    case 'api':
      if (rest.length === 0) return document(apiVersions());
      return rest[0] === 'v1' ? groupVersionRoute(served, '', 'v1', rest.slice(1)) : undefined;
    case 'apis':
      if (rest.length === 0) return document(apiGroupList(served));
      if (rest.length === 1) return document(apiGroup(served, rest[0]!));
      return groupVersionRoute(served, rest[0]!, rest[1]!, rest.slice(2));
    default:
      return undefined;
  }
}

/**
 * What a URL path addresses, reading the kinds the stored CustomResourceDefinitions register only when
 * the path may name one (mayNameCustomKinds): a request for one of outrank's own resources reads nothing.
 */
export async function routeOf(path: string, customKinds: () => Promise<CustomKinds>): Promise<Route | undefined> {
  const builtIn = parseRoute(path);
  return mayNameCustomKinds(path, builtIn) ? parseRoute(path, servedResourcesWith(await customKinds())) : builtIn;
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
