import { DEFAULT_SCHEDULER_NAME } from './api/scheduler-name';
import { DEFAULT_SEARCH_BUDGET } from './scheduler/preemption/victim-search';
import * as z from 'zod';

/** Feature gates, as Karmada names them (000 and 002 design documents); all on by default. */
export interface FeatureGates {
  /** Off: the queue is plain first-in-first-out (binding priority and preemption (000)). */
  readonly PriorityBasedScheduling: boolean;
  /** Off: no binding preemption (binding priority and preemption (000)). */
  readonly PriorityBasedPreemptiveScheduling: boolean;
  /** Off: policies never take claimed templates (policy priority and preemption (002)). */
  readonly PropagationPolicyPreemption: boolean;
}

/** Gates as settings and scenarios write them: any left out keeps its default. */
export const featureGatesSchema = z.strictObject({
  PriorityBasedScheduling: z.boolean().optional(),
  PriorityBasedPreemptiveScheduling: z.boolean().optional(),
  PropagationPolicyPreemption: z.boolean().optional(),
});

/**
 * The scheduler names outrank answers to, as settings and scenarios write them: it schedules, preempts
 * for and preempts only the bindings whose spec.schedulerName is one of them (Karmada's
 * `--scheduler-name`, one name per scheduler there).
 */
export const schedulerNamesSchema = z.array(z.string().min(1, 'must not be empty').max(253)).min(1, 'must name at least one scheduler').max(16);

export interface PriorityBand {
  readonly name: string;
  /** Lowest priority value that belongs to the band. */
  readonly minPriority: number;
}

export interface SchedulerConfig {
  readonly gates: FeatureGates;
  /**
   * The bindings outrank takes are those whose spec.schedulerName is one of these (default-scheduler
   * when empty); the others are another scheduler's: never queued, placed or preempted, their placements
   * counted as occupied room (scheduler-name.ts).
   */
  readonly schedulerNames: readonly string[];
  /** Preemptibility separate from priority (001): with nothing explicit, priority below this is preemptible. */
  readonly preemptibleBelowPriority: number;
  /** Highest band first; the last band takes every priority below the others. */
  readonly bands: readonly PriorityBand[];
  readonly initialBackoffMs: number;
  readonly maxBackoffMs: number;
  /** At the latest after this long an unschedulable binding is tried again. */
  readonly unschedulableRequeueMs: number;
  readonly scheduleBatchSize: number;
  /** Commit attempts after a write conflict before the message is left for redelivery. */
  readonly maxCommitAttempts: number;
  /** Oracle calls the exact victim search may spend before settling for its best answer so far. */
  readonly victimSearchBudget: number;
  /** Most requests the binding-enqueue queue may hold after a reconcile run: it adds only what is missing to this. */
  readonly reconcileLimit: number;
  /**
   * How long a binding evicted from a cluster by a NoExecute taint keeps it while it waits to be placed
   * elsewhere (Karmada's --graceful-eviction-timeout, 10 minutes); written into each gracefulEvictionTask.
   */
  readonly gracefulEvictionTimeoutMs: number;
  /**
   * With tenancy, the namespaces whose templates' `kai.scheduler/preemptibility` label may declare work
   * non-preemptible (tenancy `nonPreemptibleNamespaces`); elsewhere the label is ignored with a Warning.
   * Undefined without tenancy: every namespace may.
   */
  readonly nonPreemptibleNamespaces?: readonly string[];
}

export const DEFAULT_BANDS: readonly PriorityBand[] = [
  { name: 'system', minPriority: 1_000_000_000 },
  { name: 'high', minPriority: 1_000 },
  { name: 'default', minPriority: 0 },
  { name: 'low', minPriority: -2_147_483_648 },
];

export const DEFAULT_CONFIG: SchedulerConfig = {
  gates: {
    PriorityBasedScheduling: true,
    PriorityBasedPreemptiveScheduling: true,
    PropagationPolicyPreemption: true,
  },
  schedulerNames: [DEFAULT_SCHEDULER_NAME],
  preemptibleBelowPriority: 100,
  bands: DEFAULT_BANDS,
  initialBackoffMs: 1_000,
  maxBackoffMs: 10_000,
  unschedulableRequeueMs: 5 * 60 * 1_000,
  scheduleBatchSize: 10,
  maxCommitAttempts: 5,
  victimSearchBudget: DEFAULT_SEARCH_BUDGET,
  reconcileLimit: 1_000,
  gracefulEvictionTimeoutMs: 10 * 60 * 1_000,
};

export function withConfig(overrides: Partial<Omit<SchedulerConfig, 'gates'>> & { gates?: Partial<FeatureGates> } = {}): SchedulerConfig {
  return { ...DEFAULT_CONFIG, ...overrides, gates: { ...DEFAULT_CONFIG.gates, ...overrides.gates } };
}

/** The band a priority falls in; with priority scheduling off every binding shares one band. */
export function bandFor(config: SchedulerConfig, priority: number): PriorityBand {
  if (!config.gates.PriorityBasedScheduling) return config.bands[config.bands.length - 1]!;
  return config.bands.find((band) => priority >= band.minPriority) ?? config.bands[config.bands.length - 1]!;
}
