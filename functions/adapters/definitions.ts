import type { PriorityBand } from '../../lib/config';

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
}

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
}

function fifoQueue(prefix: string, name: string, visibilityTimeoutSeconds: number): QueueDefinition {
  return {
    name: `${prefix}-${name}.fifo`,
    deadLetterName: `${prefix}-${name}-dlq.fifo`,
    visibilityTimeoutSeconds,
    maxReceiveCount: 10,
  };
}

export function resourceDefinitions(prefix: string, bands: readonly PriorityBand[]): ResourceDefinitions {
  return {
    objectsTable: { name: `${prefix}-objects`, partitionKey: 'pk', sortKey: 'sk' },
    eventsTable: { name: `${prefix}-events`, partitionKey: 'pk', sortKey: 'sk', timeToLiveAttribute: 'expiresAt' },
    policyChangeQueue: fifoQueue(prefix, 'policy-change', 60),
    bindingEnqueueQueue: fifoQueue(prefix, 'binding-enqueue', 60),
    scheduleTickQueue: fifoQueue(prefix, 'schedule-tick', 900),
    bandQueues: new Map(bands.map((band) => [band.name, fifoQueue(prefix, `schedule-${band.name}`, 120)])),
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
