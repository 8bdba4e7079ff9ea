/** Items a list request asks for at once: kubectl's default chunk size. */
const LIST_CHUNK = 500;

export interface ListRead<T> {
  readonly items: T[];
  /** The first page's: where a watch of the list starts. */
  readonly resourceVersion: string | undefined;
}

/** `path` with the query parameters that are set. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const parameters = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined));
  return `${path}?${parameters}`;
}

/**
 * Every item of a list, read as kubectl reads one: LIST_CHUNK at a time, following each page's continue
 * token, so that no answer outgrows what the API can carry (a Lambda function's response is at most
 * 6 MB; 10,000 bindings are several times that).
 */
export async function readList<T>(path: string, query: Record<string, string | undefined>, signal?: AbortSignal): Promise<ListRead<T>> {
  const items: T[] = [];
  let resourceVersion: string | undefined;
  let token: string | undefined;
  do {
    const response = await fetch(withQuery(path, { ...query, limit: String(LIST_CHUNK), continue: token }), { headers: { accept: 'application/json' }, signal });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${response.statusText}`);
    const page = (await response.json()) as { items: T[]; metadata?: { resourceVersion?: string; continue?: string } };
    items.push(...page.items);
    resourceVersion ??= page.metadata?.resourceVersion;
    token = page.metadata?.continue;
  } while (token);
  return { items, resourceVersion };
}
