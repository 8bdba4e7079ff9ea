import type { Snapshot } from '../api';
import { preemptionRows } from '../model';
import { Table } from '../table';

/** Every preemption, newest first: who was preempted by whom, at which priorities, and where. */
export function PreemptionsPage({ snapshot }: { snapshot: Snapshot }) {
  const rows = preemptionRows(snapshot.events);
  return (
    <section aria-labelledby="preemptions-title">
      <h1 id="preemptions-title">Preemptions ({rows.length})</h1>
      {rows.length === 0 ? (
        <p>Nothing has been preempted.</p>
      ) : (
        <Table className="preemptions" headers={['Time', 'Preemptor', 'Priority', 'Victim', 'Priority', 'Preemptibility', 'Message']}>
          {rows.map((row) => (
            <tr key={`${row.time}/${row.victim}`} data-victim={row.victim}>
              <td>{row.time}</td>
              <td><a href={`#/bindings/${row.preemptor}`}>{row.preemptor}</a></td>
              <td class="number">{row.preemptorPriority}</td>
              <td><a href={`#/bindings/${row.victim}`}>{row.victim}</a></td>
              <td class="number">{row.victimPriority}</td>
              <td>{row.victimPreemptibility}</td>
              <td class="message">{row.message}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
