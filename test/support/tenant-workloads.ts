/**
 * The most common way Karmada users write placements: one PropagationPolicy per Deployment, selecting
 * it by name. Each client of a load owns its Deployments and their policies.
 */
import type { Manifest } from './api-paths';

type Object = Manifest & Record<string, unknown>;

export function memberCluster(name: string, cpu: number): Object {
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name },
    status: { resourceSummary: { allocatable: { cpu: String(cpu), memory: '1Ti', pods: '10000' } } },
  };
}

/** A Deployment of one 100m replica and the policy that places it on `cluster`: the policy first, as `kubectl apply -f dir/` orders them. */
export function deploymentWithPolicy(name: string, cluster: string, namespace = 'default'): [Object, Object] {
  return [
    {
      apiVersion: 'policy.karmada.io/v1alpha1',
      kind: 'PropagationPolicy',
      metadata: { name, namespace },
      spec: {
        resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
        placement: { clusterAffinity: { clusterNames: [cluster] } },
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace },
      spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '100m' } } }] } } },
    },
  ];
}

/** `clients` clients, each writing `perClient` Deployments with their policies, spread over `clusters`. */
export function clientWorkloads(clients: number, perClient: number, clusters: readonly string[]): { clients: Object[][]; deployments: string[] } {
  const deployments: string[] = [];
  const perClientManifests = Array.from({ length: clients }, (_, client) =>
    Array.from({ length: perClient }, (_, index) => {
      const name = `c${client}-w${index}`;
      deployments.push(name);
      return deploymentWithPolicy(name, clusters[(client * perClient + index) % clusters.length]!);
    }).flat(),
  );
  return { clients: perClientManifests, deployments };
}
