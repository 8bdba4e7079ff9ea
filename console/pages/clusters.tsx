import type { Snapshot } from '../api';
import { isReady, placedOn, resourceUse, taintsOf } from '../model';
import { Table } from '../table';

/** Each cluster: how full it is (placed against allocatable), readiness and taints, and who runs there. */
export function ClustersPage({ snapshot }: { snapshot: Snapshot }) {
  const allocations = new Map(snapshot.allocations.map((allocation) => [allocation.metadata.name, allocation]));
  return (
    <section aria-labelledby="clusters-title">
      <h1 id="clusters-title">Clusters</h1>
      <div class="clusters">
        {snapshot.clusters.map((cluster) => {
          const name = cluster.metadata.name;
          const placed = placedOn(name, snapshot.bindings);
          const taints = taintsOf(cluster);
          return (
            <article class="cluster" key={name} data-cluster={name} aria-labelledby={`cluster-${name}`}>
              <h2 id={`cluster-${name}`}>
                {name} <span class={isReady(cluster) ? 'ready' : 'not-ready'}>{isReady(cluster) ? 'Ready' : 'Not ready'}</span>
              </h2>
              {taints.length > 0 && <p class="taints">Taints: {taints.join(', ')}</p>}
              <dl class="usage">
                {resourceUse(cluster, allocations.get(name)).map((use) => (
                  <div key={use.resource}>
                    <dt>{use.resource}</dt>
                    <dd>
                      <meter min={0} max={use.allocatable || 1} value={use.placed} aria-label={`${use.resource} placed on ${name}`} />
                      <span>{use.label}</span>
                    </dd>
                  </div>
                ))}
              </dl>
              <Table headers={['Binding', 'Replicas', 'Priority', 'Preemptibility']}>
                {placed.map((row) => (
                  <tr key={`${row.namespace}/${row.name}`}>
                    <td><a href={`#/bindings/${row.namespace}/${row.name}`}>{row.name}</a></td>
                    <td class="number">{row.replicas}</td>
                    <td class="number">{row.priority}</td>
                    <td>{row.preemptible ? 'preemptible' : 'non-preemptible'}</td>
                  </tr>
                ))}
              </Table>
            </article>
          );
        })}
      </div>
    </section>
  );
}
