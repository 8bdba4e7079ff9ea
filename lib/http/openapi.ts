import { createHash } from 'node:crypto';
import * as z from 'zod';
import { schemaOf } from '../api/decode';
import { workloadMetaSchema } from '../api/workload-shapes';
import type { ServedResource, ServedResources, Verb } from './served-resources';

/**
 * OpenAPI v3 documents of the served kinds, generated from the zod schemas that validate them, as
 * kube-apiserver serves them: /openapi/v3 lists one document per group-version, each with the paths
 * of its resources and the schemas of its kinds. kubectl reads them to learn that the server
 * validates fields itself (the `fieldValidation` parameter of each PATCH, found by the operation's
 * `x-kubernetes-group-version-kind`), for `kubectl explain`, and for the merge keys of its patches.
 * OpenAPI v2 is served empty (emptyOpenApiV2).
 */

type JsonSchema = Record<string, unknown>;

interface Parameter {
  readonly name: string;
  readonly in: 'query' | 'path';
  readonly description: string;
  readonly required?: boolean;
  readonly schema: JsonSchema;
}

const STRING = { type: 'string' };

function query(name: string, description: string, schema: JsonSchema = STRING): Parameter {
  return { name, in: 'query', description, schema };
}

const WRITE_PARAMETERS: readonly Parameter[] = [
  query('dryRun', 'All: validate and answer what would be stored, writing nothing.', { type: 'string', enum: ['All'] }),
  query('fieldValidation', 'What to do with unknown and duplicate fields: Strict (the default here) refuses the request, Warn drops them with a Warning header, Ignore drops them.', {
    type: 'string',
    enum: ['Strict', 'Warn', 'Ignore'],
  }),
  query('fieldManager', 'Who makes the change: the fields it changes become its own in managedFields. Required for server-side apply; else taken from the user agent.'),
];
const PATCH_PARAMETERS: readonly Parameter[] = [...WRITE_PARAMETERS, query('force', 'Server-side apply: take the fields other managers own instead of refusing with a conflict.', { type: 'boolean' })];
const LIST_PARAMETERS: readonly Parameter[] = [
  query('labelSelector', 'Only objects whose labels match.'),
  query('fieldSelector', 'Only objects whose fields match (metadata.name, metadata.namespace).'),
];

const PATCH_MEDIA_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/apply-patch+yaml'];

function gvk(resource: ServedResource): { group: string; version: string; kind: string } {
  return { group: resource.group, version: resource.version, kind: resource.info.kind };
}

/** io.k8s.api.apps.v1.Deployment for Kubernetes' groups, the reversed domain (io.karmada.policy.v1alpha1.PropagationPolicy) for the others. */
export function schemaName(resource: ServedResource): string {
  const { group, version, kind } = gvk(resource);
  if (!group.includes('.') || group.endsWith('.k8s.io')) return `io.k8s.api.${group.replace(/\.k8s\.io$/, '') || 'core'}.${version}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  const { $schema: _dialect, ...body } = z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return body;
}

/** What every object has, whatever its CRD's schema says of it: kubectl finds metadata's fields here for its patches. */
const OBJECT_FIELDS: JsonSchema = {
  apiVersion: { type: 'string', description: 'The versioned schema of this object.' },
  kind: { type: 'string', description: 'The kind of this object.' },
  metadata: jsonSchemaOf(workloadMetaSchema),
};

/** A custom kind's schema is its CRD version's openAPIV3Schema with the standard apiVersion, kind and metadata, as kube-apiserver publishes it. */
function customKindSchema(resource: ServedResource): JsonSchema | undefined {
  const schema = resource.custom?.schema;
  if (!schema) return undefined;
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  return { ...schema, properties: { ...properties, ...OBJECT_FIELDS }, 'x-kubernetes-group-version-kind': [gvk(resource)] };
}

function kindSchema(resource: ServedResource): JsonSchema {
  const custom = customKindSchema(resource);
  if (custom) return custom;
  const schema = schemaOf(resource.info.apiVersion, resource.info.kind);
  const body = schema
    ? jsonSchemaOf(schema)
    : { type: 'object', description: `outrank's ${resource.info.kind} records, read-only.`, 'x-kubernetes-preserve-unknown-fields': true };
  return { ...body, 'x-kubernetes-group-version-kind': [gvk(resource)] };
}

function reference(resource: ServedResource): JsonSchema {
  return { $ref: `#/components/schemas/${schemaName(resource)}` };
}

function operation(resource: ServedResource, action: string, verb: Verb | 'listAllNamespaces', extra: Record<string, unknown>): Record<string, unknown> {
  const body = { content: { 'application/json': { schema: reference(resource) } } };
  return {
    operationId: `${verb}${resource.info.kind}`,
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk(resource),
    responses: { '200': { description: 'OK', ...body } },
    ...extra,
  };
}

function requestBody(resource: ServedResource, mediaTypes: readonly string[]): Record<string, unknown> {
  return { required: true, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema: reference(resource) }])) };
}

const NAME: Parameter = { name: 'name', in: 'path', required: true, description: 'The name of the object.', schema: STRING };
const NAMESPACE: Parameter = { name: 'namespace', in: 'path', required: true, description: 'The namespace of the objects.', schema: STRING };

function collectionItem(resource: ServedResource): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  if (resource.verbs.includes('list')) item.get = operation(resource, 'list', 'list', { parameters: LIST_PARAMETERS });
  if (resource.verbs.includes('create')) {
    item.post = operation(resource, 'post', 'create', { parameters: WRITE_PARAMETERS, requestBody: requestBody(resource, ['application/json', 'application/yaml']) });
  }
  return item;
}

function objectItem(resource: ServedResource): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  if (resource.verbs.includes('get')) item.get = operation(resource, 'get', 'get', {});
  if (resource.verbs.includes('update')) {
    item.put = operation(resource, 'put', 'update', { parameters: WRITE_PARAMETERS, requestBody: requestBody(resource, ['application/json', 'application/yaml']) });
  }
  if (resource.verbs.includes('patch')) item.patch = operation(resource, 'patch', 'patch', { parameters: PATCH_PARAMETERS, requestBody: requestBody(resource, PATCH_MEDIA_TYPES) });
  if (resource.verbs.includes('delete')) item.delete = operation(resource, 'delete', 'delete', { parameters: [WRITE_PARAMETERS[0]!] });
  return item;
}

function pathsOf(resource: ServedResource): Record<string, unknown> {
  const root = resource.group ? `/apis/${resource.group}/${resource.version}` : `/api/${resource.version}`;
  const plural = resource.info.plural;
  if (!resource.info.namespaced) {
    return { [`${root}/${plural}`]: collectionItem(resource), [`${root}/${plural}/{name}`]: { parameters: [NAME], ...objectItem(resource) } };
  }
  return {
    [`${root}/${plural}`]: { get: operation(resource, 'list', 'listAllNamespaces', { parameters: LIST_PARAMETERS }) },
    [`${root}/namespaces/{namespace}/${plural}`]: { parameters: [NAMESPACE], ...collectionItem(resource) },
    [`${root}/namespaces/{namespace}/${plural}/{name}`]: { parameters: [NAMESPACE, NAME], ...objectItem(resource) },
  };
}

interface Served {
  readonly body: string;
  readonly hash: string;
}

function servedDocument(document: object): Served {
  const body = JSON.stringify(document);
  return { body, hash: createHash('sha256').update(body).digest('hex').slice(0, 32).toUpperCase() };
}

/** The key of a group-version in /openapi/v3: api/v1 or apis/<group>/<version>. */
function pathKey(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

/** Documents made, by group-version and the versions of the CustomResourceDefinitions in it. */
const documents = new Map<string, Served>();
/** Beyond it the documents of custom kinds, which change with their definitions, are made again. */
const DOCUMENTS_KEPT = 1_000;

/** What a group-version's document is made of: its path key, and the definition of each custom kind in it at its version. */
function documentKey(group: string, version: string, resources: readonly ServedResource[]): string {
  const definitions = resources.flatMap((resource) => {
    const definition = resource.custom?.kind.definition;
    return definition ? [`${definition.metadata.name}@${definition.metadata.resourceVersion ?? ''}`] : [];
  });
  return [pathKey(group, version), ...definitions].join('|');
}

/** The OpenAPI v3 document of one group-version, or undefined when it serves nothing. Built once per process, and again when a CRD in it changes. */
export function groupVersionDocument(served: ServedResources, group: string, version: string): string | undefined {
  return groupVersionServed(served, group, version)?.body;
}

function groupVersionServed(served: ServedResources, group: string, version: string): Served | undefined {
  const resources = served.of(group, version);
  if (resources.length === 0) return undefined;
  const key = documentKey(group, version, resources);
  const cached = documents.get(key);
  if (cached) return cached;
  const document = servedDocument({
    openapi: '3.0.0',
    info: { title: 'outrank', version: resources[0]!.info.apiVersion },
    paths: Object.assign({}, ...resources.map(pathsOf)),
    components: { schemas: Object.fromEntries(resources.map((resource) => [schemaName(resource), kindSchema(resource)])) },
  });
  if (documents.size >= DOCUMENTS_KEPT) documents.clear();
  documents.set(key, document);
  return document;
}

/** GET /openapi/v3: where each group-version's document is, with a hash that changes with it. */
export function openApiRoot(served: ServedResources): object {
  const keys = new Map(served.all.map((resource) => [pathKey(resource.group, resource.version), resource]));
  return {
    paths: Object.fromEntries(
      [...keys].map(([key, resource]) => [key, { serverRelativeURL: `/openapi/v3/${key}?hash=${groupVersionServed(served, resource.group, resource.version)!.hash}` }]),
    ),
  };
}

const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/**
 * GET /openapi/v2: a document with no definitions. kubectl reads OpenAPI v3, and asks for v2 (in
 * protobuf) only to validate on the client an object whose kind the server does not serve yet — a
 * custom resource applied with its CustomResourceDefinition — and skips what v2 does not define, as
 * against kube-apiserver: the object then fails as kubectl fails it there ("no matches for kind …
 * ensure CRDs are installed first") and the next apply, its CRD stored, succeeds. An empty protobuf
 * message is an empty document.
 */
export function emptyOpenApiV2(accept: string | undefined): { contentType: string; body: string } {
  if ((accept ?? '').includes('protobuf')) return { contentType: OPENAPI_V2_PROTOBUF, body: '' };
  return { contentType: 'application/json', body: JSON.stringify({ swagger: '2.0', info: { title: 'outrank', version: 'v2' }, paths: {} }) };
}
