import type { Server } from 'node:http';
import { DEFAULT_BANDS } from '../../lib/config';
import { awsClients, type AwsResources } from '../adapters/aws-context';
import { resourceDefinitions, resourcesAt, type QueueRedelivery } from '../adapters/definitions';
import { provision } from '../adapters/provision';
import type { OutrankSettingsWithTenancy } from '../environment';
import { startAwsEndpoint, type AwsEndpoint } from './aws-endpoint';
import { startHttpGateway } from './http-gateway';
import { loadLocalFunctions } from './local-functions';

export interface LocalRuntimeOptions {
  /** Loopback port of the HTTP API; 0 picks a free one. */
  readonly port: number;
  /** Prefix of table and queue names, so several runtimes can share one endpoint. */
  readonly prefix: string;
  readonly settings?: OutrankSettingsWithTenancy;
  readonly reconcileIntervalMs: number;
  /**
   * How often schedule-cycle runs without a tick, as the stack's every-minute schedule starts it: what
   * the bands hold is taken up within this long whatever happened to the ticks (a crash holding one).
   */
  readonly scheduleIntervalMs: number;
  /** How often every template goes to policy-change again, as the stack's resync schedule. */
  readonly resyncIntervalMs: number;
  readonly log: (line: string) => void;
}

export interface LocalRuntime {
  readonly apiUrl: string;
  readonly endpoint: AwsEndpoint;
  readonly resources: AwsResources;
  stop(): Promise<void>;
}

/**
 * Creates (if missing) the tables and queues named by the prefix and says where they are; `redelivery`
 * shortens the queues' visibility timeouts and retries (tests).
 */
export async function provisionResources(prefix: string, settings: OutrankSettingsWithTenancy | undefined, redelivery: QueueRedelivery = {}) {
  const clients = awsClients();
  const definitions = resourceDefinitions(prefix, settings?.bands ?? DEFAULT_BANDS, redelivery);
  const { urls } = await provision(clients.dynamodb, clients.sqs, definitions);
  const resources = resourcesAt(definitions, (name) => urls.get(name)!);
  return { clients, definitions, resources };
}

/**
 * The whole system on one machine: tables and queues on the local AWS endpoint, the HTTP API on a
 * loopback port, pollers invoking the queue-driven functions in-process as event source mappings
 * would, and schedule-cycle, the reconcile and the resync on timers as the EventBridge schedules would.
 */
export async function startLocalRuntime(options: LocalRuntimeOptions): Promise<LocalRuntime> {
  const endpoint = await startAwsEndpoint();
  try {
    return await startOn(endpoint, options);
  } catch (error) {
    await endpoint.stop();
    throw error;
  }
}

async function startOn(endpoint: AwsEndpoint, options: LocalRuntimeOptions): Promise<LocalRuntime> {
  process.env.AWS_ENDPOINT_URL = endpoint.url;
  const { clients, resources } = await provisionResources(options.prefix, options.settings);
  const onError = (error: unknown) => options.log(`error: ${(error as Error).message}`);
  const functions = await loadLocalFunctions(clients, resources, options.settings, onError);
  for (const poller of functions.pollers) poller.start();
  const reconcileTimer = setInterval(() => functions.reconcile().catch(onError), options.reconcileIntervalMs);
  const scheduleTimer = setInterval(() => functions.scheduleCycle().catch(onError), options.scheduleIntervalMs);
  const resyncTimer = setInterval(() => functions.resync().catch(onError), options.resyncIntervalMs);
  const server: Server = await startHttpGateway(functions.api, options.port, undefined, undefined, functions.watch);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  return {
    apiUrl: `http://localhost:${port}`,
    endpoint,
    resources,
    stop: async () => {
      clearInterval(reconcileTimer);
      clearInterval(scheduleTimer);
      clearInterval(resyncTimer);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(functions.pollers.map((poller) => poller.stop()));
      await endpoint.stop();
    },
  };
}
