import { useState } from 'preact/hooks';
import { setSuspended, type Snapshot } from '../api';
import { historyOf, isPlaced, isPreemptible, priorityOf } from '../model';
import { Table } from '../table';

/** One binding: where it is, its priority, and its history (its events); suspend or resume it. */
export function BindingPage({ snapshot, namespace, name, refresh }: { snapshot: Snapshot; namespace: string; name: string; refresh: () => void }) {
  const [error, setError] = useState('');
  const binding = snapshot.bindings.find((candidate) => candidate.metadata.name === name && (candidate.metadata.namespace ?? '') === namespace);
  if (!binding) return <section><h1>Binding {name}</h1><p>No such binding.</p></section>;
  const suspended = binding.spec.suspension?.scheduling === true;
  const toggle = async () => {
    try {
      await setSuspended(namespace, name, !suspended);
      setError('');
      refresh();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const history = historyOf(namespace, name, snapshot.events);
  return (
    <section aria-labelledby="binding-title">
      <h1 id="binding-title">{namespace ? `${namespace}/` : ''}{name}</h1>
      <dl class="facts">
        <div><dt>Resource</dt><dd>{binding.spec.resource.kind}/{binding.spec.resource.name}</dd></div>
        <div><dt>Priority</dt><dd>{priorityOf(binding)}</dd></div>
        <div><dt>Preemptibility</dt><dd>{isPreemptible(binding) ? 'preemptible' : 'non-preemptible'}</dd></div>
        <div><dt>Placement</dt><dd>{isPlaced(binding) ? (binding.spec.clusters ?? []).map((c) => `${c.name} (${c.replicas})`).join(', ') : 'not placed'}</dd></div>
      </dl>
      {namespace && (
        <p>
          <button type="button" onClick={toggle} disabled={!suspended && isPlaced(binding)}>{suspended ? 'Resume scheduling' : 'Suspend scheduling'}</button>
          {error && <span role="alert" class="alarm"> {error}</span>}
        </p>
      )}
      <h2>History</h2>
      <Table className="history" headers={['Time', 'Type', 'Reason', 'Message']}>
        {history.map((event) => (
          <tr key={event.metadata.name}>
            <td>{event.lastTimestamp ?? event.firstTimestamp ?? ''}</td><td>{event.type}</td><td>{event.reason}</td><td class="message">{event.message}</td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
