import { formatQuantity, parseQuantity, resourceUnit } from '../lib/quantity';

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

export interface Binding {
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly creationTimestamp?: string };
  readonly spec: {
    readonly resource: { readonly kind: string; readonly name: string };
    readonly replicas?: number;
    readonly schedulePriority?: { readonly priority: number };
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
    readonly resourceSummary?: { readonly allocatable?: Readonly<Record<string, string | number>> };
  };
}

/** What outrank has placed on a cluster (amounts in the scheduler's units: millicores for cpu). */
export interface ClusterAllocation {
  readonly metadata: { readonly name: string };
  readonly spec: { readonly placed: Readonly<Record<string, number>> };
}

export interface KubeEvent {
  readonly metadata: { readonly name: string; readonly annotations?: Readonly<Record<string, string>>; readonly creationTimestamp?: string };
  readonly involvedObject: { readonly kind: string; readonly namespace?: string; readonly name: string };
  readonly related?: { readonly kind: string; readonly namespace?: string; readonly name: string };
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
        reason: condition?.reason ?? '',
        message: condition?.message ?? '',
      };
    })
    .sort((a, b) => (order.get(a.band) ?? 0) - (order.get(b.band) ?? 0) || b.priority - a.priority || b.waitingSeconds - a.waitingSeconds || a.name.localeCompare(b.name));
}

export interface ResourceUse {
  readonly resource: string;
  /** In the scheduler's units (millicores for cpu). */
  readonly placed: number;
  readonly allocatable: number;
  readonly label: string;
}

const SHOWN_RESOURCES = ['cpu', 'memory', 'pods'];

/** Placed against allocatable, per resource the cluster offers, with "2500m / 8" style labels. */
export function resourceUse(cluster: Cluster, allocation: ClusterAllocation | undefined): ResourceUse[] {
  const allocatable = cluster.status?.resourceSummary?.allocatable ?? {};
  return SHOWN_RESOURCES.filter((resource) => allocatable[resource] !== undefined).map((resource) => {
    const total = parseQuantity(allocatable[resource]!, resourceUnit(resource));
    const placed = allocation?.spec.placed[resource] ?? 0;
    return { resource, placed, allocatable: total, label: `${formatQuantity(placed, resource)} / ${formatQuantity(total, resource)}` };
  });
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
  readonly priority: number;
  readonly preemptible: boolean;
}

/** The bindings placed on a cluster, highest priority first: the last rows are the first victims. */
export function placedOn(cluster: string, bindings: readonly Binding[]): PlacedRow[] {
  return bindings
    .flatMap((binding) =>
      (binding.spec.clusters ?? [])
        .filter((target) => target.name === cluster && target.replicas > 0)
        .map((target) => ({ namespace: binding.metadata.namespace ?? '', name: binding.metadata.name, replicas: target.replicas, priority: priorityOf(binding), preemptible: isPreemptible(binding) })),
    )
    .sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
}

export interface PreemptionRow {
  readonly time: string;
  readonly victim: string;
  readonly victimPriority: string;
  readonly victimPreemptibility: string;
  readonly preemptor: string;
  readonly preemptorPriority: string;
  readonly message: string;
}

const qualified = (object: { namespace?: string; name: string }) => (object.namespace ? `${object.namespace}/${object.name}` : object.name);

/** Every Preempted event, newest first, with the priorities the decision was made on. */
export function preemptionRows(events: readonly KubeEvent[]): PreemptionRow[] {
  return events
    .filter((event) => event.reason === 'Preempted')
    .map((event) => {
      const annotations = event.metadata.annotations ?? {};
      return {
        time: event.lastTimestamp ?? event.firstTimestamp ?? event.metadata.creationTimestamp ?? '',
        victim: qualified(event.involvedObject),
        victimPriority: annotations['outrank.io/victim-priority'] ?? '',
        victimPreemptibility: annotations['outrank.io/victim-preemptibility'] ?? '',
        preemptor: event.related ? qualified(event.related) : '',
        preemptorPriority: annotations['outrank.io/preemptor-priority'] ?? '',
        message: event.message,
      };
    })
    .sort((a, b) => b.time.localeCompare(a.time));
}

/** A binding's events, oldest first: its history. */
export function historyOf(namespace: string, name: string, events: readonly KubeEvent[]): KubeEvent[] {
  return events
    .filter((event) => event.involvedObject.name === name && (event.involvedObject.namespace ?? '') === namespace && event.involvedObject.kind.endsWith('ResourceBinding'))
    .sort((a, b) => (a.lastTimestamp ?? a.firstTimestamp ?? '').localeCompare(b.lastTimestamp ?? b.firstTimestamp ?? ''));
}

/** "45s", "3m", "2h", "5d": how kubectl shows an age. */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7_200) return `${Math.floor(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3_600)}h`;
  return `${Math.floor(seconds / 86_400)}d`;
}
