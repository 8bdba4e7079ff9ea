import { useMemo } from 'preact/hooks';
import type { Snapshot } from '../api';
import { ColumnChart, HeatStrip } from '../charts';
import { clusterFill, FILL_BINS, fillHistograms, fleetPercent, fleetResources, fullest } from '../fill';
import { FillMeter } from '../fill-meter';
import { isReady, taintsOf } from '../model';
import { fillSamples, useSampled } from '../sampled';
import { columnStart, lastPerMinute } from '../series';
import { Table } from '../table';
import { clockTime } from '../time';

/**
 * The fleet: how full it is, resource by resource (every resource the clusters report, GPUs among
 * them), now and over the last hour, as clusters counted by fill rather than a line each; then every
 * cluster with its fill, readiness and taints.
 */
export function ClustersPage({ snapshot }: { snapshot: Snapshot }) {
  const { now } = snapshot;
  const fleet = useMemo(() => {
    const allocations = new Map(snapshot.allocations.map((allocation) => [allocation.metadata.name, allocation]));
    return snapshot.clusters
      .map((cluster) => ({ cluster, fills: clusterFill(cluster, allocations.get(cluster.metadata.name)) }))
      .sort((a, b) => a.cluster.metadata.name.localeCompare(b.cluster.metadata.name));
  }, [snapshot.clusters, snapshot.allocations]);
  const fills = fleet.map((entry) => entry.fills);
  const resources = fleetResources(fills);
  const histograms = useMemo(() => fillHistograms(fills), [fleet]);
  const perMinute = lastPerMinute(useSampled(fillSamples, now, histograms), now);
  const minute = (column: number) => clockTime(columnStart(column, now));
  return (
    <section aria-labelledby="clusters-title">
      <h1 id="clusters-title">Clusters ({fleet.length})</h1>
      <h2>Fill</h2>
      <p class="note">
        Placed by outrank against what each cluster leaves it (allocatable − allocated − allocating). Clusters are counted by fill; the
        last hour is sampled every 2 s while this page is open.
      </p>
      {resources.map((resource) => (
        <div class="charts fill-charts" key={resource} data-resource={resource}>
          <ColumnChart
            className="fill-now"
            label={`${resource}: clusters by fill now (the fleet ${fleetPercent(fills, resource)}% placed)`}
            series={[{ name: 'clusters', values: histograms.get(resource) ?? [] }]}
            columnTitle={(bin) => FILL_BINS[bin]!}
            axis={['0%', 'full']}
            unit="clusters"
          />
          <HeatStrip
            className="fill-history"
            label={`${resource}: clusters by fill, each minute of the last hour`}
            rows={FILL_BINS.map((bin, index) => ({ name: bin, values: perMinute.map((sample) => (sample === undefined ? undefined : (sample.get(resource)?.[index] ?? 0))) })).reverse()}
            columnTitle={minute}
            axis={['60 min ago', 'now']}
            unit="clusters"
          />
        </div>
      ))}
      <h2>Every cluster</h2>
      <Table className="clusters" label="Clusters" headers={['Cluster', 'Ready', 'Fullest', ...resources, 'Taints']}>
        {fleet.map(({ cluster, fills: own }) => {
          const name = cluster.metadata.name;
          const most = fullest(own);
          const byResource = new Map(own.map((fill) => [fill.resource, fill]));
          return (
            <tr key={name} data-cluster={name}>
              <td><a href={`#/clusters/${encodeURIComponent(name)}`}>{name}</a></td>
              <td class={isReady(cluster) ? 'ready' : 'not-ready'}>{isReady(cluster) ? 'Ready' : 'Not ready'}</td>
              <td>{most ? `${most.resource} ${Math.floor(most.fraction * 100)}%` : ''}</td>
              {resources.map((resource) => {
                const fill = byResource.get(resource);
                return <td key={resource}>{fill ? <FillMeter fill={fill} cluster={name} /> : '—'}</td>;
              })}
              <td>{taintsOf(cluster).join(', ')}</td>
            </tr>
          );
        })}
      </Table>
    </section>
  );
}
