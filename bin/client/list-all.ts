import type { KindInfo } from '../../lib/api/kinds';
import { resourcePath, type ApiClient } from './api-client';
import { resourceOf } from './kind-aliases';

/** Every object of a kind the API serves (lib/http/served-resources.ts), across all namespaces. */
export async function listAll<T>(client: ApiClient, info: KindInfo): Promise<T[]> {
  const resource = resourceOf(info.apiVersion, info.kind)!;
  return (await client.get<{ items: T[] }>(resourcePath(resource, undefined))).items;
}
