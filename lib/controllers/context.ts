import type { SchedulerConfig } from '../config';
import type { Clock } from '../ports/clock';
import type { EventLog } from '../ports/event-log';
import type { MessageQueue } from '../ports/message-queue';
import type { Metrics } from '../ports/metrics';
import type { ObjectStore } from '../ports/object-store';
import type { BindingRequest, ObjectChange, QueuedBinding } from './messages';

export interface Queues {
  readonly policyChange: MessageQueue<ObjectChange>;
  readonly bindingEnqueue: MessageQueue<BindingRequest>;
  /** One queue per priority band, by band name (SchedulerConfig.bands). */
  readonly bands: ReadonlyMap<string, MessageQueue<QueuedBinding>>;
}

/** Everything a controller needs: the ports and the configuration. Handlers build one per process. */
export interface ControllerContext {
  readonly store: ObjectStore;
  readonly queues: Queues;
  readonly clock: Clock;
  readonly events: EventLog;
  readonly metrics: Metrics;
  readonly config: SchedulerConfig;
}
