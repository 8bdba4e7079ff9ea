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
import type { ObjectLocator, Scenario } from './scenario';

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
  readonly schedulerObservedAffinityName: string | null;
  readonly conditions: ReadonlyArray<{ type: string; status: string; reason?: string; message?: string }>;
}

export interface SimulationResult {
  readonly bindings: SimulatedBinding[];
  readonly events: Array<{ type: string; reason: string; object: ObjectName; message: string }>;
  /** Writes the API refused; `step` counts from 1, as a person counts the scenario's steps. */
  readonly rejections: Array<{ step: number; object: ObjectName; message: string }>;
  readonly metrics: { policyPreemptions: { success: number; error: number }; bindingPreemptions: number };
  /** Unexpected handler failures; empty unless something is wrong with outrank itself. */
  readonly errors: string[];
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
    schedulerObservedAffinityName: binding.status?.schedulerObservedAffinityName ?? null,
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
  readonly onEvent?: (step: number, event: SimulationResult['events'][number]) => void;
}

/** Runs a scenario on the in-memory system with a virtual clock and reports the final state. */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<SimulationResult> {
  const system = new MemorySystem(withConfig({ ...scenario.config, gates: scenario.config?.gates ?? {} }));
  let current = 0;
  const { onEvent } = options;
  if (onEvent) system.events.onRecord((event) => onEvent(current, summarizeEvent(event)));
  const rejections: SimulationResult['rejections'] = [];
  const attempt = async (step: number, object: ObjectName, action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      if (!isRejection(error)) throw error;
      rejections.push({ step: step + 1, object, message: error.message });
    }
  };

  for (const [index, step] of scenario.steps.entries()) {
    current = index + 1;
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
  }

  return {
    bindings: (await listBindings(system.context)).map(summarizeBinding),
    events: (await system.events.list()).map(summarizeEvent),
    rejections,
    metrics: {
      policyPreemptions: {
        success: system.metrics.counter('PolicyPreemptions', { result: 'success' }),
        error: system.metrics.counter('PolicyPreemptions', { result: 'error' }),
      },
      bindingPreemptions: system.metrics.counter('BindingPreemptions'),
    },
    errors: system.handlerErrors.map((error) => error.message),
  };
}
