import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { readSnapshot, type Needs, type Snapshot } from './api';
import { BindingPage } from './pages/binding';
import { ClustersPage } from './pages/clusters';
import { PreemptionsPage } from './pages/preemptions';
import { QueuePage } from './pages/queue';
import { WhatIfPage } from './pages/what-if';

/** How often the open page reads the API again. */
const REFRESH_MS = 2_000;

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
      return { page, namespace, name, needs: { bindings: true, clusters: true } };
    case 'preemptions':
      return { page, namespace, name, needs: { events: 'reason=Preempted' } };
    case 'bindings': {
      const kind = namespace ? 'ResourceBinding' : 'ClusterResourceBinding';
      return { page, namespace, name, needs: { bindings: true, events: `involvedObject.kind=${kind},involvedObject.name=${name},involvedObject.namespace=${namespace}` } };
    }
    case 'what-if':
      return { page, namespace, name, needs: {} };
    default:
      return { page: 'queue', namespace, name, needs: { bindings: true } };
  }
}

function Page({ hash, snapshot, refresh }: { hash: string; snapshot: Snapshot; refresh: () => void }) {
  const { page, namespace, name } = route(hash);
  if (page === 'clusters') return <ClustersPage snapshot={snapshot} />;
  if (page === 'preemptions') return <PreemptionsPage snapshot={snapshot} />;
  if (page === 'what-if') return <WhatIfPage />;
  if (page === 'bindings') return <BindingPage snapshot={snapshot} namespace={namespace} name={name} refresh={refresh} />;
  return <QueuePage snapshot={snapshot} />;
}

function Console() {
  const hash = useHash();
  const [snapshot, setSnapshot] = useState<Snapshot>();
  const [error, setError] = useState('');
  const needs = JSON.stringify(route(hash).needs);
  const refresh = useCallback(() => {
    readSnapshot(JSON.parse(needs) as Needs).then(
      (read) => {
        setSnapshot(read);
        setError('');
      },
      (failure: Error) => setError(failure.message),
    );
  }, [needs]);
  useEffect(() => {
    // Another page reads other lists: show none of the last page's until they are read.
    setSnapshot(undefined);
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);
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
