import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { readSnapshot, type Snapshot } from './api';
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

function Page({ hash, snapshot, refresh }: { hash: string; snapshot: Snapshot; refresh: () => void }) {
  const [, page, ...rest] = hash.split('/');
  if (page === 'clusters') return <ClustersPage snapshot={snapshot} />;
  if (page === 'preemptions') return <PreemptionsPage snapshot={snapshot} />;
  if (page === 'what-if') return <WhatIfPage />;
  if (page === 'bindings') {
    const [namespace, name] = rest.length >= 2 ? [rest[0]!, rest[1]!] : ['', rest[0] ?? ''];
    return <BindingPage snapshot={snapshot} namespace={decodeURIComponent(namespace)} name={decodeURIComponent(name)} refresh={refresh} />;
  }
  return <QueuePage snapshot={snapshot} />;
}

function Console() {
  const hash = useHash();
  const [snapshot, setSnapshot] = useState<Snapshot>();
  const [error, setError] = useState('');
  const refresh = useCallback(() => {
    readSnapshot().then(
      (read) => {
        setSnapshot(read);
        setError('');
      },
      (failure: Error) => setError(failure.message),
    );
  }, []);
  useEffect(() => {
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
