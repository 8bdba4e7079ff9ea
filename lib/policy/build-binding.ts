import { bindingName } from '../api/binding-name';
import { controllerRef } from '../api/owner-reference';
import type { PriorityClass } from '../api/priority-class';
import { sameJson } from '../api/plain-object';
import type { AnyPropagationPolicy } from '../api/propagation-policy';
import {
  CLUSTER_POLICY_NAME_LABEL,
  POLICY_NAME_LABEL,
  POLICY_NAMESPACE_LABEL,
  type ResourceBinding,
} from '../api/resource-binding';
import { isWorkloadTemplate, templatePodLabels, templatePodSpec, templateReplicas, type ResourceTemplate } from '../api/resource-template';
import { DEFAULT_SCHEDULER_NAME, schedulerNameOf } from '../api/scheduler-name';
import type { EventRecord } from '../ports/event-log';
import { formatQuantity } from '../quantity';
import { podTemplateRequest } from '../resources';
import { resolvePreemptibility } from './resolve-preemptibility';
import { resolvePriority, type ResolvedPriority } from './resolve-priority';

export interface BindingInputs {
  readonly template: ResourceTemplate;
  readonly policy: AnyPropagationPolicy;
  readonly priorityClasses: readonly PriorityClass[];
  readonly preemptibleBelowPriority: number;
  /** Whether the template's labels may declare it non-preemptible (tenancy; see SchedulerConfig.nonPreemptibleNamespaces). */
  readonly labelsMayDeclareNonPreemptible: boolean;
  /** The binding as stored, if any: its status, placement and generation carry over. */
  readonly existing: ResourceBinding | undefined;
  /** When a new binding is created (its creationTimestamp). */
  readonly now: string;
  /** The metadata.uid of a new binding; a binding already stored keeps its own. */
  readonly newUid: () => string;
}

export interface BuiltBinding {
  readonly binding: ResourceBinding;
  /** True when the spec differs from the stored one (or there was none). */
  readonly changed: boolean;
  readonly warnings: readonly EventRecord[];
}

/**
 * Annotation recording what the binding's priority was resolved from: the template's and the claiming
 * policy's resourceVersions. While both are unchanged the priority is kept as it was resolved.
 */
export const PRIORITY_RESOLVED_FROM_ANNOTATION = 'outrank.io/priority-resolved-from';

function resolutionSource(template: ResourceTemplate, policy: AnyPropagationPolicy): string {
  const scope = policy.metadata.namespace ? `${policy.metadata.namespace}/` : '';
  return `${template.metadata.resourceVersion ?? ''}|${policy.kind}/${scope}${policy.metadata.name}@${policy.metadata.resourceVersion ?? ''}`;
}

function policyLabels(policy: AnyPropagationPolicy): Record<string, string> {
  return policy.kind === 'PropagationPolicy'
    ? { [POLICY_NAMESPACE_LABEL]: policy.metadata.namespace ?? '', [POLICY_NAME_LABEL]: policy.metadata.name }
    : { [CLUSTER_POLICY_NAME_LABEL]: policy.metadata.name };
}

function perReplicaRequest(template: ResourceTemplate): Record<string, string> {
  const request: Record<string, string> = {};
  for (const [resource, amount] of Object.entries(podTemplateRequest(templatePodSpec(template)))) {
    // Every replica is one pod; the scheduler adds that itself, as Karmada's binding omits it.
    if (resource !== 'pods' && amount > 0) request[resource] = formatQuantity(amount, resource);
  }
  return request;
}

/**
 * The binding a policy makes of a template (named `<template>-<kind>`), which refers to it by its uid
 * too (spec.resource.uid, as Karmada's detector writes it). Binding priority and
 * preemption (000), "About priority classes": the priority and preemption policy are resolved when the
 * binding is made and again only when its own template or policy changes; a PriorityClass deleted or
 * created again with another value does not touch a binding whose template and policy are as they were,
 * whatever else prompts the claim (another policy's write, the template resync).
 */
export function buildBinding(inputs: BindingInputs): BuiltBinding {
  const { template, policy, existing } = inputs;
  const templateRef = {
    apiVersion: template.apiVersion,
    kind: template.kind,
    namespace: template.metadata.namespace,
    name: template.metadata.name,
  };
  const warnings: EventRecord[] = [];
  const podSpec = templatePodSpec(template);
  const source = resolutionSource(template, policy);
  const kept = existing?.metadata.annotations?.[PRIORITY_RESOLVED_FROM_ANNOTATION] === source ? existing.spec.schedulePriority : undefined;
  const priority: ResolvedPriority = kept
    ? { priority: kept.priority ?? 0, preemptionPolicy: kept.preemptionPolicy ?? 'Never' }
    : resolvePriority(policy.spec.schedulePriority, podSpec, inputs.priorityClasses);
  if (priority.missingClassName) {
    warnings.push({
      type: 'Warning',
      reason: 'PriorityClassNotFound',
      object: templateRef,
      message: `PriorityClass "${priority.missingClassName}" does not exist; using priority ${priority.priority} and preemption policy ${priority.preemptionPolicy}`,
    });
  }
  const preemptibility = resolvePreemptibility({
    policyPreemptibility: policy.spec.preemptibility,
    templateLabels: template.metadata.labels,
    podLabels: templatePodLabels(template),
    priority: priority.priority,
    preemptibleBelowPriority: inputs.preemptibleBelowPriority,
    labelsMayDeclareNonPreemptible: inputs.labelsMayDeclareNonPreemptible,
  });
  for (const invalid of preemptibility.invalidLabels) {
    warnings.push({
      type: 'Warning',
      reason: 'InvalidPreemptibility',
      object: templateRef,
      message: `${invalid.where} label kai.scheduler/preemptibility="${invalid.value}" is not preemptible or non-preemptible; ignored`,
    });
  }
  for (const where of preemptibility.ungrantedLabels) {
    warnings.push({
      type: 'Warning',
      reason: 'NonPreemptibleNotGranted',
      object: templateRef,
      message: `${where} label kai.scheduler/preemptibility="non-preemptible" ignored: namespace "${template.metadata.namespace ?? ''}" is not granted non-preemptible work (tenancy nonPreemptibleNamespaces)`,
    });
  }

  const suspension = suspensionFor(policy, existing);
  if (policy.spec.suspension?.scheduling === true && suspension.suspension?.scheduling !== true) {
    warnings.push({
      type: 'Warning',
      reason: 'SchedulingSuspensionIgnored',
      object: templateRef,
      message: 'the policy asks to suspend scheduling, but the binding is already scheduled and keeps its placement',
    });
  }
  const request = perReplicaRequest(template);
  const spec: ResourceBinding['spec'] = {
    resource: {
      apiVersion: template.apiVersion,
      kind: template.kind,
      ...(template.metadata.namespace ? { namespace: template.metadata.namespace } : {}),
      name: template.metadata.name,
      ...(template.metadata.uid ? { uid: template.metadata.uid } : {}),
    },
    // A template without replicas (Karmada's detector: no replica interpreter) gets neither replicas nor a request.
    ...(isWorkloadTemplate(template) ? { replicas: templateReplicas(template) } : {}),
    ...(Object.keys(request).length > 0 ? { replicaRequirements: { resourceRequest: request } } : {}),
    ...(policy.spec.placement ? { placement: policy.spec.placement } : {}),
    ...carriedFromPolicy(policy),
    ...schedulerNameFor(policy, existing),
    schedulePriority: { priority: priority.priority, preemptionPolicy: priority.preemptionPolicy },
    preemptibility: preemptibility.preemptibility,
    ...suspension,
    // A user's request for a fresh division, kept until the scheduler has made it (assignment-mode.ts).
    ...(existing?.spec.rescheduleTriggeredAt ? { rescheduleTriggeredAt: existing.spec.rescheduleTriggeredAt } : {}),
    ...(existing?.spec.clusters ? { clusters: existing.spec.clusters } : {}),
    ...(existing?.spec.gracefulEvictionTasks ? { gracefulEvictionTasks: existing.spec.gracefulEvictionTasks } : {}),
  };

  const changed = !existing || !sameJson(withoutPlacement(existing.spec), withoutPlacement(spec));
  const namespaced = Boolean(template.metadata.namespace);
  const binding: ResourceBinding = {
    apiVersion: 'work.karmada.io/v1alpha2',
    kind: namespaced ? 'ResourceBinding' : 'ClusterResourceBinding',
    metadata: {
      name: bindingName(template.metadata.name, template.kind),
      ...(namespaced ? { namespace: template.metadata.namespace } : {}),
      labels: policyLabels(policy),
      annotations: { ...existing?.metadata.annotations, [PRIORITY_RESOLVED_FROM_ANNOTATION]: source },
      // The template is the binding's controller, as Karmada's detector makes it: the binding goes with it.
      ownerReferences: [controllerRef(template)],
      uid: existing?.metadata.uid ?? inputs.newUid(),
      creationTimestamp: existing?.metadata.creationTimestamp ?? inputs.now,
      generation: (existing?.metadata.generation ?? 0) + (changed ? 1 : 0),
      ...(existing?.metadata.resourceVersion ? { resourceVersion: existing.metadata.resourceVersion } : {}),
    },
    spec,
    ...(existing?.status ? { status: existing.status } : {}),
  };
  return { binding, changed, warnings };
}

/** The policy fields Karmada's detector copies to the binding as they are (BuildResourceBinding) and outrank does not act on. */
type CarriedSpec = Pick<ResourceBinding['spec'], 'propagateDeps' | 'failover' | 'conflictResolution' | 'preserveResourcesOnDeletion'>;

function carriedFromPolicy(policy: AnyPropagationPolicy): CarriedSpec {
  const { propagateDeps, failover, conflictResolution, preserveResourcesOnDeletion } = policy.spec;
  return {
    ...(propagateDeps !== undefined ? { propagateDeps } : {}),
    ...(failover ? { failover } : {}),
    ...(conflictResolution ? { conflictResolution } : {}),
    ...(preserveResourcesOnDeletion !== undefined ? { preserveResourcesOnDeletion } : {}),
  };
}

/**
 * The binding's suspension. Dispatching is the policy's, replacing the binding's, as Karmada's
 * MergePolicySuspension (pkg/util/binding.go) has it; outrank carries it without acting on it.
 * Scheduling (scheduling suspension (003)): a policy that says nothing leaves a suspension set on the
 * binding itself (by an external queue controller) alone; a binding already placed cannot be switched
 * to suspended.
 */
function suspensionFor(policy: AnyPropagationPolicy, existing: ResourceBinding | undefined): Pick<ResourceBinding['spec'], 'suspension'> {
  const { scheduling: declared, ...dispatching } = policy.spec.suspension ?? {};
  const current = existing?.spec.suspension?.scheduling === true;
  const wanted = declared ?? current;
  const placed = (existing?.spec.clusters?.length ?? 0) > 0;
  const suspended = wanted && !(placed && !current);
  // An unchanged scheduling suspension keeps the shape it was written in, so the spec does not change needlessly.
  const kept = existing?.spec.suspension?.scheduling;
  const scheduling = kept !== undefined && current === suspended ? kept : suspended ? true : undefined;
  const suspension = { ...dispatching, ...(scheduling !== undefined ? { scheduling } : {}) };
  return Object.keys(suspension).length > 0 ? { suspension } : {};
}

/**
 * The policy's scheduler, as Karmada's detector carries it (BuildResourceBinding); a policy that names
 * none is the default scheduler's (its CRD's default). A binding stored before bindings carried the name
 * is the default scheduler's as it is (schedulerNameOf): it is written in only when that changes, so
 * that its spec, and its generation, do not change for nothing.
 */
function schedulerNameFor(policy: AnyPropagationPolicy, existing: ResourceBinding | undefined): Pick<ResourceBinding['spec'], 'schedulerName'> {
  const schedulerName = policy.spec.schedulerName ?? DEFAULT_SCHEDULER_NAME;
  const unnamedBefore = existing !== undefined && existing.spec.schedulerName === undefined;
  return unnamedBefore && schedulerNameOf({ spec: { ...existing.spec, schedulerName } }) === DEFAULT_SCHEDULER_NAME ? {} : { schedulerName };
}

/** The spec but what the scheduler writes: where the binding is placed, and the clusters it is being evicted from. */
function withoutPlacement(spec: ResourceBinding['spec']): Omit<ResourceBinding['spec'], 'clusters' | 'gracefulEvictionTasks'> {
  const { clusters: _clusters, gracefulEvictionTasks: _evicting, ...rest } = spec;
  return rest;
}
