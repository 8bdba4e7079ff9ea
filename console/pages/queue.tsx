import { useMemo } from 'preact/hooks';
import type { Snapshot } from '../api';
import { Ago } from '../ago';
import { ColumnChart } from '../charts';
import { duration, pendingRows, qualified, bindingHref } from '../model';
import { queueSamples, useSampled, waitingSamples } from '../sampled';
import { columnStart, peakPerMinute } from '../series';
import { clockTime } from '../time';
import { Table } from '../table';

/** Rows drawn at most: the first are those the scheduler takes next; a thousand rows take the browser half a second to lay out. */
const SHOWN = 200;

/** What waits for a placement, band by band as the scheduler takes it, and each queue's depth, now and over the last hour. */
export function QueuePage({ snapshot }: { snapshot: Snapshot }) {
  const { now } = snapshot;
  const rows = useMemo(() => pendingRows(snapshot.bindings, snapshot.bands, now), [snapshot.bindings, snapshot.bands, now]);
  const shown = rows.slice(0, SHOWN);
  const bands = snapshot.bands.map((band) => band.name);
  const waiting = useMemo(() => Object.fromEntries(bands.map((band) => [band, rows.filter((row) => row.band === band).length])), [rows, bands.join()]);
  const waitingHistory = peakPerMinute(useSampled(waitingSamples, now, waiting), bands, now);
  const queues = snapshot.queues.map((queue) => queue.name);
  const depths = Object.fromEntries(snapshot.queues.map((queue) => [queue.name, queue.visible + queue.inFlight]));
  const queueHistory = peakPerMinute(queueSamples.through(now, depths), queues, now);
  const minute = (column: number) => clockTime(columnStart(column, now));
  return (
    <section aria-labelledby="queue-title">
      <h1 id="queue-title">Queue</h1>
      <h2>The last hour</h2>
      <p class="note">Sampled every 2 s while the console is open; each column is a minute, at its peak.</p>
      <div class="charts">
        <ColumnChart
          className="waiting-chart"
          label="Bindings waiting for a placement, by band"
          series={bands.map((band) => ({ name: band, values: waitingHistory.get(band)! }))}
          columnTitle={minute}
          axis={['60 min ago', 'now']}
          unit="waiting"
        />
        <ColumnChart
          className="queue-chart"
          label="Messages waiting or in flight, by queue"
          series={queues.map((queue) => ({ name: queue, values: queueHistory.get(queue)! }))}
          columnTitle={minute}
          axis={['60 min ago', 'now']}
          unit="messages"
        />
      </div>
      <h2>Queue depths</h2>
      <Table className="depths" label="Queue depths" headers={['Queue', 'Waiting', 'In flight', 'Dead-lettered']}>
        {snapshot.queues.map((queue) => (
          <tr key={queue.name}><td>{queue.name}</td><td class="number">{queue.visible}</td><td class="number">{queue.inFlight}</td><td class={queue.deadLettered > 0 ? 'number alarm' : 'number'}>{queue.deadLettered}</td></tr>
        ))}
      </Table>
      <h2>Pending bindings ({rows.length})</h2>
      {rows.length === 0 ? (
        <p>Every binding is placed.</p>
      ) : (
        <Table className="pending" label="Pending bindings" headers={['Band', 'Binding', 'Priority', 'Preemptibility', 'State', 'Waiting', 'Reason', 'Message']}>
          {shown.map((row) => (
            <tr key={qualified(row)} data-binding={`${row.namespace}/${row.name}`}>
              <td>{row.band}</td>
              <td><a href={bindingHref(row)}>{qualified(row)}</a></td>
              <td class="number">{row.priority}</td>
              <td>{row.preemptible ? 'preemptible' : 'non-preemptible'}</td>
              <td>{row.state}</td>
              <td class="number"><Ago time={row.since} now={now} label={duration(row.waitingSeconds)} /></td>
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
