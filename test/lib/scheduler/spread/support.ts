/** Builders for the spread tests: clusters with a topology (spec.provider, spec.region, spec.zones). */
import type { Cluster } from '../../../../lib/api/cluster';
import { decodeObject } from '../../../../lib/api/decode';
import { cluster, type ClusterOptions } from '../support';

export interface Topology {
  readonly provider?: string;
  readonly region?: string;
  readonly zones?: readonly string[];
}

/** A member cluster (support.ts) in a provider, region and zones. */
export function clusterIn(name: string, topology: Topology, options: ClusterOptions = {}): Cluster {
  const built = cluster(name, options);
  return decodeObject({ ...built, spec: { ...built.spec, ...topology } }) as Cluster;
}

/** Karmada's NewClusterWithTopology (spreadconstraint/select_clusters_test.go). */
export function clusterWithTopology(name: string, provider: string, region: string, zone: string): Cluster {
  return clusterIn(name, { provider, region, zones: [zone] });
}
