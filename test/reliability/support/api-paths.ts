import { kindInfo } from '../../../lib/api/kinds';

export interface Manifest {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly labels?: Readonly<Record<string, string>> };
}

/** Where the API serves the collection a manifest belongs to. */
export function collectionPath(manifest: Manifest): string {
  const info = kindInfo(manifest.apiVersion, manifest.kind);
  if (!info) throw new Error(`no API serves ${manifest.kind}`);
  const base = info.apiVersion.includes('/') ? `/apis/${info.apiVersion}` : `/api/${info.apiVersion}`;
  return `${base}${info.namespaced ? `/namespaces/${manifest.metadata.namespace ?? 'default'}` : ''}/${info.plural}`;
}
