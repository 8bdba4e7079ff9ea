import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { MiddlewareStack } from '@smithy/types';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SchedulerConfig } from '../../lib/config';
import { Informers } from '../../lib/cache/informers';
import type { ControllerContext, Queues } from '../../lib/controllers/context';
import type { BindingRequest, ObjectChange, QueuedBinding } from '../../lib/controllers/messages';
import type { Clock } from '../../lib/ports/clock';
import type { ObservedQueue } from '../../lib/ports/message-queue';
import type { Metrics } from '../../lib/ports/metrics';
import { randomUids } from '../../lib/ports/uids';
import { queuedBindingSchema } from '../messages';
import { DynamoDbEventLog } from './dynamodb-event-log';
import { DynamoDbObjectStore } from './dynamodb-object-store';
import { DEFAULT_SCHEDULE_CYCLES, ScheduleTickingQueue } from './schedule-ticking-queue';
import { SqsFailureQueue } from './sqs-failure-queue';
import { SqsMessageQueue } from './sqs-message-queue';

/** Where the deployed resources are: table names and queue URLs. */
export interface AwsResources {
  readonly objectsTable: string;
  readonly eventsTable: string;
  readonly policyChangeQueueUrl: string;
  readonly bindingEnqueueQueueUrl: string;
  readonly scheduleTickQueueUrl: string;
  /** Schedule queue URL by band name. */
  readonly bandQueueUrls: Readonly<Record<string, string>>;
  /** Where the objects table's stream reports the batches policy-change gave up on. */
  readonly objectStreamFailuresQueueUrl: string;
}

export interface AwsClients {
  readonly dynamodb: DynamoDBClient;
  readonly documents: DynamoDBDocumentClient;
  readonly sqs: SQSClient;
}

/** An SDK client, as far as a hook needs it: its middleware stack. */
export interface InstrumentableClient {
  // Any client's stack, whatever its input and output types.
  readonly middlewareStack: MiddlewareStack<any, any>;
}

export type AwsService = 'DynamoDB' | 'DynamoDB Streams' | 'SQS';

/** Sees each SDK client made for outrank's functions and local event source mappings, e.g. to add SDK middleware. */
export type AwsClientsHook = (client: InstrumentableClient, service: AwsService) => void;

const clientsHooks = new Set<AwsClientsHook>();

/**
 * Test seam: the functions build their clients themselves (functions/context.ts), so a test that must
 * fail or count their AWS calls registers SDK middleware here before they do. The document client
 * shares the DynamoDB client's middleware stack. Returns what removes the hook.
 */
export function onAwsClients(hook: AwsClientsHook): () => void {
  clientsHooks.add(hook);
  return () => clientsHooks.delete(hook);
}

/** SDK clients; AWS_ENDPOINT_URL (LocalStack, moto) and the region come from the environment. */
export function awsClients(): AwsClients {
  const dynamodb = new DynamoDBClient({});
  const clients = { dynamodb, documents: DynamoDBDocumentClient.from(dynamodb), sqs: new SQSClient({}) };
  announceClient(dynamodb, 'DynamoDB');
  announceClient(clients.sqs, 'SQS');
  return clients;
}

/** Shows a client made elsewhere (the local event source mappings') to the hooks; returns it. */
export function announceClient<C extends InstrumentableClient>(client: C, service: AwsService): C {
  for (const hook of clientsHooks) hook(client, service);
  return client;
}

export function awsControllerContext(
  clients: AwsClients,
  resources: AwsResources,
  config: SchedulerConfig,
  clock: Clock,
  metrics: Metrics,
  scheduleCycles = DEFAULT_SCHEDULE_CYCLES,
): ControllerContext {
  const tick = new SqsMessageQueue<{ tick: true }>(clients.sqs, 'schedule-tick', resources.scheduleTickQueueUrl, { wakeUp: true });
  const bands = new Map(
    config.bands.map((band) => {
      const url = resources.bandQueueUrls[band.name];
      if (!url) throw new Error(`no queue URL for priority band ${band.name}`);
      const queue = new SqsMessageQueue<QueuedBinding>(clients.sqs, `schedule-${band.name}`, url, { parse: (body) => queuedBindingSchema.parse(body) });
      return [band.name, new ScheduleTickingQueue(queue, tick, config.scheduleBatchSize, scheduleCycles)] as const;
    }),
  );
  const store = new DynamoDbObjectStore(clients.documents, resources.objectsTable);
  return {
    store,
    informers: new Informers(store, clock),
    events: new DynamoDbEventLog(clients.documents, resources.eventsTable, clock),
    queues: {
      policyChange: new SqsMessageQueue<ObjectChange>(clients.sqs, 'policy-change', resources.policyChangeQueueUrl),
      bindingEnqueue: new SqsMessageQueue<BindingRequest>(clients.sqs, 'binding-enqueue', resources.bindingEnqueueQueueUrl),
      bands,
    },
    clock,
    uids: randomUids,
    metrics,
    config,
  };
}

/**
 * Every queue of the system, as the queue status reports them: the controllers' (their dead-letter
 * queues with them), the schedule tick queue, and the objects stream's failures.
 */
export function awsObservedQueues(clients: AwsClients, resources: AwsResources, queues: Queues): ObservedQueue[] {
  return [
    queues.policyChange,
    queues.bindingEnqueue,
    new SqsMessageQueue<{ tick: true }>(clients.sqs, 'schedule-tick', resources.scheduleTickQueueUrl),
    ...queues.bands.values(),
    new SqsFailureQueue(clients.sqs, 'policy-change-stream-failures', resources.objectStreamFailuresQueueUrl),
  ];
}
