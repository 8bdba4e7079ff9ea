import type { AwsResources } from '../functions/adapters/aws-context';
import type { PriorityBand } from '../lib/config';

/**
 * Stack output names, shared by the stack that writes them and whatever reads a deployed stack back
 * (deploy:local, its test), so the two cannot disagree.
 */
export const OUTPUTS = {
  apiUrl: 'ApiUrl',
  /** What a caller's IAM policy allows `execute-api:Invoke` on. */
  apiInvokeArn: 'ApiInvokeArn',
  /** The API with watch: the watch function's URL (IAM authorization, service lambda). */
  watchUrl: 'WatchUrl',
  objectsTable: 'ObjectsTableName',
  eventsTable: 'EventsTableName',
} as const;

function pascalCase(name: string): string {
  return name
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Construct ids of the queues, which also name their outputs. */
export const QUEUE_IDS = {
  policyChange: 'PolicyChange',
  bindingEnqueue: 'BindingEnqueue',
  scheduleTick: 'ScheduleTick',
  band: (band: string) => `Schedule${pascalCase(band)}`,
  /** The objects stream's on-failure destination: a queue of failures, with no dead-letter queue of its own. */
  objectStreamFailures: 'ObjectStreamFailures',
} as const;

export const queueUrlOutput = (queueId: string) => `${queueId}QueueUrl`;
export const deadLetterQueueUrlOutput = (queueId: string) => `${queueId}DeadLetterQueueUrl`;
export const isQueueUrlOutput = (key: string) => key.endsWith('QueueUrl');

/** Where a deployed stack's tables and queues are, from its outputs; fails on any that is missing. */
export function resourcesFromOutputs(outputs: Readonly<Record<string, string>>, bands: readonly PriorityBand[]): AwsResources {
  const output = (key: string) => {
    const value = outputs[key];
    if (!value) throw new Error(`the stack has no output ${key}`);
    return value;
  };
  return {
    objectsTable: output(OUTPUTS.objectsTable),
    eventsTable: output(OUTPUTS.eventsTable),
    policyChangeQueueUrl: output(queueUrlOutput(QUEUE_IDS.policyChange)),
    bindingEnqueueQueueUrl: output(queueUrlOutput(QUEUE_IDS.bindingEnqueue)),
    scheduleTickQueueUrl: output(queueUrlOutput(QUEUE_IDS.scheduleTick)),
    bandQueueUrls: Object.fromEntries(bands.map((band) => [band.name, output(queueUrlOutput(QUEUE_IDS.band(band.name)))])),
    objectStreamFailuresQueueUrl: output(queueUrlOutput(QUEUE_IDS.objectStreamFailures)),
  };
}
