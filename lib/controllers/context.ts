import { SyncBatch } from '../cache/informer';
import type { Informers } from '../cache/informers';
import type { SchedulerConfig } from '../config';
import type { Clock } from '../ports/clock';
import type { EventLog } from '../ports/event-log';
import type { MessageQueue } from '../ports/message-queue';
import type { Metrics } from '../ports/metrics';
import type { ObjectStore } from '../ports/object-store';
import type { Uids } from '../ports/uids';
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
  /** Warm copies of the store's kinds, kept for the life of the process (informers.ts). */
  readonly informers: Informers;
  /** The batch of messages being handled, if the caller handles batches: informers then read their feeds once per batch. */
  readonly batch?: SyncBatch;
  readonly queues: Queues;
  readonly clock: Clock;
  /** The metadata.uid of each object created (random UUIDs, as kube-apiserver gives them). */
  readonly uids: Uids;
  readonly events: EventLog;
  readonly metrics: Metrics;
  readonly config: SchedulerConfig;
}

/** The context for handling one batch of messages. */
export function forBatch(context: ControllerContext): ControllerContext {
  return { ...context, batch: new SyncBatch() };
}
