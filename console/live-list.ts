import { readList, withQuery } from './list-pages';

/**
 * A list kept up to date as an informer keeps it: listed once, then watched from the list's
 * resourceVersion (ADDED, MODIFIED, DELETED, BOOKMARK), watched again from the last version when the
 * stream ends, and listed afresh after an ERROR (410 Expired) or a failure. Each change is handed on
 * at most every 100 ms, so a burst of events draws once.
 */

interface Listed {
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly resourceVersion?: string };
}

interface WatchEvent<T> {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: T;
}

const keyOf = (object: Listed) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;
const HAND_ON_MS = 100;
const RETRY_MS = 1_000;

async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += decoder.decode(value, { stream: true });
    for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
      yield buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
    }
  }
}

/** Lists and watches `path` (with a field selector, if given) until `signal` aborts, handing on every version of the items. */
export async function watchList<T extends Listed>(path: string, fieldSelector: string | undefined, onItems: (items: T[]) => void, signal: AbortSignal): Promise<void> {
  const items = new Map<string, T>();
  let handOn: ReturnType<typeof setTimeout> | undefined;
  const changed = () => (handOn ??= setTimeout(() => ((handOn = undefined), onItems([...items.values()])), HAND_ON_MS));
  let version: string | undefined;
  while (!signal.aborted) {
    try {
      if (version === undefined) {
        const list = await readList<T>(path, { fieldSelector }, signal);
        items.clear();
        for (const item of list.items) items.set(keyOf(item), item);
        version = list.resourceVersion ?? '0';
        onItems([...items.values()]);
      }
      const response = await fetch(withQuery(path, { watch: '1', resourceVersion: version, allowWatchBookmarks: 'true', fieldSelector }), { signal });
      if (!response.ok || !response.body) throw new Error(`watch ${path}: ${response.status}`);
      for await (const line of lines(response.body)) {
        const event = JSON.parse(line) as WatchEvent<T>;
        if (event.type === 'ERROR') {
          version = undefined; // 410 Expired: list again
          break;
        }
        version = event.object.metadata.resourceVersion ?? version;
        if (event.type === 'BOOKMARK') continue;
        if (event.type === 'DELETED') items.delete(keyOf(event.object));
        else items.set(keyOf(event.object), event.object);
        changed();
      }
    } catch {
      if (signal.aborted) return;
      version = undefined;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}
