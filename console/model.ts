import { amountsText, requestsOf } from './requests';

/**
 * What the console shows, derived from what the API lists: pure functions of the objects, so that
 * each page is a rendering of these and each rule here is tested without a browser.
 */

export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
  readonly message?: string;
  readonly lastTransitionTime?: string;
}

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly creationTimestamp?: string;
  readonly resourceVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}

export interface Binding {
  readonly kind: string;
  readonly metadata: ObjectMeta;
  readonly spec: {
    readonly resource: { readonly apiVersion: string; readonly kind: string; readonly namespace?: string; readonly name: string };
    readonly replicas?: number;
    readonly replicaRequirements?: { readonly resourceRequest?: Readonly<Record<string, string | number>> };
    readonly schedulePriority?: { readonly priority: number; readonly preemptionPolicy?: string };
    readonly preemptibility?: string;
    readonly suspension?: { readonly scheduling?: boolean };
    readonly clusters?: ReadonlyArray<{ readonly name: string; readonly replicas: number }>;
  };
  readonly status?: { readonly conditions?: readonly Condition[] };
}

export interface Cluster {
  readonly metadata: { readonly name: string };
  readonly spec?: { readonly taints?: ReadonlyArray<{ readonly key: string; readonly value?: string; readonly effect: string }> };
  readonly status?: {
    readonly conditions?: readonly Condition[];
    readonly resourceSummary?: {
      readonly allocatable?: Record<string, string | number>;
      readonly allocated?: Record<string, string | number>;
      readonly allocating?: Record<string, string | number>;
    };
  };
}

/** What outrank has placed on a cluster (amounts in the scheduler's units: millicores for cpu). */
export interface ClusterAllocation {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly placed: Readonly<Record<string, number>> };
}

/** What an event is about; `uid` where the event recorded it (it tells a binding from an earlier one of the same name). */
export interface InvolvedObject {
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly uid?: string;
}

export interface KubeEvent {
  readonly metadata: ObjectMeta;
  readonly involvedObject: InvolvedObject;
  readonly related?: InvolvedObject;
  readonly type: string;
  readonly reason: string;
  readonly message: string;
  readonly firstTimestamp?: string;
  readonly lastTimestamp?: string;
}

export interface Band {
  readonly name: string;
  readonly minPriority: number;
}

export interface QueueDepth {
  readonly name: string;
  readonly visible: number;
  readonly inFlight: number;
  readonly deadLettered: number;
}

export function priorityOf(binding: Binding): number {
  return binding.spec.schedulePriority?.priority ?? 0;
}

export function isPreemptible(binding: Binding): boolean {
  return binding.spec.preemptibility !== 'non-preemptible';
}

export function isPlaced(binding: Binding): boolean {
  return (binding.spec.clusters ?? []).some((cluster) => cluster.replicas > 0);
}

function scheduled(binding: Binding): Condition | undefined {
  return binding.status?.conditions?.find((condition) => condition.type === 'Scheduled');
}

/** The band a priority falls in: the first, highest, whose minimum it reaches (as the scheduler's bands are ordered). */
export function bandOf(priority: number, bands: readonly Band[]): string {
  return bands.find((band) => priority >= band.minPriority)?.name ?? bands[bands.length - 1]?.name ?? 'default';
}

export interface PendingRow {
  readonly namespace: string;
  readonly name: string;
  readonly band: string;
  readonly priority: number;
  readonly preemptible: boolean;
  /** Suspended, Unschedulable (tried and found no room), or Pending (not tried yet). */
  readonly state: 'Suspended' | 'Unschedulable' | 'Pending';
  readonly waitingSeconds: number;
  /** Its creationTimestamp, which the wait is counted from. */
  readonly since: string | undefined;
  readonly reason: string;
  readonly message: string;
}

/** Since the binding was made, as it has waited for a placement all that time. */
function waitingSeconds(binding: Binding, now: number): number {
  const since = Date.parse(binding.metadata.creationTimestamp ?? '');
  return Number.isNaN(since) ? 0 : Math.max(0, Math.floor((now - since) / 1000));
}

/**
 * The bindings waiting for a placement, as the scheduler takes them: band by band, highest priority
 * first, then the longest waiting.
 */
export function pendingRows(bindings: readonly Binding[], bands: readonly Band[], now: number): PendingRow[] {
  const order = new Map(bands.map((band, index) => [band.name, index]));
  return bindings
    .filter((binding) => !isPlaced(binding))
    .map((binding): PendingRow => {
      const condition = scheduled(binding);
      const suspended = binding.spec.suspension?.scheduling === true;
      return {
        namespace: binding.metadata.namespace ?? '',
        name: binding.metadata.name,
        band: bandOf(priorityOf(binding), bands),
        priority: priorityOf(binding),
        preemptible: isPreemptible(binding),
        state: suspended ? 'Suspended' : condition?.status === 'False' ? 'Unschedulable' : 'Pending',
        waitingSeconds: waitingSeconds(binding, now),
        since: binding.metadata.creationTimestamp,
        reason: condition?.reason ?? '',
        message: condition?.message ?? '',
      };
    })
    .sort((a, b) => (order.get(a.band) ?? 0) - (order.get(b.band) ?? 0) || b.priority - a.priority || b.waitingSeconds - a.waitingSeconds || a.name.localeCompare(b.name));
}

export function isReady(cluster: Cluster): boolean {
  return cluster.status?.conditions?.find((condition) => condition.type === 'Ready')?.status !== 'False';
}

export function taintsOf(cluster: Cluster): string[] {
  return (cluster.spec?.taints ?? []).map((taint) => `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`);
}

export interface PlacedRow {
  readonly namespace: string;
  readonly name: string;
  readonly replicas: number;
  /** Per replica: "cpu 1, nvidia.com/gpu 1". */
  readonly request: string;
  readonly priority: number;
  readonly preemptible: boolean;
}

/** The bindings placed on a cluster, highest priority first: the last rows are the first victims. */
export function placedOn(cluster: string, bindings: readonly Binding[]): PlacedRow[] {
  return bindings
    .flatMap((binding) =>
      (binding.spec.clusters ?? [])
        .filter((target) => target.name === cluster && target.replicas > 0)
        .map((target) => ({
          namespace: binding.metadata.namespace ?? '',
          name: binding.metadata.name,
          replicas: target.replicas,
          request: amountsText(requestsOf(binding).perReplica),
          priority: priorityOf(binding),
          preemptible: isPreemptible(binding),
        })),
    )
    .sort((a, b) => b.priority - a.priority || qualified(a).localeCompare(qualified(b)));
}

export interface PreemptionRow {
  /** The event's uid (its name where it has none): one row per event. */
  readonly key: string;
  readonly time: string;
  readonly victim: string;
  readonly victimRef: InvolvedObject;
  readonly victimPriority: string;
  readonly victimPreemptibility: string;
  readonly preemptor: string;
  readonly preemptorRef: InvolvedObject | undefined;
  readonly preemptorPriority: string;
  readonly message: string;
}

/** `namespace/name`, or the name of a cluster-scoped object, as kubectl names objects across namespaces. */
export const qualified = (object: { readonly namespace?: string; readonly name: string }) => (object.namespace ? `${object.namespace}/${object.name}` : object.name);

/** The console's page of a binding. */
export const bindingHref = (object: { readonly namespace?: string; readonly name: string }) =>
  `#/bindings/${object.namespace ? `${encodeURIComponent(object.namespace)}/` : ''}${encodeURIComponent(object.name)}`;

/** When an event last happened, as kubectl get events orders them. */
export function eventTime(event: KubeEvent): string {
  return event.lastTimestamp ?? event.firstTimestamp ?? event.metadata.creationTimestamp ?? '';
}

/** Every Preempted event, newest first, with the priorities the decision was made on. */
export function preemptionRows(events: readonly KubeEvent[]): PreemptionRow[] {
  return events
    .filter((event) => event.reason === 'Preempted')
    .map((event) => {
      const annotations = event.metadata.annotations ?? {};
      return {
        key: event.metadata.uid ?? event.metadata.name,
        time: eventTime(event),
        victim: qualified(event.involvedObject),
        victimRef: event.involvedObject,
        victimPriority: annotations['outrank.io/victim-priority'] ?? '',
        victimPreemptibility: annotations['outrank.io/victim-preemptibility'] ?? '',
        preemptor: event.related ? qualified(event.related) : '',
        preemptorRef: event.related,
        preemptorPriority: annotations['outrank.io/preemptor-priority'] ?? '',
        message: event.message,
      };
    })
    .sort((a, b) => b.time.localeCompare(a.time));
}

/** "45s", "3m", "2h", "5d": how kubectl shows an age. */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3_600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
