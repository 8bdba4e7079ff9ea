/**
 * Seeded random fleets for the benchmarks: member clusters in three regions (a tenth of them tainted)
 * and ResourceBindings with mixed priorities, requests and placements (Duplicated, static weights,
 * available replicas, Aggregated; cluster names, label selectors, two affinity terms, tolerations).
 */
import type { Cluster } from '../../lib/api/cluster';
import { decodeObject } from '../../lib/api/decode';
import type { ResourceBinding } from '../../lib/api/resource-binding';
import { frozenCopy } from '../../lib/memory/frozen-copy';
import type { Random } from './random';

const REGIONS = ['eu', 'us', 'ap'] as const;
const PRIORITIES = [-100, 0, 0, 0, 10, 10, 50, 100, 500, 1_000, 2_000];
const CPU_MILLI = [100, 250, 500, 1_000, 2_000];
const MEMORY_MI = [128, 256, 512, 1_024, 2_048];
const TAINT = { key: 'dedicated', value: 'batch', effect: 'NoSchedule' } as const;

type Strategy = 'duplicated' | 'static-weight' | 'available-replicas' | 'aggregated';
const STRATEGIES: readonly Strategy[] = ['duplicated', 'static-weight', 'available-replicas', 'aggregated'];

interface ClusterInfo {
  readonly name: string;
  readonly region: (typeof REGIONS)[number];
  readonly tainted: boolean;
}

interface Shape {
  readonly strategy: Strategy;
  readonly placement: Record<string, unknown>;
  /** Clusters the placement admits, for giving a running binding a plausible spec.clusters. */
  readonly eligible: readonly string[];
}

export interface WorkloadOptions {
  readonly priority?: number;
  readonly preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  readonly cpuMilli?: readonly number[];
  readonly replicas?: readonly [number, number];
}

/** How the running fleet is made: its workloads' options, and how many pods each cluster has to spare. */
export interface FleetShape {
  readonly workloads?: WorkloadOptions;
  readonly podSlack?: number;
}

export interface Fleet {
  readonly clusters: readonly Cluster[];
  readonly running: readonly ResourceBinding[];
}

export function clusterInfos(count: number): ClusterInfo[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `member-${String(i).padStart(3, '0')}`,
    region: REGIONS[i % REGIONS.length]!,
    tainted: i % 10 === 9,
  }));
}

/**
 * `running` bindings placed on `clusterCount` clusters whose free room is `1 − utilisation` of their
 * allocatable (a tenth of which the member cluster reports as allocated by others); utilisation 1
 * leaves only 50m cpu free per cluster, so any sizeable new binding needs preemption.
 */
export function randomFleet(random: Random, clusterCount: number, running: number, utilisation: number, shape: FleetShape = {}): Fleet {
  const infos = clusterInfos(clusterCount);
  const placed = new Map(infos.map((info) => [info.name, { cpu: 0, memory: 0, pods: 0 }]));
  const bindings = Array.from({ length: running }, (_, index) => {
    const manifest = randomWorkload(random, infos, `run-${index}`, shape.workloads ?? {});
    const targets = runningTargets(random, manifest.shape, manifest.replicas);
    for (const target of targets) {
      const usage = placed.get(target.name)!;
      usage.cpu += manifest.cpuMilli * target.replicas;
      usage.memory += manifest.memoryMi * target.replicas;
      usage.pods += target.replicas;
    }
    return bindingObject(manifest, targets);
  });
  const clusters = infos.map((info) => {
    const usage = placed.get(info.name)!;
    const slack = utilisation >= 1 ? { cpu: 50, memory: 64 } : { cpu: usage.cpu * (1 / utilisation - 1), memory: usage.memory * (1 / utilisation - 1) };
    const outrank = { cpu: Math.ceil(usage.cpu + slack.cpu), memory: Math.ceil(usage.memory + slack.memory) };
    const others = { cpu: Math.ceil(outrank.cpu / 9), memory: Math.ceil(outrank.memory / 9) };
    return decodeCluster(info, {
      allocatable: { cpu: `${outrank.cpu + others.cpu}m`, memory: `${outrank.memory + others.memory}Mi`, pods: usage.pods + (shape.podSlack ?? 10_000) },
      allocated: { cpu: `${others.cpu}m`, memory: `${others.memory}Mi` },
    });
  });
  return { clusters, running: bindings };
}

/** Unplaced bindings, as they arrive for scheduling. */
export function pendingBindings(random: Random, clusterCount: number, count: number, prefix: string, options: WorkloadOptions): ResourceBinding[] {
  const infos = clusterInfos(clusterCount);
  return Array.from({ length: count }, (_, index) => bindingObject(randomWorkload(random, infos, `${prefix}-${index}`, options), []));
}

interface Workload {
  readonly name: string;
  readonly namespace: string | undefined;
  readonly priority: number;
  readonly preemptionPolicy: 'PreemptLowerPriority' | 'Never';
  readonly preemptible: boolean;
  readonly cpuMilli: number;
  readonly memoryMi: number;
  readonly replicas: number;
  readonly shape: Shape;
}

function randomWorkload(random: Random, infos: readonly ClusterInfo[], name: string, options: WorkloadOptions): Workload {
  const priority = options.priority ?? random.pick(PRIORITIES);
  const [fewest, most] = options.replicas ?? [1, 6];
  return {
    name,
    // A few cluster-scoped bindings, which are never preemption victims.
    namespace: random.chance(0.02) ? undefined : `team-${random.int(0, 19)}`,
    priority,
    preemptionPolicy: options.preemptionPolicy ?? (random.chance(0.8) ? 'PreemptLowerPriority' : 'Never'),
    preemptible: priority < 100 ? random.chance(0.9) : random.chance(0.1),
    cpuMilli: random.pick(options.cpuMilli ?? CPU_MILLI),
    memoryMi: random.pick(MEMORY_MI),
    replicas: random.int(fewest, most),
    shape: randomShape(random, infos),
  };
}

function randomShape(random: Random, infos: readonly ClusterInfo[]): Shape {
  const strategy = random.pick(STRATEGIES);
  const tolerates = random.chance(0.2);
  const usable = infos.filter((info) => tolerates || !info.tainted);
  const region = random.pick(REGIONS);
  const inRegion = usable.filter((info) => info.region === region).map((info) => info.name);
  const named = random.sample(usable, strategy === 'duplicated' ? random.int(1, 3) : random.int(2, 4)).map((info) => info.name);
  // Duplicated and static weights name their clusters; the dynamic strategies select a region.
  const byName = strategy === 'duplicated' || strategy === 'static-weight';
  const affinity = byName ? { clusterNames: named } : { labelSelector: { matchLabels: { region } } };
  const twoTerms = random.chance(0.1);
  const placement: Record<string, unknown> = {
    ...(twoTerms
      ? { clusterAffinities: [{ affinityName: 'primary', ...affinity }, { affinityName: 'fallback', labelSelector: { matchLabels: { region } } }] }
      : { clusterAffinity: affinity }),
    ...(tolerates ? { clusterTolerations: [{ key: TAINT.key, operator: 'Exists' }] } : {}),
    ...replicaScheduling(random, strategy, named),
  };
  return { strategy, placement, eligible: byName ? named : inRegion };
}

function replicaScheduling(random: Random, strategy: Strategy, named: readonly string[]): Record<string, unknown> {
  switch (strategy) {
    case 'duplicated':
      return {};
    case 'static-weight':
      return {
        replicaScheduling: {
          replicaSchedulingType: 'Divided',
          replicaDivisionPreference: 'Weighted',
          weightPreference: { staticWeightList: named.map((name) => ({ targetCluster: { clusterNames: [name] }, weight: random.int(1, 3) })) },
        },
      };
    case 'available-replicas':
      return { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Weighted', weightPreference: { dynamicWeight: 'AvailableReplicas' } } };
    case 'aggregated':
      return { replicaScheduling: { replicaSchedulingType: 'Divided', replicaDivisionPreference: 'Aggregated' } };
  }
}

/** Duplicated: every named cluster; static weights: round robin over the named; dynamic: 1–3 clusters of the region. */
function runningTargets(random: Random, shape: Shape, replicas: number): { name: string; replicas: number }[] {
  if (shape.strategy === 'duplicated') return shape.eligible.map((name) => ({ name, replicas }));
  const clusters = shape.strategy === 'static-weight' ? [...shape.eligible] : random.sample(shape.eligible, random.int(1, 3));
  const counts = new Map<string, number>();
  for (let replica = 0; replica < replicas; replica++) {
    const name = clusters[replica % clusters.length]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, count]) => ({ name, replicas: count })).sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** Decoded like any stored object, and frozen as the in-memory store freezes what it returns. */
function bindingObject(workload: Workload, targets: readonly { name: string; replicas: number }[]): ResourceBinding {
  const namespaced = workload.namespace !== undefined;
  return frozenCopy(
    decodeObject({
      apiVersion: 'work.karmada.io/v1alpha2',
      kind: namespaced ? 'ResourceBinding' : 'ClusterResourceBinding',
      metadata: { name: `${workload.name}-deployment`, ...(namespaced ? { namespace: workload.namespace } : {}), generation: 1, resourceVersion: '1' },
      spec: {
        resource: { apiVersion: 'apps/v1', kind: 'Deployment', ...(namespaced ? { namespace: workload.namespace } : {}), name: workload.name },
        replicas: workload.replicas,
        replicaRequirements: { resourceRequest: { cpu: `${workload.cpuMilli}m`, memory: `${workload.memoryMi}Mi` } },
        placement: workload.shape.placement,
        schedulePriority: { priority: workload.priority, preemptionPolicy: workload.preemptionPolicy },
        preemptibility: workload.preemptible ? 'preemptible' : 'non-preemptible',
        ...(targets.length > 0 ? { clusters: targets } : {}),
      },
    }) as ResourceBinding,
  );
}

function decodeCluster(info: ClusterInfo, summary: Record<string, Record<string, string | number>>): Cluster {
  return frozenCopy(
    decodeObject({
      apiVersion: 'cluster.karmada.io/v1alpha1',
      kind: 'Cluster',
      metadata: { name: info.name, labels: { region: info.region }, resourceVersion: '1' },
      ...(info.tainted ? { spec: { taints: [TAINT] } } : {}),
      status: { conditions: [{ type: 'Ready', status: 'True' }], resourceSummary: summary },
    }) as Cluster,
  );
}
