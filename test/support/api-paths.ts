import { kindInfo } from '../../lib/api/kinds';

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
}

/** Where the API serves a kind's collection; namespaced kinds default to the "default" namespace. */
export function collectionPath(apiVersion: string, kind: string, namespace?: string): string {
  const info = kindInfo(apiVersion, kind);
  if (!info) throw new Error(`no API serves ${kind}`);
  const base = info.apiVersion.includes('/') ? `/apis/${info.apiVersion}` : `/api/${info.apiVersion}`;
  return `${base}${info.namespaced ? `/namespaces/${namespace ?? 'default'}` : ''}/${info.plural}`;
}

/** Where the API serves the collection a manifest belongs to. */
export function manifestPath(manifest: Manifest): string {
  return collectionPath(manifest.apiVersion, manifest.kind, manifest.metadata.namespace);
}
