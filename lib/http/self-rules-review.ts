import type { WriteScope } from '../auth/write-scope';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { messageField, messageFields, ProtobufError, stringField, unwrapEnvelope } from './protobuf-fields';
import { PROTOBUF } from './protobuf-body';
import { mediaTypeOf, readObjectBody } from './request-body';
import { jsonResponse } from './response';
import { SERVED_RESOURCES, type ServedResource } from './served-resources';
import { ApiError } from './status';

/**
 * SelfSubjectRulesReview, so that `kubectl auth can-i --list [-n ns]` tells a caller the truth: every
 * caller reads everything (and the discovery, OpenAPI and health paths); an admin (every caller,
 * without tenancy) may do anything; a tenant writes, in its namespaces, the namespaced kinds users
 * write (bindings only patched, events never).
 */

export const SELF_SUBJECT_RULES_REVIEWS_PATH = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';

interface ResourceRule {
  readonly verbs: readonly string[];
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
}

const READS: ResourceRule = { verbs: ['get', 'list', 'watch'], apiGroups: ['*'], resources: ['*'] };
const EVERYTHING: ResourceRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
const PUBLIC_PATHS = { verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/version', '/openapi/*', '/healthz', '/livez', '/readyz', '/readyz/*', '/livez/*'] };

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete']);

/** A tenant's writes in one of its namespaces: one rule per group and set of verbs, as RBAC roles group them. */
function tenantRules(): ResourceRule[] {
  const rules = new Map<string, { verbs: string[]; group: string; resources: string[] }>();
  for (const resource of SERVED_RESOURCES.filter((r: ServedResource) => r.info.namespaced)) {
    const verbs = resource.verbs.filter((verb) => WRITE_VERBS.has(verb));
    if (verbs.length === 0) continue;
    const key = `${resource.group}|${verbs.join(',')}`;
    const rule = rules.get(key) ?? { verbs, group: resource.group, resources: [] };
    rule.resources.push(resource.info.plural);
    rules.set(key, rule);
  }
  return [...rules.values()].map(({ verbs, group, resources }) => ({ verbs, apiGroups: [group], resources }));
}

function resourceRules(scope: WriteScope, namespace: string): ResourceRule[] {
  if (scope.admin) return [EVERYTHING, READS];
  return scope.namespaces.has(namespace) ? [...tenantRules(), READS] : [READS];
}

/** kubectl sends the review as protobuf: SelfSubjectRulesReview.spec (2) .namespace (1). */
function protobufNamespace(request: ApiRequest): string | undefined {
  if (!request.bodyBytes) throw new ApiError('BadRequest', 'the protobuf body did not arrive as bytes');
  try {
    return stringField(messageField(messageFields(unwrapEnvelope(Buffer.from(request.bodyBytes))), 2), 1);
  } catch (error) {
    if (error instanceof ProtobufError) throw new ApiError('BadRequest', `the protobuf body cannot be read: ${error.message}`);
    throw error;
  }
}

function namespaceOf(request: ApiRequest): string {
  if (mediaTypeOf(request) === PROTOBUF) return protobufNamespace(request) ?? '';
  const body = readObjectBody(request, 'json');
  const spec = body.spec as { namespace?: unknown } | undefined;
  if (spec?.namespace !== undefined && typeof spec.namespace !== 'string') throw new ApiError('BadRequest', 'spec.namespace: must be a string');
  return spec?.namespace ?? '';
}

/** POST selfsubjectrulesreviews: what may the caller do in spec.namespace? */
export function selfSubjectRulesReview(request: ApiRequest, deps: ApiDependencies): ApiResponse {
  if (request.method.toUpperCase() !== 'POST') throw new ApiError('MethodNotAllowed', 'selfsubjectrulesreviews supports only create');
  const namespace = namespaceOf(request);
  const access = deps.access;
  const scope: WriteScope = access && access.identity !== undefined ? access.authorizer.scopeOf(access.identity) : { admin: true };
  return jsonResponse(201, {
    kind: 'SelfSubjectRulesReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: {},
    spec: { namespace },
    status: { resourceRules: resourceRules(scope, namespace), nonResourceRules: [PUBLIC_PATHS], incomplete: false },
  });
}
