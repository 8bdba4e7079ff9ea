import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { bindingList, placedOnCluster, readPolled, WAITING, WATCHED, type Needs, type Polled, type Snapshot } from './api';
import { watchList, type ListSelection } from './live-list';
import type { Binding, Cluster, ClusterAllocation } from './model';
import { queueSamples } from './sampled';
import { BindingPage } from './pages/binding';
import { ClusterPage } from './pages/cluster';
import { ClustersPage } from './pages/clusters';
import { PreemptionsPage } from './pages/preemptions';
import { QueuePage } from './pages/queue';
import { WhatIfPage } from './pages/what-if';

/** How often what is not watched (queue depths, events) is read again. */
const POLL_MS = 2_000;

const PAGES = [
  ['#/queue', 'Queue'],
  ['#/clusters', 'Clusters'],
  ['#/preemptions', 'Preemptions'],
  ['#/what-if', 'What if'],
] as const;

function useHash(): string {
  const [hash, setHash] = useState(location.hash || '#/queue');
  useEffect(() => {
    const changed = () => setHash(location.hash || '#/queue');
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  return hash;
}

/** The page a hash names, and what it reads. */
function route(hash: string): { page: string; namespace: string; name: string; needs: Needs } {
  const [, page = 'queue', ...rest] = hash.split('/');
  const [namespace, name] = rest.length >= 2 ? [decodeURIComponent(rest[0]!), decodeURIComponent(rest[1]!)] : ['', decodeURIComponent(rest[0] ?? '')];
  switch (page) {
    case 'clusters':
      // The fleet's fill needs no binding; one cluster's page lists the bindings placed there.
      return { page, namespace, name, needs: name ? { bindings: placedOnCluster(name), clusters: true } : { clusters: true } };
    case 'preemptions':
      return { page, namespace, name, needs: { events: ['reason=Preempted'] } };
    case 'bindings': {
      const kind = namespace ? 'ResourceBinding' : 'ClusterResourceBinding';
      // Its own events, and the preemptions, among which those it made.
      const own = `involvedObject.kind=${kind},involvedObject.name=${name},involvedObject.namespace=${namespace}`;
      return { page, namespace, name, needs: { binding: { namespace, name }, events: [own, 'reason=Preempted'] } };
    }
    case 'what-if':
      return { page, namespace, name, needs: {} };
    default:
      return { page: 'queue', namespace, name, needs: { bindings: WAITING } };
  }
}

function Page({ hash, snapshot, refresh }: { hash: string; snapshot: Snapshot; refresh: () => void }) {
  const { page, namespace, name } = route(hash);
  if (page === 'clusters') return name ? <ClusterPage snapshot={snapshot} name={name} /> : <ClustersPage snapshot={snapshot} />;
  if (page === 'preemptions') return <PreemptionsPage snapshot={snapshot} />;
  if (page === 'what-if') return <WhatIfPage />;
  if (page === 'bindings') return <BindingPage snapshot={snapshot} namespace={namespace} name={name} refresh={refresh} />;
  return <QueuePage snapshot={snapshot} />;
}

type ListName = 'bindings' | 'clusterBindings' | 'clusters' | 'allocations';

/** The lists a page's needs are kept up to date from, each with the selection it is listed and watched by. */
function watchedLists(needs: Needs): Array<{ list: ListName; path: string; selection: ListSelection<Binding> }> {
  const { bindings } = needs;
  return [
    ...(bindings ? (['bindings', 'clusterBindings'] as const).map((list) => ({ list, path: WATCHED[list], selection: bindings })) : []),
    ...(needs.binding ? [{ list: 'bindings' as const, ...bindingList(needs.binding) }] : []),
    ...(needs.clusters ? (['clusters', 'allocations'] as const).map((list) => ({ list, path: WATCHED[list], selection: {} })) : []),
  ];
}

/**
 * The page's data: the lists it shows kept up to date by list and watch, and the queue depths and
 * events read again every few seconds; undefined until all of them have been read once.
 */
function useSnapshot(needs: Needs): { snapshot: Snapshot | undefined; error: string; refresh: () => void } {
  const [lists, setLists] = useState<Partial<Record<ListName, unknown[]>>>({});
  const [polled, setPolled] = useState<Polled>();
  const [error, setError] = useState('');
  // Needs are made afresh on every render: compared by value, so that the same page keeps its watches.
  const key = JSON.stringify(needs);
  const watched = watchedLists(needs);
  const refresh = useCallback(() => {
    readPolled(needs.events).then(
      (read) => {
        queueSamples.add(read.now, Object.fromEntries(read.queues.map((queue) => [queue.name, queue.visible + queue.inFlight])));
        setPolled(read);
        setError('');
      },
      (failure: Error) => setError(failure.message),
    );
  }, [key]);
  useEffect(() => {
    // Another page reads other lists: show none of the last page's until they are read.
    setLists({});
    setPolled(undefined);
    const controller = new AbortController();
    for (const { list, path, selection } of watched) void watchList(path, selection, (items) => setLists((current) => ({ ...current, [list]: items })), controller.signal);
    refresh();
    const timer = setInterval(refresh, POLL_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [key]);
  const ready = polled !== undefined && watched.every(({ list }) => lists[list] !== undefined);
  const snapshot: Snapshot | undefined = ready
    ? {
        bindings: [...((lists.bindings ?? []) as Binding[]), ...((lists.clusterBindings ?? []) as Binding[])],
        clusters: (lists.clusters ?? []) as Cluster[],
        allocations: (lists.allocations ?? []) as ClusterAllocation[],
        ...polled,
      }
    : undefined;
  return { snapshot, error, refresh };
}

function Console() {
  const hash = useHash();
  const { snapshot, error, refresh } = useSnapshot(route(hash).needs);
  return (
    <>
      <header>
        <span class="brand">outrank</span>
        <nav aria-label="Pages">
          {PAGES.map(([href, label]) => (
            <a key={href} href={href} aria-current={hash.startsWith(href) ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
      </header>
      <main>
        {error && <p role="alert" class="alarm">The API did not answer: {error}</p>}
        {snapshot ? <Page hash={hash} snapshot={snapshot} refresh={refresh} /> : <p>Loading…</p>}
      </main>
    </>
  );
}

render(<Console />, document.getElementById('console')!);
