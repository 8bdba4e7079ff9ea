import { GetQueueAttributesCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbObjectStore } from '../adapters/dynamodb-object-store';
import type { AwsClients, AwsResources } from '../adapters/aws-context';
import { resetControllerContext } from '../context';
import { environmentFor, parseSettings, type OutrankSettingsWithTenancy } from '../environment';
import { backgroundDynamoDbClient } from './background-requests';
import type { HttpApiHandler, StreamingHandler } from './http-gateway';
import { localLambdaContext } from './lambda-context';
import type { Poller } from './poller';
import { SqsPoller, type SqsHandler } from './sqs-poller';
import { DynamoStreamPoller, localStreamsClient, type StreamHandler, type StreamStart } from './stream-poller';

/** Wrap the handlers the pollers invoke, e.g. to deliver every batch twice in tests. */
export interface HandlerWrappers {
  readonly queue?: (handler: SqsHandler) => SqsHandler;
  readonly stream?: (handler: StreamHandler) => StreamHandler;
}

export interface LocalFunctionOptions {
  readonly wrap?: HandlerWrappers;
  /**
   * Where the objects table's stream is first read from: its oldest record (the default, as the stack's
   * mapping), or its end, for a table filled with a state the controllers had already settled.
   */
  readonly streamStart?: StreamStart;
}

/** A local watch lasts at most as long as one on the stack's function URL (15 minutes); each watched kind's feed is read four times a second. */
const LOCAL_WATCH_LIMIT_MS = 15 * 60_000;
const LOCAL_WATCH_POLL_MS = 250;

/** As the stack's stream event source mapping: batches of up to 100 records, 10 retries. */
const STREAM_BATCH_SIZE = 100;
const STREAM_MAX_ATTEMPTS = 11;

export interface LocalFunctions {
  readonly api: HttpApiHandler;
  /** The watch function, as its function URL streams: every request, watches event by event. */
  readonly watch: StreamingHandler;
  /**
   * policy-change (on the objects table's stream and its queue), binding-enqueue and schedule-cycle (on
   * the tick queue), as event source mappings drive them.
   */
  readonly pollers: readonly Poller[];
  /** schedule-cycle's tick poller (one of `pollers`): one tick to an invocation, as the stack's mapping. */
  readonly ticks: Poller;
  reconcile(): Promise<unknown>;
  /** reconcile as the resync schedule starts it. */
  resync(): Promise<unknown>;
  /** schedule-cycle as the EventBridge schedule starts it, without a tick: several may run at once. */
  scheduleCycle(): Promise<unknown>;
}

/**
 * Loads the Lambda handlers in this process, pointed at the given resources through the same
 * environment variables the stack sets, with a poller per queue-triggered function.
 */
export async function loadLocalFunctions(
  clients: AwsClients,
  resources: AwsResources,
  settings: OutrankSettingsWithTenancy | undefined,
  onError: (error: unknown) => void,
  options: LocalFunctionOptions = {},
): Promise<LocalFunctions> {
  const wrapQueue = options.wrap?.queue ?? ((handler) => handler);
  const wrapStream = options.wrap?.stream ?? ((handler) => handler);
  // Settings are checked before anything runs, so a typo fails fast.
  parseSettings(settings ? JSON.stringify(settings) : undefined);
  // Functions loaded earlier in this process may have left theirs; without settings none must apply.
  delete process.env.OUTRANK_SETTINGS;
  Object.assign(process.env, environmentFor(resources, settings));
  resetControllerContext();

  const [{ handler: api }, { streamApiRequest, watchTiming, watchesPerCaller }, { handler: policyChange }, { handler: bindingEnqueue }, { handler: scheduleCycle }, { handler: reconcile }] =
    await Promise.all([
      import('../api'),
      import('../watch'),
      import('../policy-change'),
      import('../binding-enqueue'),
      import('../schedule-cycle'),
      import('../reconcile'),
    ]);

  const arnOf = async (queueUrl: string) =>
    (await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? queueUrl;
  const poller = async (functionName: string, handler: SqsHandler, queueUrl: string, batchSize = 10) =>
    new SqsPoller(clients.sqs, wrapQueue(handler), { functionName, queueUrl, queueArn: await arnOf(queueUrl), batchSize, timeoutMs: 60_000, onError });
  const ticks = await poller('outrank-schedule-cycle', scheduleCycle as SqsHandler, resources.scheduleTickQueueUrl, 1);

  const objectStream = new DynamoStreamPoller(clients.dynamodb, localStreamsClient(), wrapStream(policyChange as StreamHandler), {
    functionName: 'outrank-policy-change',
    tableName: resources.objectsTable,
    batchSize: STREAM_BATCH_SIZE,
    timeoutMs: 60_000,
    maxAttempts: STREAM_MAX_ATTEMPTS,
    start: options.streamStart ?? 'TRIM_HORIZON',
    onError,
    // As the stack's on-failure destination: the stream-failures queue, where the queue status counts it.
    onGiveUp: async (failure) => {
      await clients.sqs.send(new SendMessageCommand({ QueueUrl: resources.objectStreamFailuresQueueUrl, MessageBody: JSON.stringify(failure) }));
    },
  });

  // Checked at start, as the settings are, rather than at the first watch.
  watchesPerCaller(process.env);
  // The watches' reads go on a client of their own, marked as background: the serializing proxy
  // lets them through only when no request of the scheduling path waits.
  const watchStore = new DynamoDbObjectStore(DynamoDBDocumentClient.from(backgroundDynamoDbClient()), resources.objectsTable);

  return {
    api,
    watch: (event, stream, signal) => streamApiRequest(event, stream, signal, watchTiming(LOCAL_WATCH_LIMIT_MS, LOCAL_WATCH_POLL_MS), watchStore),
    pollers: [
      objectStream,
      await poller('outrank-policy-change', policyChange as SqsHandler, resources.policyChangeQueueUrl),
      await poller('outrank-binding-enqueue', bindingEnqueue as SqsHandler, resources.bindingEnqueueQueueUrl),
      ticks,
    ],
    ticks,
    reconcile: () => reconcile({}, localLambdaContext('outrank-reconcile', 60_000)),
    resync: () => reconcile({ resync: true }, localLambdaContext('outrank-reconcile', 60_000)),
    scheduleCycle: () => scheduleCycle({}, localLambdaContext('outrank-schedule-cycle', 60_000)),
  };
}
