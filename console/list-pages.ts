import { readWholeList, type ListAnswer } from '../lib/api/list-chunks';

export interface ListRead<T> {
  readonly items: T[];
  /** The first chunk's: where a watch of the list starts. */
  readonly resourceVersion: string | undefined;
}

/** `path` with the query parameters that are set. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const parameters = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return `${path}?${parameters}`;
}

/** Every item of a list, LIST_CHUNK at a time (readWholeList), as kubectl reads one. */
export async function readList<T>(path: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<ListRead<T>> {
  const list = await readWholeList(async (chunk) => {
    const response = await fetch(withQuery(path, { ...query, ...chunk }), { headers: { accept: 'application/json' }, signal });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
    return (await response.json()) as ListAnswer<T>;
  });
  return { items: list.items, resourceVersion: list.metadata?.resourceVersion };
}
