import type { Cluster } from '../api/cluster';
import type { GracefulEvictionTask, ResourceBinding, TargetCluster } from '../api/resource-binding';
import { evictingFrom } from './binding-filter';
import { isLostTarget } from './lost-target';
import { describeTaint, noExecuteVerdict } from './no-execute';

/** Karmada's names for an eviction the taint manager starts (work/v1alpha2 well_known_constants.go). */
export const TAINT_UNTOLERATED = 'TaintUntolerated';
export const TAINT_MANAGER = 'TaintManager';

/** A target the NoExecute taints of its cluster evict the binding from now, and why. */
export interface DueEviction {
  readonly target: TargetCluster;
  readonly message: string;
}

/**
 * The targets the binding must be evicted from now (no-execute.ts) that it is not being evicted from
 * already, by the clusters as `clusterOf` knows them (a cluster that is gone is lost-target.ts's).
 */
export function dueEvictions(binding: ResourceBinding, clusterOf: (name: string) => Cluster | undefined, now: number): DueEviction[] {
  const targets = binding.spec.clusters ?? [];
  if (targets.length === 0) return [];
  const tolerations = binding.spec.placement?.clusterTolerations ?? [];
  const evicting = evictingFrom(binding);
  return targets.flatMap((target) => {
    const cluster = clusterOf(target.name);
    if (!cluster || evicting.has(target.name) || isLostTarget(binding, cluster)) return [];
    const verdict = noExecuteVerdict(cluster, tolerations, now);
    if (verdict.evict !== 'now') return [];
    const taint = describeTaint(verdict.taint);
    const message = verdict.why === 'untolerated' ? `the NoExecute taint ${taint} is not tolerated` : `the toleration of the NoExecute taint ${taint} ran out`;
    return [{ target, message }];
  });
}

/**
 * The binding with a gracefulEvictionTask for each eviction due now, as Karmada's taint manager writes
 * one (ResourceBindingSpec.GracefulEvictCluster, purge mode Gracefully), created at `timestamp` with a
 * grace period of `graceMs`. Unlike Karmada's, the cluster stays in spec.clusters while the task is
 * open: outrank has no work on member clusters, and what a binding holds is what spec.clusters says,
 * so the binding keeps the cluster until it is placed elsewhere or the grace period ends.
 */
export function withDueEvictions(binding: ResourceBinding, due: readonly DueEviction[], timestamp: string, graceMs: number): ResourceBinding {
  if (due.length === 0) return binding;
  const tasks = due.map(({ target, message }): GracefulEvictionTask => ({
    fromCluster: target.name,
    purgeMode: 'Gracefully',
    ...(target.replicas > 0 ? { replicas: target.replicas } : {}),
    reason: TAINT_UNTOLERATED,
    message,
    producer: TAINT_MANAGER,
    gracePeriodSeconds: Math.max(1, Math.ceil(graceMs / 1_000)),
    creationTimestamp: timestamp,
  }));
  return { ...binding, spec: { ...binding.spec, gracefulEvictionTasks: [...(binding.spec.gracefulEvictionTasks ?? []), ...tasks] } };
}

/**
 * Whether the task's grace period is over (Karmada's graceful eviction controller, evictiontask.go
 * assessSingleTask: "task exceeds timeout"); a task without its creation time counts as over.
 */
export function graceEnded(task: GracefulEvictionTask, now: number): boolean {
  const created = Date.parse(task.creationTimestamp ?? '');
  return Number.isNaN(created) || now >= created + (task.gracePeriodSeconds ?? 0) * 1_000;
}

/** The targets whose graceful eviction is over: the binding gives them up now, placed elsewhere or not. */
export function expiredEvictions(binding: ResourceBinding, now: number): TargetCluster[] {
  const over = new Set((binding.spec.gracefulEvictionTasks ?? []).filter((task) => graceEnded(task, now)).map((task) => task.fromCluster));
  return over.size === 0 ? [] : (binding.spec.clusters ?? []).filter((target) => over.has(target.name));
}

/** The targets the binding is being evicted from: those of its open gracefulEvictionTasks. */
export function evictingTargets(binding: ResourceBinding): TargetCluster[] {
  const evicting = evictingFrom(binding);
  return evicting.size === 0 ? [] : (binding.spec.clusters ?? []).filter((target) => evicting.has(target.name));
}
