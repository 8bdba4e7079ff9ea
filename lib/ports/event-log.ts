import type { InvolvedObject, KubeEvent } from '../api/event';

export interface EventRecord {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly object: InvolvedObject;
  readonly message: string;
  /** A second object the event is about, such as the preemptor of a Preempted binding. */
  readonly related?: InvolvedObject;
  /** Machine-readable details (outrank.io/... keys), e.g. the priorities at the time of a preemption. */
  readonly annotations?: Readonly<Record<string, string>>;
}

/** Where Kubernetes-style events about objects are written and read back (kubectl describe). */
export interface EventLog {
  record(event: EventRecord): Promise<void>;
  list(object?: InvolvedObject): Promise<KubeEvent[]>;
}

/** The stored form of an event, the same for every adapter, as kubectl describe reads it. */
export function kubeEvent(event: EventRecord, name: string, time: string): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name,
      namespace: event.object.namespace || 'default',
      ...(event.annotations ? { annotations: { ...event.annotations } } : {}),
    },
    involvedObject: event.object,
    ...(event.related ? { related: event.related } : {}),
    type: event.type,
    reason: event.reason,
    message: event.message,
    count: 1,
    firstTimestamp: time,
    lastTimestamp: time,
    source: { component: 'outrank' },
  };
}
