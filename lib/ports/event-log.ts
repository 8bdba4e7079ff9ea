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
