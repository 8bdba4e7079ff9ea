/**
 * Many clients writing through the HTTP API at once, as kubectl and GitOps tools do: each client sends
 * its manifests one after another, and a 429 or 503 is retried after the Retry-After it carries (as
 * client-go does). What the server answered is counted by status, with each request's latency.
 */
import { manifestPath, type Manifest } from './api-paths';

/** Attempts of one write the server keeps throttling; more means the server is not draining. */
const MAX_ATTEMPTS = 30;

export interface LoadReport {
  /** Answers by HTTP status, every attempt counted. */
  readonly statuses: ReadonlyMap<number, number>;
  /** 429 and 503 answers without a Retry-After header: a client could not know when to come back. */
  readonly throttledWithoutRetryAfter: number;
  /** Milliseconds per attempt. */
  readonly latenciesMs: readonly number[];
  /** Writes given up on after MAX_ATTEMPTS throttled answers. */
  readonly givenUp: readonly string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends each client's manifests in order, the clients all at once. */
export async function writeFromClients(apiUrl: string, clients: readonly (readonly Manifest[])[]): Promise<LoadReport> {
  const statuses = new Map<number, number>();
  const latenciesMs: number[] = [];
  const givenUp: string[] = [];
  let throttledWithoutRetryAfter = 0;

  const write = async (manifest: Manifest): Promise<void> => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt += 1) {
      const started = performance.now();
      const response = await fetch(`${apiUrl}${manifestPath(manifest)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(manifest),
        signal: AbortSignal.timeout(60_000),
      });
      await response.arrayBuffer();
      latenciesMs.push(performance.now() - started);
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status !== 429 && response.status !== 503) return;
      const retryAfter = Number(response.headers.get('retry-after') ?? Number.NaN);
      if (Number.isNaN(retryAfter)) throttledWithoutRetryAfter += 1;
      await sleep((Number.isNaN(retryAfter) ? 1 : retryAfter) * 1000);
    }
    givenUp.push(`${manifest.kind} ${manifest.metadata.name}`);
  };

  await Promise.all(clients.map(async (manifests) => {
    for (const manifest of manifests) await write(manifest);
  }));
  return { statuses, throttledWithoutRetryAfter, latenciesMs, givenUp };
}

interface BindingList {
  readonly items: ReadonlyArray<{ readonly spec: { readonly resource: { readonly name: string }; readonly clusters?: readonly unknown[] } }>;
}

interface QueueStatusList {
  readonly items: ReadonlyArray<{ readonly visible: number; readonly inFlight: number }>;
}

/**
 * Waits until every named template's binding is placed and no queue holds work, polling the API as an
 * operator would; returns how long that took. Throws after `timeoutMs`, naming what is not placed.
 */
export async function waitUntilPlaced(apiUrl: string, templates: readonly string[], timeoutMs: number, progress?: (line: string) => void): Promise<number> {
  const started = Date.now();
  let reported = started;
  for (;;) {
    const [bindings, queues] = await Promise.all([
      fetch(`${apiUrl}/apis/work.karmada.io/v1alpha2/resourcebindings`).then((r) => r.json() as Promise<BindingList>),
      fetch(`${apiUrl}/outrank/v1/queues`).then((r) => r.json() as Promise<QueueStatusList>),
    ]);
    const placed = new Set(bindings.items.filter((b) => (b.spec.clusters ?? []).length > 0).map((b) => b.spec.resource.name));
    const missing = templates.filter((name) => !placed.has(name));
    const idle = queues.items.every((queue) => queue.visible === 0 && queue.inFlight === 0);
    if (missing.length === 0 && idle) return Date.now() - started;
    if (Date.now() - started > timeoutMs) {
      throw new Error(`after ${timeoutMs / 1000} s, ${missing.length} of ${templates.length} not placed (${missing.slice(0, 10).join(', ')}), queues ${idle ? 'idle' : 'busy'}`);
    }
    if (progress && Date.now() - reported >= 30_000) {
      reported = Date.now();
      progress(`${templates.length - missing.length} of ${templates.length} placed after ${Math.round((Date.now() - started) / 1000)} s`);
    }
    await sleep(2_000);
  }
}
