/**
 * The fleet-size scenario of `outrank simulate`: `clusters` member clusters in three regions, a
 * running fleet of `workloads` Deployments (each with its own PropagationPolicy selecting it by name,
 * the way most Karmada users write policies), then `preemptors` high-priority Deployments that find
 * the clusters full and must preempt. Deterministic: the same sizes give the same scenario.
 */
import type { Scenario } from '../../lib/simulate/scenario';

export interface ScaleScenarioSize {
  readonly clusters: number;
  readonly workloads: number;
  readonly preemptors: number;
  /**
   * The running workloads' priorities, one PriorityClass (preemptionPolicy Never) each, taken in turn;
   * by default 0, 10 and 50. The preemptors' priority is 1,000 by default.
   */
  readonly runningPriorities?: readonly number[];
  readonly preemptorPriority?: number;
}

const REGIONS = ['eu', 'us', 'ap'] as const;
/** Running workloads request 100m–500m cpu per replica; the preemptors 1 cpu. */
const RUNNING_CPU_MILLI = [100, 200, 300, 400, 500];
const RUNNING_PRIORITIES = [0, 10, 50];
const PREEMPTOR_PRIORITY = 1_000;

function deployment(name: string, cpuMilli: number, replicas: number, priorityClassName: string) {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'fleet', labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          priorityClassName,
          containers: [{ name: 'main', image: 'registry.example/app:1', resources: { requests: { cpu: `${cpuMilli}m`, memory: '128Mi' } } }],
        },
      },
    },
  };
}

/**
 * The policy most Karmada users write: one per Deployment, selecting it by name, its priority from the
 * pod template, its replicas onto the fewest clusters (of those `clusterAffinity` admits).
 */
export function ownPolicy(name: string, namespace: string, clusterAffinity?: object) {
  return {
    apiVersion: 'policy.karmada.io/v1alpha1',
    kind: 'PropagationPolicy',
    metadata: { name, namespace },
    spec: {
      resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment', name }],
      schedulePriority: { priorityClassSource: 'PodPriorityClass' },
      placement: {
        ...(clusterAffinity ? { clusterAffinity } : {}),
        replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
      },
    },
  };
}

function policy(name: string, region: string) {
  return ownPolicy(name, 'fleet', { labelSelector: { matchLabels: { region } } });
}

/**
 * Each region's clusters are sized to the running workloads placed there, with 600m cpu to spare per
 * cluster: every running replica (at most 500m) fits, and the preemptors (1 cpu each) find no room and
 * each evicts running workloads.
 */
export function scaleScenario({ clusters, workloads, preemptors, runningPriorities = RUNNING_PRIORITIES, preemptorPriority = PREEMPTOR_PRIORITY }: ScaleScenarioSize): Scenario {
  const runningClasses = runningPriorities.map((priority) => `batch-${priority}`);
  const running = Array.from({ length: workloads }, (_, index) => ({
    name: `app-${index}`,
    cpuMilli: RUNNING_CPU_MILLI[index % RUNNING_CPU_MILLI.length]!,
    replicas: 1 + (index % 2),
    region: REGIONS[index % REGIONS.length]!,
    priorityClassName: runningClasses[index % runningClasses.length]!,
  }));
  const clusterObjects = Array.from({ length: clusters }, (_, index) => {
    const region = REGIONS[index % REGIONS.length]!;
    const regionClusters = Math.ceil((clusters - (index % REGIONS.length)) / REGIONS.length);
    const regionMilli = running.filter((w) => w.region === region).reduce((sum, w) => sum + w.cpuMilli * w.replicas, 0);
    const cpuMilli = Math.ceil(regionMilli / regionClusters) + 600;
    return {
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: `member-${String(index).padStart(3, '0')}`, labels: { region } },
      status: { resourceSummary: { allocatable: { cpu: `${cpuMilli}m`, memory: '4096Gi', pods: '5000' } } },
    };
  });
  const priorityClasses = [
    ...runningPriorities.map((priority, index) => ({
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: runningClasses[index]! },
      value: priority,
      preemptionPolicy: 'Never',
    })),
    { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'urgent' }, value: preemptorPriority },
  ];
  const urgent = Array.from({ length: preemptors }, (_, index) => ({ name: `urgent-${index}`, region: REGIONS[index % REGIONS.length]! }));
  return {
    description: `${clusters} clusters, ${workloads} running workloads, ${preemptors} preemptors; one policy per workload`,
    steps: [
      { apply: [...clusterObjects, ...priorityClasses] },
      { apply: running.flatMap((w) => [policy(w.name, w.region), deployment(w.name, w.cpuMilli, w.replicas, w.priorityClassName)]) },
      { apply: urgent.flatMap((w) => [policy(w.name, w.region), deployment(w.name, 1_000, 1, 'urgent')]) },
    ],
  };
}
