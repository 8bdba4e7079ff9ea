import * as z from 'zod';
import type { WriteVerb } from '../auth/write-request';
import type { ApiDependencies, ApiRequest, ApiResponse } from './api-types';
import { messageField, messageFields, ProtobufError, stringField, unwrapEnvelope } from './protobuf-fields';
import { PROTOBUF } from './protobuf-body';
import { mediaTypeOf, readObjectBody } from './request-body';
import { jsonResponse } from './response';
import { discoveryVerbs, SERVED_RESOURCES, servedResourcesWith, type ServedResource } from './served-resources';
import { ApiError } from './status';

/**
 * SelfSubjectAccessReview and SelfSubjectReview, answered from the tenancy rules, so that
 * `kubectl auth can-i` and `kubectl auth whoami` tell a caller the truth about this API.
 */

export const SELF_SUBJECT_ACCESS_REVIEWS_PATH = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
export const SELF_SUBJECT_REVIEWS_PATH = '/apis/authentication.k8s.io/v1/selfsubjectreviews';

const resourceAttributes = z.looseObject({
  namespace: z.string().max(253).optional(),
  verb: z.string().min(1).max(64),
  group: z.string().max(253).optional(),
  resource: z.string().max(253).optional(),
  subresource: z.string().max(253).optional(),
  name: z.string().max(253).optional(),
});

const accessReview = z.looseObject({
  spec: z.looseObject({
    resourceAttributes: resourceAttributes.optional(),
    nonResourceAttributes: z.looseObject({ path: z.string().max(2048).optional(), verb: z.string().max(64).optional() }).optional(),
  }),
});

type ResourceAttributes = z.infer<typeof resourceAttributes>;

interface Verdict {
  readonly allowed: boolean;
  readonly reason: string;
}

const READ_VERBS = new Set(['get', 'list', 'watch']);
const WRITE_VERBS = new Set<string>(['create', 'update', 'patch', 'delete']);

/** The resource the attributes name: one of outrank's own, else one a stored CustomResourceDefinition registers. */
async function servedResource(attributes: ResourceAttributes, deps: ApiDependencies): Promise<ServedResource | undefined> {
  const group = attributes.group ?? '';
  const named = (resource: ServedResource) => resource.info.plural === attributes.resource && (group === '*' || resource.group === group);
  return SERVED_RESOURCES.find(named) ?? servedResourcesWith(await deps.objects.customKinds()).all.find(named);
}

/** The verbs of a resource or of one of its subresources (none when it has not that subresource). */
function verbsOf(resource: ServedResource, subresource: string | undefined): readonly string[] {
  if (!subresource) return discoveryVerbs(resource);
  const writable = resource.verbs.includes('update');
  if (subresource === 'scale' && resource.scalable) return ['get', 'patch', 'update'];
  if (subresource === 'status' && resource.hasStatus) return writable ? ['get', 'patch', 'update'] : ['get'];
  return [];
}

/** Whether the caller is an admin: every caller is, without tenancy. */
function isAdmin(deps: ApiDependencies): boolean {
  const access = deps.access;
  return !access || (access.identity !== undefined && access.authorizer.scopeOf(access.identity).admin);
}

/**
 * A wildcard verb or resource (`kubectl auth can-i '*' '*'`), as RBAC answers it: an admin may do
 * anything; any caller may read any resource; nothing else covers every verb or every resource.
 */
function wildcardVerdict(attributes: ResourceAttributes, deps: ApiDependencies): Verdict {
  if (isAdmin(deps)) return { allowed: true, reason: deps.access ? 'admins may do anything' : 'no tenancy is configured: every caller may do anything' };
  if (attributes.resource === '*' && READ_VERBS.has(attributes.verb)) return { allowed: true, reason: 'every authenticated caller may read everything' };
  return { allowed: false, reason: 'only admins may do anything to any resource; a tenant writes some kinds in its namespaces (auth can-i --list)' };
}

async function resourceVerdict(attributes: ResourceAttributes, deps: ApiDependencies): Promise<Verdict> {
  if (attributes.verb === '*' || attributes.resource === '*') return wildcardVerdict(attributes, deps);
  const resource = await servedResource(attributes, deps);
  if (!resource) return { allowed: false, reason: `the server does not serve ${attributes.resource ?? 'that resource'}${attributes.group ? ` in group ${attributes.group}` : ''}` };
  const verbs = verbsOf(resource, attributes.subresource);
  const named = attributes.subresource ? `${resource.info.plural}/${attributes.subresource}` : resource.info.plural;
  if (verbs.length === 0) return { allowed: false, reason: `${resource.info.plural} has no ${attributes.subresource} subresource` };
  if (!verbs.includes(attributes.verb)) return { allowed: false, reason: `${named} supports only ${verbs.join(', ')}` };
  if (READ_VERBS.has(attributes.verb)) return { allowed: true, reason: 'every authenticated caller may read everything' };
  const access = deps.access;
  if (!access) return { allowed: true, reason: 'no tenancy is configured: every caller may write everything' };
  if (!WRITE_VERBS.has(attributes.verb) || access.identity === undefined) return { allowed: false, reason: 'unknown verb or caller' };
  const namespace = resource.info.namespaced ? attributes.namespace || undefined : undefined;
  if (resource.info.namespaced && namespace === undefined) {
    // Every namespace at once: only an admin may.
    const decision = access.authorizer.decideScopeAt(access.identity, attributes.verb as WriteVerb, resource.info.plural, undefined);
    return decision.allowed ? { allowed: true, reason: 'admins write everything' } : { allowed: false, reason: 'only admins write in every namespace' };
  }
  const decision = access.authorizer.decideScopeAt(access.identity, attributes.verb as WriteVerb, resource.info.plural, namespace);
  if (!decision.allowed) return { allowed: false, reason: decision.message };
  return { allowed: true, reason: 'allowed by the tenancy rules; the PriorityClasses an object names and non-preemptibility are checked when it is written' };
}

/** kubectl sends its reviews as protobuf: SelfSubjectAccessReview.spec (2) .resourceAttributes (1) with its string fields. */
function protobufReview(request: ApiRequest): unknown {
  if (!request.bodyBytes) throw new ApiError('BadRequest', 'the protobuf body did not arrive as bytes');
  try {
    const review = messageFields(unwrapEnvelope(Buffer.from(request.bodyBytes)));
    const spec = messageField(review, 2);
    if (!spec.has(1)) return { spec: {} };
    const attributes = messageField(spec, 1);
    const names = ['namespace', 'verb', 'group', 'version', 'resource', 'subresource', 'name'] as const;
    const resourceAttributes = Object.fromEntries(names.flatMap((name, index) => {
      const value = stringField(attributes, index + 1);
      return value ? [[name, value]] : [];
    }));
    return { spec: { resourceAttributes } };
  } catch (error) {
    if (error instanceof ProtobufError) throw new ApiError('BadRequest', `the protobuf body cannot be read: ${error.message}`);
    throw error;
  }
}

function reviewBody(request: ApiRequest): unknown {
  return mediaTypeOf(request) === PROTOBUF ? protobufReview(request) : readObjectBody(request, 'json');
}

/** POST selfsubjectaccessreviews: may the caller do this? Reads are open to all; writes follow the tenancy rules. */
export async function selfSubjectAccessReview(request: ApiRequest, deps: ApiDependencies): Promise<ApiResponse> {
  if (request.method.toUpperCase() !== 'POST') throw new ApiError('MethodNotAllowed', 'selfsubjectaccessreviews supports only create');
  const parsed = accessReview.safeParse(reviewBody(request));
  if (!parsed.success) throw new ApiError('BadRequest', `spec.resourceAttributes: ${parsed.error.issues[0]!.message}`);
  const { resourceAttributes: attributes } = parsed.data.spec;
  const verdict: Verdict = attributes
    ? await resourceVerdict(attributes, deps)
    : { allowed: true, reason: 'every authenticated caller may read the discovery and OpenAPI documents' };
  const status = verdict.allowed ? { allowed: true, reason: verdict.reason } : { allowed: false, denied: true, reason: verdict.reason };
  return jsonResponse(201, { kind: 'SelfSubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: {}, spec: parsed.data.spec, status });
}

/** POST selfsubjectreviews: who the API takes the caller to be. */
export function selfSubjectReview(request: ApiRequest, deps: ApiDependencies): ApiResponse {
  if (request.method.toUpperCase() !== 'POST') throw new ApiError('MethodNotAllowed', 'selfsubjectreviews supports only create');
  const username = deps.access?.identity ?? deps.caller ?? 'system:anonymous';
  return jsonResponse(201, {
    kind: 'SelfSubjectReview',
    apiVersion: 'authentication.k8s.io/v1',
    metadata: {},
    status: { userInfo: { username, groups: ['system:authenticated'] } },
  });
}
