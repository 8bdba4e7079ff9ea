import type { Snapshot } from '../api';
import { duration, pendingRows } from '../model';
import { Table } from '../table';

/** Rows drawn at most: the first are those the scheduler takes next; a thousand rows take the browser half a second to lay out. */
const SHOWN = 200;

/** What waits for a placement, band by band as the scheduler takes it, and each queue's depth. */
export function QueuePage({ snapshot }: { snapshot: Snapshot }) {
  const rows = pendingRows(snapshot.bindings, snapshot.bands, snapshot.now);
  const shown = rows.slice(0, SHOWN);
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Queue</h1>
      <h2>Queue depths</h2>
      <Table className="depths" headers={['Queue', 'Waiting', 'In flight', 'Dead-lettered']}>
        {snapshot.queues.map((queue) => (
          <tr key={queue.name}><td>{queue.name}</td><td>{queue.visible}</td><td>{queue.inFlight}</td><td class={queue.deadLettered > 0 ? 'alarm' : ''}>{queue.deadLettered}</td></tr>
        ))}
      </Table>
      <h2>Pending bindings ({rows.length})</h2>
      {rows.length === 0 ? (
        <p>Every binding is placed.</p>
      ) : (
        <Table className="pending" headers={['Band', 'Binding', 'Priority', 'Preemptibility', 'State', 'Waiting', 'Reason', 'Message']}>
          {shown.map((row) => (
            <tr key={`${row.namespace}/${row.name}`} data-binding={`${row.namespace}/${row.name}`}>
              <td>{row.band}</td>
              <td><a href={`#/bindings/${row.namespace}/${row.name}`}>{row.namespace ? `${row.namespace}/` : ''}{row.name}</a></td>
              <td class="number">{row.priority}</td>
              <td>{row.preemptible ? 'preemptible' : 'non-preemptible'}</td>
              <td>{row.state}</td>
              <td class="number">{duration(row.waitingSeconds)}</td>
              <td>{row.reason}</td>
              <td class="message">{row.message}</td>
            </tr>
          ))}
        </Table>
      )}
      {rows.length > shown.length && <p class="more">Showing the first {shown.length} of {rows.length}: the rest wait behind them.</p>}
    </section>
  );
}
