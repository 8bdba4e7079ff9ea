import type { Manifest as ApiManifest } from '../../support/api-paths';

/**
 * The concurrency test's workload: 20 clusters in 5 zones, low-priority work of mixed priority and
 * preemptibility that fills the fleet, then high-priority work that can only be placed by preempting.
 */

export const CLUSTERS = 20;
const ZONES = 5;
const NAMESPACE = 'load';

type Manifest = ApiManifest & Record<string, unknown>;

const zoneOf = (index: number) => `z${(index % ZONES) + 1}`;

/** The smaller clusters' CPUs in the full run (990 one-CPU workloads fill the fleet). */
export const FULL_BASE_CPUS = 49;

/**
 * The smaller clusters' CPUs: the full fleet with OUTRANK_SOAK=1 (`npm run test:soak`), else 9 (190
 * workloads fill it, about ten a cluster), sized for `npm test` on two busy cores against the emulator.
 */
export const BASE_CPUS = process.env.OUTRANK_SOAK === '1' ? FULL_BASE_CPUS : 9;

/** How many one-CPU workloads fill the fleet exactly: half the clusters have `baseCpus`, half one more. */
export function fleetCapacity(baseCpus = BASE_CPUS): number {
  return CLUSTERS * baseCpus + CLUSTERS / 2;
}

/** `baseCpus` or one more: each zone holds a fifth of the fleet's capacity. */
function cluster(index: number, baseCpus: number): Manifest {
  const cpus = index < CLUSTERS / 2 ? baseCpus : baseCpus + 1;
  return {
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name: `m${String(index + 1).padStart(2, '0')}`, labels: { zone: zoneOf(index) } },
    status: { resourceSummary: { allocatable: { cpu: String(cpus), memory: '200Gi', pods: '110' } } },
  };
}

/** Below 100 preemptible by default (issue 001's threshold); 500 and above not. Only the high classes preempt. */
const LOW_CLASSES = [10, 20, 30, 40, 500];
const HIGH_CLASSES = [1000, 2000];

function priorityClass(value: number): Manifest {
  return {
    apiVersion: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    metadata: { name: `p${value}` },
    value,
    preemptionPolicy: HIGH_CLASSES.includes(value) ? 'PreemptLowerPriority' : 'Never',
  };
}

/** One policy per zone: Divided and Aggregated, so each binding lands on the roomiest cluster of its zone. */
function zonePolicy(zone: string): Manifest {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name: `zone-${zone}`, namespace: NAMESPACE },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', labelSelector: { matchLabels: { zone } } }],
      schedulePriority: { priorityClassSource: 'PodPriorityClass' },
      placement: {
        clusterAffinity: { labelSelector: { matchLabels: { zone } } },
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      },
    },
  };
}

function deployment(name: string, zone: string, priority: number, nonPreemptible: boolean): Manifest {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: NAMESPACE,
      labels: { zone, ...(nonPreemptible ? { 'kai.scheduler/preemptibility': 'non-preemptible' } : {}) },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { priorityClassName: `p${priority}`, containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu: '1' } } }] } },
    },
  };
}

export function fleet(baseCpus = BASE_CPUS): Manifest[] {
  return [
    ...Array.from({ length: CLUSTERS }, (_, index) => cluster(index, baseCpus)),
    ...[...LOW_CLASSES, ...HIGH_CLASSES].map(priorityClass),
    ...Array.from({ length: ZONES }, (_, index) => zonePolicy(zoneOf(index))),
  ];
}

/**
 * `count` one-CPU workloads spread over the zones (fleetCapacity() fill the fleet exactly): priorities cycle
 * through the low classes, and every seventh is labelled non-preemptible whatever its priority.
 */
export function lowPriorityWork(count: number): Manifest[] {
  return Array.from({ length: count }, (_, index) =>
    deployment(`low-${index}`, zoneOf(index), LOW_CLASSES[Math.floor(index / ZONES) % LOW_CLASSES.length]!, index % 7 === 0),
  );
}

/** One-CPU workloads of the high classes, spread over the zones: on a full fleet each must preempt. */
export function highPriorityWork(count: number): Manifest[] {
  return Array.from({ length: count }, (_, index) => deployment(`high-${index}`, zoneOf(index), HIGH_CLASSES[index % HIGH_CLASSES.length]!, false));
}
