import type { KindInfo } from '../../lib/api/kinds';
import { resourcePath, type ApiClient } from './api-client';
import { resourceOf } from './kind-aliases';

/** Every object of a kind the API serves (lib/http/served-resources.ts), across all namespaces; those a field selector matches when given. */
export async function listAll<T>(client: ApiClient, info: KindInfo, fieldSelector?: string): Promise<T[]> {
  const resource = resourceOf(info.apiVersion, info.kind)!;
  return (await client.list<T>(resourcePath(resource, undefined), { fieldSelector })).items;
}
