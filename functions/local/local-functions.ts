import { GetQueueAttributesCommand } from '@aws-sdk/client-sqs';
import type { AwsClients, AwsResources } from '../adapters/aws-context';
import { resetControllerContext } from '../context';
import { environmentFor, parseSettings, type OutrankSettingsWithTenancy } from '../environment';
import type { HttpApiHandler } from './http-gateway';
import { localLambdaContext } from './lambda-context';
import { SqsPoller, type SqsHandler } from './sqs-poller';

export interface LocalFunctions {
  readonly api: HttpApiHandler;
  /** policy-change, binding-enqueue and schedule-cycle (on the tick queue), as event source mappings drive them. */
  readonly pollers: readonly SqsPoller[];
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
  /** Wraps each queue-triggered handler, e.g. to deliver every batch twice in tests. */
  wrap: (handler: SqsHandler) => SqsHandler = (handler) => handler,
): Promise<LocalFunctions> {
  // Settings are checked before anything runs, so a typo fails fast.
  parseSettings(settings ? JSON.stringify(settings) : undefined);
  // Functions loaded earlier in this process may have left theirs; without settings none must apply.
  delete process.env.OUTRANK_SETTINGS;
  Object.assign(process.env, environmentFor(resources, settings));
  resetControllerContext();

  const [{ handler: api }, { handler: policyChange }, { handler: bindingEnqueue }, { handler: scheduleCycle }, { handler: reconcile }] =
    await Promise.all([
      import('../api'),
      import('../policy-change'),
      import('../binding-enqueue'),
      import('../schedule-cycle'),
      import('../reconcile'),
    ]);

  const arnOf = async (queueUrl: string) =>
    (await clients.sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn ?? queueUrl;
  const poller = async (functionName: string, handler: SqsHandler, queueUrl: string) =>
    new SqsPoller(clients.sqs, wrap(handler), { functionName, queueUrl, queueArn: await arnOf(queueUrl), batchSize: 10, timeoutMs: 60_000, onError });

  return {
    api,
    pollers: [
      await poller('outrank-policy-change', policyChange as SqsHandler, resources.policyChangeQueueUrl),
      await poller('outrank-binding-enqueue', bindingEnqueue as SqsHandler, resources.bindingEnqueueQueueUrl),
      await poller('outrank-schedule-cycle', scheduleCycle as SqsHandler, resources.scheduleTickQueueUrl),
    ],
    reconcile: () => reconcile({}, localLambdaContext('outrank-reconcile', 60_000)),
    resync: () => reconcile({ resync: true }, localLambdaContext('outrank-reconcile', 60_000)),
    scheduleCycle: () => scheduleCycle({}, localLambdaContext('outrank-schedule-cycle', 60_000)),
  };
}
