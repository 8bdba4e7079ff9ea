import { readList, withQuery } from './list-pages';

/**
 * A list kept up to date as an informer keeps it: listed once, then watched from the list's
 * resourceVersion (ADDED, MODIFIED, DELETED, BOOKMARK), watched again from the last version when the
 * stream ends or the server refuses a watch for now (429: too many open, after its Retry-After, backing
 * off), and listed afresh after an ERROR (410 Expired) or a failure. Each change is handed on
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
const MAX_REFUSED_DELAY_MS = 30_000;

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

/**
 * Which items of a list are kept. A watch with a field selector reads the whole kind when it opens, to
 * know what the selector matched at the list's version; given `keep` (true for what `fieldSelector`
 * selects), the list is read with the selector and watched without it, from the selected list's version,
 * which reads only the changes after it, and each change is kept or dropped by `keep`.
 */
export interface ListSelection<T> {
  readonly fieldSelector?: string;
  readonly keep?: (item: T) => boolean;
}

/** Lists and watches `path` (selected, if asked) until `signal` aborts, handing on every version of the items. */
export async function watchList<T extends Listed>(path: string, selection: ListSelection<T>, onItems: (items: T[]) => void, signal: AbortSignal): Promise<void> {
  const { fieldSelector, keep } = selection;
  const watchSelector = keep ? undefined : fieldSelector;
  const items = new Map<string, T>();
  let handOn: ReturnType<typeof setTimeout> | undefined;
  const changed = () => (handOn ??= setTimeout(() => ((handOn = undefined), onItems([...items.values()])), HAND_ON_MS));
  let version: string | undefined;
  let refused = 0;
  while (!signal.aborted) {
    try {
      if (version === undefined) {
        const list = await readList<T>(path, { fieldSelector }, signal);
        items.clear();
        for (const item of list.items) items.set(keyOf(item), item);
        version = list.resourceVersion ?? '0';
        onItems([...items.values()]);
      }
      const response = await fetch(withQuery(path, { watch: '1', resourceVersion: version, allowWatchBookmarks: 'true', fieldSelector: watchSelector }), { signal });
      if (response.status === 429) {
        // Too many watches open: keep the list and its version, and watch again later, backing off as client-go does.
        await pause(refusedWatchDelayMs(response, (refused += 1)), signal);
        continue;
      }
      refused = 0;
      if (!response.ok || !response.body) throw new Error(`watch ${path}: ${response.status}`);
      for await (const line of lines(response.body)) {
        const event = JSON.parse(line) as WatchEvent<T>;
        if (event.type === 'ERROR') {
          version = undefined; // 410 Expired: list again
          break;
        }
        version = event.object.metadata.resourceVersion ?? version;
        if (event.type === 'BOOKMARK') continue;
        const key = keyOf(event.object);
        if (event.type !== 'DELETED' && (keep?.(event.object) ?? true)) items.set(key, event.object);
        else if (!items.delete(key)) continue; // neither kept before nor now: nothing to draw
        changed();
      }
    } catch {
      if (signal.aborted) return;
      version = undefined;
      await pause(RETRY_MS, signal);
    }
  }
}

/** The server's Retry-After (at least a second), doubled for each refusal in a row, at most 30 s. */
export function refusedWatchDelayMs(response: Pick<Response, 'headers'>, refusals: number): number {
  const retryAfter = Number(response.headers.get('retry-after'));
  const base = Number.isFinite(retryAfter) && retryAfter >= 1 ? retryAfter * 1_000 : RETRY_MS;
  return Math.min(MAX_REFUSED_DELAY_MS, base * 2 ** Math.min(refusals - 1, 5));
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}
