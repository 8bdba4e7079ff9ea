import { useMemo } from 'preact/hooks';
import type { Snapshot } from '../api';
import { Ago } from '../ago';
import { ColumnChart } from '../charts';
import { bandOf, bindingHref, preemptionRows, qualified, type InvolvedObject } from '../model';
import { columnStart, countPerMinute } from '../series';
import { Table } from '../table';
import { clockTime } from '../time';

/** Rows drawn at most, the newest: the chart counts them all. */
const SHOWN = 200;

/** Who was preempted by whom, at which priorities and where: per minute over the last hour, by the victim's band, and each, newest first. */
export function PreemptionsPage({ snapshot }: { snapshot: Snapshot }) {
  const { now, bands } = snapshot;
  const rows = useMemo(() => preemptionRows(snapshot.events), [snapshot.events]);
  const names = bands.map((band) => band.name);
  const perMinute = countPerMinute(rows, (row) => Date.parse(row.time), (row) => bandOf(Number(row.victimPriority), bands), names, now);
  const link = (binding: InvolvedObject) => <a href={bindingHref(binding)}>{qualified(binding)}</a>;
  return (
    <section aria-labelledby="preemptions-title">
      <h1 id="preemptions-title">Preemptions ({rows.length})</h1>
      <ColumnChart
        className="preemptions-chart"
        label="Preemptions per minute over the last hour, by the victim’s band"
        series={names.map((band) => ({ name: band, values: perMinute.get(band)! }))}
        columnTitle={(column) => clockTime(columnStart(column, now))}
        axis={['60 min ago', 'now']}
        unit="preempted"
      />
      {rows.length === 0 ? (
        <p>Nothing has been preempted.</p>
      ) : (
        <Table className="preemptions" label="Preemptions" headers={['Time', 'Preemptor', 'Priority', 'Victim', 'Priority', 'Preemptibility', 'Message']}>
          {rows.slice(0, SHOWN).map((row) => (
            <tr key={row.key} data-victim={row.victim}>
              <td><Ago time={row.time} now={now} /></td>
              <td>{row.preemptorRef && link(row.preemptorRef)}</td>
              <td class="number">{row.preemptorPriority}</td>
              <td>{link(row.victimRef)}</td>
              <td class="number">{row.victimPriority}</td>
              <td>{row.victimPreemptibility}</td>
              <td class="message">{row.message}</td>
            </tr>
          ))}
        </Table>
      )}
      {rows.length > SHOWN && <p class="more">Showing the newest {SHOWN} of {rows.length}.</p>}
    </section>
  );
}
