/**
 * The faults tests' scenario: a full fleet of low-priority work, then a high-priority workload that
 * can only be placed by preempting. Its victim fits on the other cluster, so it is placed again only
 * if it is queued again after the preemption: a lost requeue shows in the final placement.
 *
 * m1 (5 CPUs) holds low-a (priority 5, 2 CPUs) and low-v (priority 1, 2 CPUs); m2 (4 CPUs) holds
 * low-b (priority 5, 2 CPUs). urgent (priority 1000, 3 CPUs) fits nowhere; one victim is enough on
 * either cluster and the lower priority decides: low-v goes, urgent takes m1, and low-v moves to m2.
 */

const cluster = (name: string, cpu: string) => ({
  apiVersion: 'cluster.karmada.io/v1alpha1',
  kind: 'Cluster',
  metadata: { name },
  status: { resourceSummary: { allocatable: { cpu, memory: '64Gi', pods: '110' } } },
});

const priorityClass = (name: string, value: number, preemptionPolicy: 'Never' | 'PreemptLowerPriority') => ({
  apiVersion: 'scheduling.k8s.io/v1',
  kind: 'PriorityClass',
  metadata: { name },
  value,
  preemptionPolicy,
});

const deployment = (name: string, priorityClassName: string, cpu: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: { replicas: 1, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { priorityClassName, containers: [{ name: 'main', image: 'busybox', resources: { requests: { cpu } } }] } } },
});

/** Each binding on one cluster, the roomiest: Divided and Aggregated over both. */
const policy = {
  apiVersion: 'policy.karmada.io/v1alpha1',
  kind: 'PropagationPolicy',
  metadata: { name: 'by-pod-priority', namespace: 'default' },
  spec: {
    resourceSelectors: [{ apiVersion: 'apps/v1', kind: 'Deployment' }],
    schedulePriority: { priorityClassSource: 'PodPriorityClass' },
    placement: {
      clusterAffinity: { clusterNames: ['m1', 'm2'] },
      replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' },
    },
  },
};

export const FULL_FLEET: readonly unknown[] = [
  cluster('m1', '5'),
  cluster('m2', '4'),
  priorityClass('low', 1, 'Never'),
  priorityClass('medium', 5, 'Never'),
  priorityClass('urgent', 1000, 'PreemptLowerPriority'),
  policy,
  deployment('low-a', 'medium', '2'),
  deployment('low-b', 'medium', '2'),
  deployment('low-v', 'low', '2'),
];

export const ARRIVAL: readonly unknown[] = [deployment('urgent', 'urgent', '3')];
