import type { KubeEvent } from '../api/event';
import { NoRoomError } from '../api/no-room-error';
import { InvalidObjectError } from '../api/invalid-object-error';
import { apiGroupOf } from '../api/resource-template';
import { NotFoundError } from '../api/not-found-error';
import {
  CLUSTER_POLICY_NAME_LABEL,
  POLICY_NAME_LABEL,
  POLICY_NAMESPACE_LABEL,
  type ResourceBinding,
} from '../api/resource-binding';
import { withConfig } from '../config';
import { listBindings } from '../controllers/binding-requests';
import { ConflictError } from '../ports/object-store';
import { MemorySystem } from '../runtime/memory-system';
import { BindingTally, type StandingCounts } from './binding-tally';
import { clusterFill, type ClusterFill } from './cluster-fill';
import { PreemptionLog, type Preemption } from './preemptions';
import type { ObjectLocator, Scenario, ScenarioStep } from './scenario';
import { formatDuration } from './virtual-time';

interface ObjectName {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
}

export interface SimulatedBinding {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly resource: ResourceBinding['spec']['resource'];
  readonly policy: { kind: string; namespace?: string; name: string } | null;
  readonly priority: number;
  readonly preemptionPolicy: string;
  readonly preemptibility: string;
  readonly suspended: boolean;
  readonly replicas: number;
  readonly clusters: ReadonlyArray<{ name: string; replicas: number }>;
  readonly schedulerObservingAffinityName: string | null;
  readonly conditions: ReadonlyArray<{ type: string; status: string; reason?: string; message?: string }>;
}

export type SimulatedEvent = ReturnType<typeof summarizeEvent>;

/** What one step did and where the bindings stood after it. */
export interface StepSummary {
  /** Counted from 1, as a person counts the scenario's steps. */
  readonly step: number;
  readonly action: 'apply' | 'delete' | 'patch' | 'wait';
  /** The objects an apply, delete or patch step names, and how many of each kind. */
  readonly objects?: number;
  readonly kinds?: Readonly<Record<string, number>>;
  /** How long a wait step moved the virtual clock on. */
  readonly wait?: string;
  /** Virtual time since the simulation began when the step ran: "0s", "5m". */
  readonly time: string;
  /** The bindings placed, waiting and suspended once the step's work was done. */
  readonly bindings: StandingCounts;
  /** Bindings preempted, and writes the API refused, during the step. */
  readonly preempted: number;
  readonly rejected: number;
}

export interface SimulationResult {
  readonly bindings: SimulatedBinding[];
  /** Every event, with the step (counted from 1) that led to it and the virtual time it was recorded at. */
  readonly events: Array<{ step: number; time: string } & SimulatedEvent>;
  /** Writes the API refused; `step` counts from 1, as a person counts the scenario's steps. */
  readonly rejections: Array<{ step: number; object: ObjectName; message: string }>;
  readonly metrics: { policyPreemptions: { success: number; error: number }; bindingPreemptions: number };
  /** Unexpected handler failures; empty unless something is wrong with outrank itself. */
  readonly errors: string[];
  readonly steps: StepSummary[];
  /** At the end: the bindings of each priority (their resolved priority), highest first, where they stand, and how many were preempted. */
  readonly priorities: Array<{ priority: number; bindings: number; preempted: number } & StandingCounts>;
  /** Every placement that preempted, in order, with its victims. */
  readonly preemptions: Preemption[];
  /** At the end: how full each cluster is, by name. */
  readonly clusters: ClusterFill[];
}

function isRejection(error: unknown): error is Error {
  return error instanceof InvalidObjectError || error instanceof ConflictError || error instanceof NotFoundError || error instanceof NoRoomError;
}

function locatorRef(locator: ObjectLocator) {
  return { group: apiGroupOf(locator.apiVersion), kind: locator.kind, namespace: locator.namespace ?? '', name: locator.name };
}

export function describeRaw(raw: unknown): ObjectName {
  const record = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const metadata = (typeof record.metadata === 'object' && record.metadata !== null ? record.metadata : {}) as Record<string, unknown>;
  return {
    kind: typeof record.kind === 'string' ? record.kind : 'Object',
    ...(typeof metadata.namespace === 'string' ? { namespace: metadata.namespace } : {}),
    name: typeof metadata.name === 'string' ? metadata.name : '',
  };
}

function policyOf(binding: ResourceBinding): SimulatedBinding['policy'] {
  const labels = binding.metadata.labels ?? {};
  if (labels[CLUSTER_POLICY_NAME_LABEL]) return { kind: 'ClusterPropagationPolicy', name: labels[CLUSTER_POLICY_NAME_LABEL] };
  if (labels[POLICY_NAME_LABEL]) {
    return { kind: 'PropagationPolicy', namespace: labels[POLICY_NAMESPACE_LABEL] ?? '', name: labels[POLICY_NAME_LABEL] };
  }
  return null;
}

export function summarizeBinding(binding: ResourceBinding): SimulatedBinding {
  return {
    kind: binding.kind,
    namespace: binding.metadata.namespace ?? '',
    name: binding.metadata.name,
    resource: binding.spec.resource,
    policy: policyOf(binding),
    priority: binding.spec.schedulePriority?.priority ?? 0,
    preemptionPolicy: binding.spec.schedulePriority?.preemptionPolicy ?? 'Never',
    preemptibility: binding.spec.preemptibility ?? 'preemptible',
    suspended: binding.spec.suspension?.scheduling === true,
    replicas: binding.spec.replicas ?? 0,
    clusters: binding.spec.clusters ?? [],
    schedulerObservingAffinityName: binding.status?.schedulerObservingAffinityName ?? null,
    conditions: (binding.status?.conditions ?? []).map((c) => ({
      type: c.type,
      status: c.status,
      ...(c.reason ? { reason: c.reason } : {}),
      ...(c.message ? { message: c.message } : {}),
    })),
  };
}

export function summarizeEvent(event: KubeEvent) {
  return {
    type: event.type,
    reason: event.reason,
    object: {
      kind: event.involvedObject.kind,
      ...(event.involvedObject.namespace ? { namespace: event.involvedObject.namespace } : {}),
      name: event.involvedObject.name,
    },
    message: event.message,
  };
}

export interface RunOptions {
  /** Called with each event as it is recorded, and the step (counted from 1) that led to it. */
  readonly onEvent?: (step: number, event: SimulatedEvent) => void;
}

/** How many objects of each kind, most first. */
function kindsOf(kinds: readonly string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return Object.fromEntries([...counts.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b)));
}

/** What a step does, before it is run. */
function actionOf(step: ScenarioStep): Pick<StepSummary, 'action' | 'objects' | 'kinds' | 'wait'> {
  if ('wait' in step) return { action: 'wait', wait: formatDuration(step.wait) };
  const [action, kinds] =
    'apply' in step ? (['apply', step.apply.map((raw) => describeRaw(raw).kind)] as const)
    : 'delete' in step ? (['delete', step.delete.map((locator) => locator.kind)] as const)
    : (['patch', step.patch.map((target) => target.kind)] as const);
  return { action, objects: kinds.length, kinds: kindsOf(kinds) };
}

/** Runs a scenario on the in-memory system with a virtual clock and reports the final state. */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<SimulationResult> {
  const system = new MemorySystem(withConfig({ ...scenario.config, gates: scenario.config?.gates ?? {} }));
  const start = system.clock.now();
  const elapsed = () => formatDuration(system.clock.now() - start);
  const tally = new BindingTally(system.store);
  const preemptions = new PreemptionLog(tally);
  let current = 0;
  const recorded = new Map<KubeEvent, { step: number; time: string }>();
  system.events.onRecord((event) => {
    const time = elapsed();
    recorded.set(event, { step: current, time });
    preemptions.record(event, current, time);
    options.onEvent?.(current, summarizeEvent(event));
  });
  const rejections: SimulationResult['rejections'] = [];
  const attempt = async (step: number, object: ObjectName, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      if (!isRejection(error)) throw error;
      rejections.push({ step: step + 1, object, message: error.message });
    }
  };

  const steps: StepSummary[] = [];
  for (const [index, step] of scenario.steps.entries()) {
    current = index + 1;
    const before = { preempted: system.metrics.counter('BindingPreemptions'), rejected: rejections.length };
    if ('apply' in step) {
      for (const raw of step.apply) await attempt(index, describeRaw(raw), () => system.objects.apply(raw));
    } else if ('delete' in step) {
      for (const locator of step.delete) await attempt(index, locator, () => system.objects.delete(locatorRef(locator)));
    } else if ('patch' in step) {
      for (const { patch, ...locator } of step.patch) {
        await attempt(index, locator, () => system.objects.patch(locatorRef(locator), patch));
      }
    } else {
      await system.advance(step.wait);
    }
    await system.runUntilIdle();
    steps.push({
      step: current,
      ...actionOf(step),
      time: elapsed(),
      bindings: tally.totals(),
      preempted: system.metrics.counter('BindingPreemptions') - before.preempted,
      rejected: rejections.length - before.rejected,
    });
  }

  const preemptedByPriority = new Map<number, number>();
  for (const { victims } of preemptions.preemptions) {
    for (const victim of victims) preemptedByPriority.set(victim.priority, (preemptedByPriority.get(victim.priority) ?? 0) + 1);
  }
  return {
    bindings: (await listBindings(system.context)).map(summarizeBinding),
    events: (await system.events.list()).map((event) => ({ ...recorded.get(event)!, ...summarizeEvent(event) })),
    rejections,
    metrics: {
      policyPreemptions: {
        success: system.metrics.counter('PolicyPreemptions', { result: 'success' }),
        error: system.metrics.counter('PolicyPreemptions', { result: 'error' }),
      },
      bindingPreemptions: system.metrics.counter('BindingPreemptions'),
    },
    errors: system.handlerErrors.map((error) => error.message),
    steps,
    priorities: tally.priorities().map((counts) => ({
      priority: counts.priority,
      bindings: counts.placed + counts.waiting + counts.suspended,
      placed: counts.placed,
      waiting: counts.waiting,
      suspended: counts.suspended,
      preempted: preemptedByPriority.get(counts.priority) ?? 0,
    })),
    preemptions: preemptions.preemptions,
    clusters: await clusterFill(system.store),
  };
}
