/** Items a client asks a list for at once: kubectl's default chunk size. */
export const LIST_CHUNK = 500;

/** A Kubernetes List as the API answers it. */
export interface ListAnswer<T> {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: T[];
}

/** The query of one chunk of a list. */
export interface ChunkQuery {
  readonly limit: string;
  readonly continue?: string;
}

/**
 * Every item of a list, read as kubectl reads one: LIST_CHUNK at a time, following each chunk's continue
 * token, so that no answer outgrows what the API can carry (a Lambda function's response is at most
 * 6 MB; 10,000 bindings are several times that). The list comes back as its first chunk (its version
 * is where a watch of it starts), with every item and no continue token.
 */
export async function readWholeList<T>(readChunk: (query: ChunkQuery) => Promise<ListAnswer<T>>): Promise<ListAnswer<T>> {
  const first = await readChunk({ limit: String(LIST_CHUNK) });
  const items = [...first.items];
  for (let token = first.metadata?.continue; token; ) {
    const chunk = await readChunk({ limit: String(LIST_CHUNK), continue: token });
    items.push(...chunk.items);
    token = chunk.metadata?.continue;
  }
  const { continue: _first, ...metadata } = first.metadata ?? {};
  return { ...first, metadata, items };
}
