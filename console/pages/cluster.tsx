import type { Snapshot } from '../api';
import { clusterFill } from '../fill';
import { FillMeter } from '../fill-meter';
import { formatQuantity } from '../../lib/quantity';
import { bindingHref, isReady, placedOn, qualified, taintsOf } from '../model';
import { Table } from '../table';

/** One cluster: each resource's fill and where it comes from, and the bindings placed there, the first victims last. */
export function ClusterPage({ snapshot, name }: { snapshot: Snapshot; name: string }) {
  const cluster = snapshot.clusters.find((candidate) => candidate.metadata.name === name);
  if (!cluster) return <section><h1>Cluster {name}</h1><p>No such cluster.</p></section>;
  const fills = clusterFill(cluster, snapshot.allocations.find((allocation) => allocation.metadata.name === name));
  const placed = placedOn(name, snapshot.bindings);
  const taints = taintsOf(cluster);
  return (
    <section aria-labelledby="cluster-title">
      <h1 id="cluster-title">
        {name} <span class={isReady(cluster) ? 'ready' : 'not-ready'}>{isReady(cluster) ? 'Ready' : 'Not ready'}</span>
      </h1>
      {taints.length > 0 && <p class="taints">Taints: {taints.join(', ')}</p>}
      <h2>Resources</h2>
      <Table className="resources" label={`Resources of ${name}`} headers={['Resource', 'Fill', 'Placed by outrank', 'Outrank may place', 'Allocatable', 'Allocated by others']}>
        {fills.map((fill) => (
          <tr key={fill.resource} data-resource={fill.resource}>
            <td>{fill.resource}</td>
            <td><FillMeter fill={fill} cluster={name} /></td>
            <td class="number">{formatQuantity(fill.placed, fill.resource)}</td>
            <td class="number">{formatQuantity(fill.capacity, fill.resource)}</td>
            <td class="number">{formatQuantity(fill.allocatable, fill.resource)}</td>
            <td class="number">{formatQuantity(fill.others, fill.resource)}</td>
          </tr>
        ))}
      </Table>
      <h2>Placed here ({placed.length})</h2>
      {placed.length === 0 ? (
        <p>No binding is placed here.</p>
      ) : (
        <Table className="placed" label={`Bindings placed on ${name}`} headers={['Binding', 'Replicas', 'Requests per replica', 'Priority', 'Preemptibility']}>
          {placed.map((row) => (
            <tr key={qualified(row)}>
              <td><a href={bindingHref(row)}>{qualified(row)}</a></td>
              <td class="number">{row.replicas}</td>
              <td>{row.request}</td>
              <td class="number">{row.priority}</td>
              <td>{row.preemptible ? 'preemptible' : 'non-preemptible'}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
