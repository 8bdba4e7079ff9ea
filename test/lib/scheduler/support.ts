/** Builders for the scheduler tests: Cluster and ResourceBinding objects as the store holds them. */
import fc from 'fast-check';
import type { Cluster } from '../../../lib/api/cluster';
import { decodeObject } from '../../../lib/api/decode';
import type { ResourceBinding } from '../../../lib/api/resource-binding';
import type { ResourceList } from '../../../lib/resources';
import { PlacementOracle } from '../../../lib/scheduler/preemption/placement-oracle';
import { candidatePlacements, type CandidatePlacements } from '../../../lib/scheduler/preemption/preemption-candidates';
import { selectVictims, type VictimSelection } from '../../../lib/scheduler/preemption/victim-search';
import type { Requirement } from '../../../lib/scheduler/replica-strategy';
import { SchedulingSnapshot, type BindingState, type ClusterState } from '../../../lib/scheduler/snapshot';

type Quantities = Record<string, string | number>;

export interface ClusterOptions {
  readonly allocatable?: Quantities;
  readonly allocated?: Quantities;
  readonly allocating?: Quantities;
  readonly labels?: Record<string, string>;
  readonly taints?: readonly Record<string, unknown>[];
  readonly ready?: 'True' | 'False' | 'Unknown';
  /** false: the allocatable given has no `pods` entry added (a cluster has room for no pod without one). */
  readonly reportsPods?: false;
}

/**
 * Pods a test cluster offers when its allocatable names none: member clusters report them, and a test about
 * other resources should not run out of pods.
 */
export const TEST_CLUSTER_PODS = 10_000;

/** A member cluster; `cluster('m1', { allocatable: { cpu: 10 } })` has room for 10 cores and TEST_CLUSTER_PODS pods. */
export function cluster(name: string, options: ClusterOptions = {}): Cluster {
  const allocatable =
    options.allocatable && options.reportsPods !== false && !('pods' in options.allocatable) ? { ...options.allocatable, pods: TEST_CLUSTER_PODS } : options.allocatable;
  const summary = {
    ...(allocatable ? { allocatable } : {}),
    ...(options.allocated ? { allocated: options.allocated } : {}),
    ...(options.allocating ? { allocating: options.allocating } : {}),
  };
  return decodeObject({
    apiVersion: 'cluster.karmada.io/v1alpha1',
    kind: 'Cluster',
    metadata: { name, ...(options.labels ? { labels: options.labels } : {}) },
    ...(options.taints ? { spec: { taints: options.taints } } : {}),
    status: {
      ...(options.ready ? { conditions: [{ type: 'Ready', status: options.ready }] } : {}),
      ...(Object.keys(summary).length > 0 ? { resourceSummary: summary } : {}),
    },
  }) as Cluster;
}

export interface BindingOptions {
  readonly kind?: 'ResourceBinding' | 'ClusterResourceBinding';
  readonly priority?: number;
  readonly preemptionPolicy?: 'PreemptLowerPriority' | 'Never';
  readonly preemptible?: boolean;
  /** Per-replica request; defaults to 1 cpu. `{}` requests nothing. */
  readonly request?: Quantities;
  readonly replicas?: number;
  /** Where it is placed now: cluster name → replicas. */
  readonly clusters?: Record<string, number>;
  readonly placement?: Record<string, unknown>;
  readonly observedAffinity?: string;
  /** The template's uid (spec.resource.uid), which orders Webster's ties (tie-order.ts). */
  readonly resourceUid?: string;
  /** When the scheduler last placed it (status.lastScheduledTime), and when a fresh division was asked for. */
  readonly lastScheduledTime?: string;
  readonly rescheduleTriggeredAt?: string;
  /** spec.schedulerName; none by default (the default scheduler's). */
  readonly schedulerName?: string;
}

/** A binding; by default priority 0, PreemptLowerPriority, preemptible, 1 replica of 1 cpu, unplaced, any cluster. */
export function binding(name: string, options: BindingOptions = {}): ResourceBinding {
  const kind = options.kind ?? 'ResourceBinding';
  const request = options.request ?? { cpu: '1' };
  return decodeObject({
    apiVersion: 'work.karmada.io/v1alpha2',
    kind,
    metadata: { name, ...(kind === 'ResourceBinding' ? { namespace: 'default' } : {}), generation: 1 },
    spec: {
      resource: {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        ...(kind === 'ResourceBinding' ? { namespace: 'default' } : {}),
        name,
        ...(options.resourceUid ? { uid: options.resourceUid } : {}),
      },
      replicas: options.replicas ?? 1,
      ...(Object.keys(request).length > 0 ? { replicaRequirements: { resourceRequest: request } } : {}),
      ...(options.placement ? { placement: options.placement } : {}),
      ...(options.schedulerName === undefined ? {} : { schedulerName: options.schedulerName }),
      schedulePriority: { priority: options.priority ?? 0, preemptionPolicy: options.preemptionPolicy ?? 'PreemptLowerPriority' },
      preemptibility: options.preemptible === false ? 'non-preemptible' : 'preemptible',
      ...(options.clusters ? { clusters: Object.entries(options.clusters).map(([clusterName, replicas]) => ({ name: clusterName, replicas })) } : {}),
      ...(options.rescheduleTriggeredAt ? { rescheduleTriggeredAt: options.rescheduleTriggeredAt } : {}),
    },
    ...(options.observedAffinity || options.lastScheduledTime
      ? {
          status: {
            ...(options.observedAffinity ? { schedulerObservingAffinityName: options.observedAffinity } : {}),
            ...(options.lastScheduledTime ? { lastScheduledTime: options.lastScheduledTime } : {}),
          },
        }
      : {}),
  }) as ResourceBinding;
}

export const onClusters = (...clusterNames: string[]) => ({ clusterAffinity: { clusterNames } });
export const divided = (preference: Record<string, unknown> = {}) => ({ replicaSchedulingType: 'Divided', ...preference });

/** A running binding of a generated fleet (property tests): cpu and memory per replica, replicas per cluster. */
export interface FleetResident {
  readonly name: string;
  readonly kind?: 'ResourceBinding' | 'ClusterResourceBinding';
  readonly priority: number;
  readonly preemptible: boolean;
  readonly cpu: number;
  readonly memory: number;
  readonly clusters: Record<string, number>;
}

/** A resident of a generated fleet for the victim search's properties: four priorities, one to three of the clusters. */
export function searchResident(clusters: readonly string[]): fc.Arbitrary<FleetResident> {
  return fc.record({
    name: fc.integer({ min: 0, max: 59 }).map((n) => `b${n}`),
    priority: fc.integer({ min: 0, max: 3 }),
    preemptible: fc.boolean(),
    cpu: fc.integer({ min: 0, max: 4 }),
    memory: fc.integer({ min: 0, max: 3 }),
    clusters: fc.dictionary(fc.constantFrom(...clusters), fc.integer({ min: 1, max: 2 }), { minKeys: 1, maxKeys: 3 }),
  });
}

/**
 * A snapshot of the named clusters filled by the residents (the last of a name kept), each cluster left
 * with `spare.cpu[i]` cpu and `spare.memory[i]` memory beyond what they take, and the other bindings given.
 */
export function filledSnapshot(
  names: readonly string[],
  residents: readonly FleetResident[],
  spare: { readonly cpu: readonly number[]; readonly memory: readonly number[] },
  others: readonly ResourceBinding[],
): SchedulingSnapshot {
  const byName = new Map(residents.map((r) => [r.name, r]));
  const taken = new Map(names.map((name) => [name, { cpu: 0, memory: 0 }]));
  for (const r of byName.values()) {
    for (const [name, replicas] of Object.entries(r.clusters)) {
      taken.get(name)!.cpu += r.cpu * replicas;
      taken.get(name)!.memory += r.memory * replicas;
    }
  }
  const clusters = names.map((name, i) => cluster(name, { allocatable: { cpu: taken.get(name)!.cpu + spare.cpu[i]!, memory: `${taken.get(name)!.memory + spare.memory[i]!}` } }));
  return new SchedulingSnapshot(clusters, [
    ...[...byName.values()].map((r) =>
      binding(r.name, {
        ...(r.kind ? { kind: r.kind } : {}),
        priority: r.priority,
        preemptible: r.preemptible,
        request: r.cpu + r.memory > 0 ? { cpu: r.cpu, memory: r.memory } : {},
        clusters: r.clusters,
      }),
    ),
    ...others,
  ]);
}

/**
 * The victim search over every candidate of `preemptor` on the clusters at once, with a budget that
 * always completes it: what the faster paths of preemption are held to.
 */
export function searchEveryCandidate(
  preemptor: BindingState,
  clusters: readonly ClusterState[],
  snapshot: SchedulingSnapshot,
  requirement: Requirement,
  room: (cluster: ClusterState) => ResourceList = (cluster) => snapshot.free(cluster, preemptor),
): { readonly placements: CandidatePlacements; readonly oracle: PlacementOracle; readonly selection: VictimSelection | null; readonly victims: string[] | null } {
  const placements = candidatePlacements(clusters, snapshot, preemptor);
  const oracle = new PlacementOracle(preemptor, clusters, placements, snapshot, requirement, room);
  const selection = selectVictims(placements.candidates, oracle, { searchBudget: 1_000_000, inSearchOrder: true });
  return { placements, oracle, selection, victims: victimKeys(placements, selection) };
}

/** The keys of the selection's victims among the placements' candidates; null when it found no set. */
export function victimKeys(placements: CandidatePlacements, selection: { readonly victims: readonly number[] } | null): string[] | null {
  return selection === null || selection.victims.length === 0 ? null : selection.victims.map((index) => placements.candidates[index]!.key);
}
