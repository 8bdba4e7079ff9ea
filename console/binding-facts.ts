import { eventTime, qualified, type Binding, type Condition, type InvolvedObject, type KubeEvent } from './model';

/**
 * What a binding's page says about it, from the binding and the events about it: why it waits (its
 * Scheduled condition), what it asks for, where its priority comes from, who preempted it and whom it
 * preempted, and its history.
 */

export function scheduledCondition(binding: Binding): Condition | undefined {
  return binding.status?.conditions?.find((condition) => condition.type === 'Scheduled');
}

/** The labels Karmada's detector puts on a binding to name the policy that claimed its template. */
const POLICY_NAMESPACE_LABEL = 'propagationpolicy.karmada.io/namespace';
const POLICY_NAME_LABEL = 'propagationpolicy.karmada.io/name';
const CLUSTER_POLICY_NAME_LABEL = 'clusterpropagationpolicy.karmada.io/name';

export interface PolicyRef {
  readonly kind: 'PropagationPolicy' | 'ClusterPropagationPolicy';
  readonly namespace?: string;
  readonly name: string;
  /** Where the API serves it. */
  readonly path: string;
}

/** The policy that made the binding, by its labels; undefined when it has none. */
export function policyOf(binding: Binding): PolicyRef | undefined {
  const labels = binding.metadata.labels ?? {};
  const name = labels[POLICY_NAME_LABEL];
  const namespace = labels[POLICY_NAMESPACE_LABEL];
  if (name !== undefined && namespace !== undefined) {
    return { kind: 'PropagationPolicy', namespace, name, path: `/apis/policy.karmada.io/v1alpha1/namespaces/${encodeURIComponent(namespace)}/propagationpolicies/${encodeURIComponent(name)}` };
  }
  const clusterName = labels[CLUSTER_POLICY_NAME_LABEL];
  if (clusterName !== undefined) return { kind: 'ClusterPropagationPolicy', name: clusterName, path: `/apis/policy.karmada.io/v1alpha1/clusterpropagationpolicies/${encodeURIComponent(clusterName)}` };
  return undefined;
}

/** The parts of the objects a priority is resolved from, as the API serves them. */
export interface PolicyObject {
  readonly spec?: { readonly schedulePriority?: { readonly priorityClassSource?: string; readonly priorityClassName?: string } };
}
export interface TemplateObject {
  readonly spec?: { readonly template?: { readonly spec?: { readonly priorityClassName?: string } } };
}
export interface PriorityClassObject {
  readonly value: number;
  readonly preemptionPolicy?: string;
}

/**
 * Where the API serves the binding's template. The plural is guessed from the kind as client-go's
 * UnsafeGuessKindToResource guesses it: right for the workload kinds whose pod template can name a
 * PriorityClass (Deployment, StatefulSet, ReplicaSet, Job), the only templates the page reads.
 */
export function templatePath(binding: Binding): string {
  const { apiVersion, kind, namespace, name } = binding.spec.resource;
  const lower = kind.toLowerCase();
  const plural = lower.endsWith('s') ? `${lower}es` : lower.endsWith('y') ? `${lower.slice(0, -1)}ies` : `${lower}s`;
  const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  return `${base}${namespace ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${plural}/${encodeURIComponent(name)}`;
}

/** Which PriorityClass the binding's priority is resolved from, as outrank resolves it (lib/policy/resolve-priority.ts). */
export interface NamedClass {
  readonly source: 'KubePriorityClass' | 'PodPriorityClass';
  /** Undefined when the policy (KubePriorityClass) or the pod template (PodPriorityClass) names none. */
  readonly name: string | undefined;
}

/** The class the policy names, or the pod template names (priorityClassSource PodPriorityClass); the template is read only then. */
export function namedClass(policy: PolicyObject, template: TemplateObject | null | undefined): NamedClass {
  const priority = policy.spec?.schedulePriority;
  if (priority?.priorityClassSource === 'PodPriorityClass') return { source: 'PodPriorityClass', name: template?.spec?.template?.spec?.priorityClassName };
  return { source: 'KubePriorityClass', name: priority?.priorityClassName };
}

const FALLBACK = 'the global default PriorityClass’s value, or 0 without one';

/**
 * Where the binding's priority comes from, in words. Each object is undefined while it is read and
 * null when the API has none. The binding keeps the priority resolved when its template or policy last
 * changed (binding priority and preemption (000)), so a class changed since is said to differ.
 */
export function prioritySource(binding: Binding, policy: PolicyObject | null | undefined, template: TemplateObject | null | undefined, priorityClass: PriorityClassObject | null | undefined): string {
  const ref = policyOf(binding);
  if (ref === undefined) return 'no policy named on the binding: its schedulePriority as written';
  const policyName = `${ref.kind} ${qualified(ref)}`;
  if (policy === undefined) return `${policyName}…`;
  if (policy === null) return `${policyName}, which no longer exists: the priority it resolved when the binding was made`;
  const named = namedClass(policy, template);
  const by = named.source === 'PodPriorityClass' ? `the pod template’s priorityClassName (${policyName}: priorityClassSource PodPriorityClass)` : `${policyName}`;
  if (named.source === 'PodPriorityClass' && template === undefined) return `${policyName}: the pod template’s PriorityClass…`;
  if (named.name === undefined) return `no PriorityClass named by ${by}: ${FALLBACK}`;
  if (priorityClass === undefined) return `PriorityClass ${named.name}, named by ${by}…`;
  if (priorityClass === null) return `PriorityClass ${named.name}, named by ${by}, does not exist: ${FALLBACK}`;
  const priority = binding.spec.schedulePriority?.priority ?? 0;
  const changed = priorityClass.value === priority ? '' : `; its value is now ${priorityClass.value}, but the binding keeps the priority resolved when its template or policy last changed`;
  return `PriorityClass ${named.name} (value ${priorityClass.value}), named by ${by}${changed}`;
}

/** Whether an event (or its `related` object) is about this binding, not an earlier one of the same name. */
function isAboutThis(binding: Binding, object: InvolvedObject, time: string): boolean {
  if (object.kind !== binding.kind || object.name !== binding.metadata.name || (object.namespace ?? '') !== (binding.metadata.namespace ?? '')) return false;
  // By uid where the event recorded one; else by time: an event before the binding was made is about
  // an earlier binding of the same name.
  if (object.uid !== undefined && binding.metadata.uid !== undefined) return object.uid === binding.metadata.uid;
  const created = Date.parse(binding.metadata.creationTimestamp ?? '');
  return Number.isNaN(created) || !(Date.parse(time) < created);
}

/** The binding's own events, oldest first: its history, without those of earlier bindings of the same name. */
export function historyOf(binding: Binding, events: readonly KubeEvent[]): KubeEvent[] {
  return events.filter((event) => isAboutThis(binding, event.involvedObject, eventTime(event))).sort((a, b) => eventTime(a).localeCompare(eventTime(b)));
}

export interface Preemption {
  /** The other binding: the preemptor of a victim, or a victim of a preemptor. */
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly time: string;
  readonly message: string;
  readonly victimPriority?: string;
}

/**
 * The annotation the scheduler marks a victim with: its preemptor's key
 * (`<Kind>.<group>/<namespace>/<name>`) and when the preemptor was placed. It outlasts the Preempted
 * event (events expire after an hour).
 */
export const PREEMPTED_BY_ANNOTATION = 'outrank.io/preempted-by';
const PREEMPTED_BY = /^([^./]+)\.[^/]+\/([^/]*)\/([^/@]+)@(.+)$/;

/**
 * Who preempted the binding, newest first: its Preempted events' `related` objects, and the preemptor
 * its outrank.io/preempted-by annotation names (the last one, kept after its event expired).
 */
export function preemptorsOf(binding: Binding, events: readonly KubeEvent[]): Preemption[] {
  const found: Preemption[] = historyOf(binding, events)
    .filter((event) => event.reason === 'Preempted' && event.related)
    .map((event) => ({ kind: event.related!.kind, ...(event.related!.namespace ? { namespace: event.related!.namespace } : {}), name: event.related!.name, time: eventTime(event), message: event.message }));
  const marker = PREEMPTED_BY.exec(binding.metadata.annotations?.[PREEMPTED_BY_ANNOTATION] ?? '');
  if (marker) {
    const [, kind, namespace, name, time] = marker as unknown as [string, string, string, string, string];
    if (!found.some((preemption) => preemption.kind === kind && (preemption.namespace ?? '') === namespace && preemption.name === name)) {
      found.push({ kind, ...(namespace ? { namespace } : {}), name, time, message: `preempted when ${namespace ? `${namespace}/` : ''}${name} was placed` });
    }
  }
  return found.sort((a, b) => b.time.localeCompare(a.time));
}

/** Whom the binding preempted, newest first: the Preempted events naming it as `related`. */
export function victimsOf(binding: Binding, events: readonly KubeEvent[]): Preemption[] {
  return events
    .filter((event) => event.reason === 'Preempted' && event.related && isAboutThis(binding, event.related, eventTime(event)))
    .map((event) => ({
      kind: event.involvedObject.kind,
      ...(event.involvedObject.namespace ? { namespace: event.involvedObject.namespace } : {}),
      name: event.involvedObject.name,
      time: eventTime(event),
      message: event.message,
      ...(event.metadata.annotations?.['outrank.io/victim-priority'] !== undefined ? { victimPriority: event.metadata.annotations['outrank.io/victim-priority'] } : {}),
    }))
    .sort((a, b) => b.time.localeCompare(a.time));
}
