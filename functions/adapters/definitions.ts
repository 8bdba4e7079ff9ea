import type { PriorityBand } from '../../lib/config';
import type { AwsResources } from './aws-context';

/**
 * The tables and queues outrank needs, described once: the CDK stack deploys them and the local
 * runtime and tests create them from the same description.
 */
export interface TableDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
  /** Attribute DynamoDB expires items by, if any. */
  readonly timeToLiveAttribute?: string;
  /** Local secondary indexes: the same partition key, another sort key, keys only. */
  readonly localIndexes?: readonly LocalIndexDefinition[];
  /** A stream of the table's changes carrying each changed item's keys (policy-change reads it). */
  readonly keysStream?: boolean;
  /** Global secondary indexes: another partition key and sort key, whole items. */
  readonly globalIndexes?: readonly GlobalIndexDefinition[];
}

export interface GlobalIndexDefinition {
  readonly name: string;
  readonly partitionKey: string;
  readonly sortKey: string;
}

/**
 * The events table's index of the events of an indexed reason (INDEXED_REASONS), time-ordered; sparse:
 * only those events carry its partition key (dynamodb-event-log.ts).
 */
export const EVENTS_BY_REASON_INDEX: GlobalIndexDefinition = { name: 'byReason', partitionKey: 'indexedReason', sortKey: 'sk' };

/**
 * The events table's index of every event by the time it was written, the feed a watch of events
 * reads: partitioned by the minute written and one of EVENT_FEED_SHARDS shards (so that a burst of
 * events spreads over several partitions), ordered by the event's version (dynamodb-event-log.ts).
 */
export const EVENTS_BY_WRITE_TIME_INDEX: GlobalIndexDefinition = { name: 'byWriteTime', partitionKey: 'writeMinute', sortKey: 'written' };

export interface LocalIndexDefinition {
  readonly name: string;
  readonly sortKey: string;
}

/** The objects table's index of every item by version: the change feed of each kind (dynamodb-object-store.ts). */
export const CHANGE_FEED_INDEX: LocalIndexDefinition = { name: 'byVersion', sortKey: 'version' };

export interface QueueDefinition {
  /** Ends in .fifo, as SQS requires for FIFO queues. */
  readonly name: string;
  readonly deadLetterName: string;
  readonly visibilityTimeoutSeconds: number;
  readonly maxReceiveCount: number;
}

export interface ResourceDefinitions {
  readonly objectsTable: TableDefinition;
  readonly eventsTable: TableDefinition;
  readonly policyChangeQueue: QueueDefinition;
  readonly bindingEnqueueQueue: QueueDefinition;
  readonly scheduleTickQueue: QueueDefinition;
  /** One schedule queue per priority band, by band name. */
  readonly bandQueues: ReadonlyMap<string, QueueDefinition>;
  /**
   * The standard queue where batches of the objects table's stream that policy-change gave up on are
   * reported (by the stack's event source mapping, or the local stream poller): its dead-letter queue.
   */
  readonly objectStreamFailuresQueueName: string;
}

/**
 * Redelivery settings for every queue at once. Tests set seconds rather than minutes so that a message
 * whose handler crashed comes back quickly, and a small maxReceiveCount so poison reaches its DLQ soon.
 */
export interface QueueRedelivery {
  readonly visibilityTimeoutSeconds?: number;
  readonly maxReceiveCount?: number;
}

function fifoQueue(prefix: string, name: string, visibilityTimeoutSeconds: number, redelivery: QueueRedelivery): QueueDefinition {
  return {
    name: `${prefix}-${name}.fifo`,
    deadLetterName: `${prefix}-${name}-dlq.fifo`,
    visibilityTimeoutSeconds: redelivery.visibilityTimeoutSeconds ?? visibilityTimeoutSeconds,
    maxReceiveCount: redelivery.maxReceiveCount ?? 10,
  };
}

export function resourceDefinitions(prefix: string, bands: readonly PriorityBand[], redelivery: QueueRedelivery = {}): ResourceDefinitions {
  return {
    objectsTable: {
      name: `${prefix}-objects`,
      partitionKey: 'pk',
      sortKey: 'sk',
      // Deletion markers of the change feed expire; objects carry no such attribute.
      timeToLiveAttribute: 'expiresAt',
      localIndexes: [CHANGE_FEED_INDEX],
      // Every committed write of a policy, template or cluster reaches policy-change through it (object-stream.ts).
      keysStream: true,
    },
    eventsTable: { name: `${prefix}-events`, partitionKey: 'pk', sortKey: 'sk', timeToLiveAttribute: 'expiresAt', globalIndexes: [EVENTS_BY_REASON_INDEX, EVENTS_BY_WRITE_TIME_INDEX] },
    policyChangeQueue: fifoQueue(prefix, 'policy-change', 60, redelivery),
    bindingEnqueueQueue: fifoQueue(prefix, 'binding-enqueue', 60, redelivery),
    // As long as schedule-cycle may run (a minute): a tick or band message held by a cycle that died
    // comes back within a minute, and the every-minute schedule drains the bands meanwhile.
    scheduleTickQueue: fifoQueue(prefix, 'schedule-tick', 60, redelivery),
    bandQueues: new Map(bands.map((band) => [band.name, fifoQueue(prefix, `schedule-${band.name}`, 60, redelivery)])),
    objectStreamFailuresQueueName: `${prefix}-policy-change-stream-failures`,
  };
}

export function allQueues(definitions: ResourceDefinitions): QueueDefinition[] {
  return [
    definitions.policyChangeQueue,
    definitions.bindingEnqueueQueue,
    definitions.scheduleTickQueue,
    ...definitions.bandQueues.values(),
  ];
}

/** Where each resource is, given each queue's URL by name (as provisioning or a stack's outputs give them). */
export function resourcesAt(definitions: ResourceDefinitions, urlOf: (queueName: string) => string): AwsResources {
  return {
    objectsTable: definitions.objectsTable.name,
    eventsTable: definitions.eventsTable.name,
    policyChangeQueueUrl: urlOf(definitions.policyChangeQueue.name),
    bindingEnqueueQueueUrl: urlOf(definitions.bindingEnqueueQueue.name),
    scheduleTickQueueUrl: urlOf(definitions.scheduleTickQueue.name),
    bandQueueUrls: Object.fromEntries([...definitions.bandQueues].map(([band, queue]) => [band, urlOf(queue.name)])),
    objectStreamFailuresQueueUrl: urlOf(definitions.objectStreamFailuresQueueName),
  };
}
