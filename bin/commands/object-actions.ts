import type { ServedResource } from '../../lib/http/served-resources';
import { ApiStatusError, isNotFound, resourcePath, type ApiClient } from '../client/api-client';
import { ObjectError } from '../client/cli-error';
import { qualifiedKind, resourceOf } from '../client/kind-aliases';
import type { CommandContext } from './context';

/** The writes apply, delete and scenario steps make, each printing its outcome as kubectl does. */

export interface ApiObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: {
    readonly name: string;
    readonly namespace?: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    readonly resourceVersion?: string;
    readonly generation?: number;
    readonly creationTimestamp?: string;
  };
  readonly [field: string]: unknown;
}

/** Where an object came from and the namespace it goes to when it names none: `-f web.yaml -n team-a`. */
export interface Source {
  readonly file: string;
  readonly namespace: string;
}

/** An object the API serves: its resource, and its namespace when the kind is namespaced. */
export interface Target {
  readonly resource: ServedResource;
  readonly namespace: string | undefined;
}

/** Runs one object's write; its refusal is printed and remembered, and the command goes on with the next object. */
export async function attempt(context: CommandContext, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof ApiStatusError || error instanceof ObjectError)) throw error;
    context.err(error.message);
    context.failed = true;
  }
}

export function targetOf(apiVersion: string, kind: string, name: string | undefined, namespace: string | undefined, source: Source): Target {
  const resource = resourceOf(apiVersion, kind);
  if (!resource) {
    throw new ObjectError(
      `error: resource mapping not found for name: "${name ?? ''}" namespace: "${namespace ?? ''}" from "${source.file}": no matches for kind "${kind}" in version "${apiVersion}"`,
    );
  }
  return { resource, namespace: resource.info.namespaced ? (namespace ?? source.namespace) : undefined };
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

async function send(client: ApiClient, method: string, path: string, body: unknown, action: string): Promise<ApiObject> {
  try {
    return await client.request<ApiObject>(method, path, { body });
  } catch (error) {
    throw error instanceof ApiStatusError ? error.during(action) : error;
  }
}

/**
 * kubectl apply without its three-way merge: the manifest is created, or replaces the object at the
 * version just read, so a change made in between is refused (409) rather than overwritten unseen.
 * An object without a name is sent to be created, for the server's validation to name the field.
 */
export async function applyObject(context: CommandContext, client: ApiClient, raw: unknown, source: Source): Promise<void> {
  const object = record(raw);
  const metadata = record(object.metadata);
  const apiVersion = text(object.apiVersion);
  const kind = text(object.kind);
  if (!apiVersion || !kind) throw new ObjectError(`error: error validating "${source.file}": every object must set apiVersion and kind`);
  const name = text(metadata.name);
  const { resource, namespace } = targetOf(apiVersion, kind, name, text(metadata.namespace), source);
  const current = name === undefined ? undefined : await client.get<ApiObject>(resourcePath(resource, namespace, name)).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (!current) {
    const created = await send(client, 'POST', resourcePath(resource, namespace), object, `error when creating "${source.file}"`);
    context.out(`${qualifiedKind(resource)}/${created.metadata.name} created`);
    return;
  }
  const replacement = { ...object, metadata: { ...metadata, resourceVersion: current.metadata.resourceVersion } };
  const replaced = await send(client, 'PUT', resourcePath(resource, namespace, name), replacement, `error when replacing "${source.file}"`);
  // The server keeps the version of a write that changes nothing, as Kubernetes does: kubectl's "unchanged".
  const outcome = replaced.metadata.resourceVersion === current.metadata.resourceVersion ? 'unchanged' : 'configured';
  context.out(`${qualifiedKind(resource)}/${name} ${outcome}`);
}

/** The server applies a patch without a resourceVersion to the newest object, as Kubernetes' API server does. */
export async function patchObject(context: CommandContext, client: ApiClient, target: Target, name: string, patch: unknown): Promise<void> {
  await client.request('PATCH', resourcePath(target.resource, target.namespace, name), { body: patch, contentType: 'application/merge-patch+json' });
  context.out(`${qualifiedKind(target.resource)}/${name} patched`);
}

export async function deleteObject(context: CommandContext, client: ApiClient, target: Target, name: string): Promise<void> {
  await client.request('DELETE', resourcePath(target.resource, target.namespace, name));
  context.out(`${qualifiedKind(target.resource)} "${name}" deleted`);
}
