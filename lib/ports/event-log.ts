import type { InvolvedObject, KubeEvent } from '../api/event';

export interface EventRecord {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly object: InvolvedObject;
  readonly message: string;
}

/** Where Kubernetes-style events about objects are written and read back (kubectl describe). */
export interface EventLog {
  record(event: EventRecord): Promise<void>;
  list(object?: InvolvedObject): Promise<KubeEvent[]>;
}
