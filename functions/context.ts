import type { TenancySettings } from '../lib/auth/tenancy-settings';
import { systemClock } from '../lib/ports/clock';
import type { ControllerContext } from '../lib/controllers/context';
import type { ObservedQueue } from '../lib/ports/message-queue';
import { awsClients, awsControllerContext, awsObservedQueues } from './adapters/aws-context';
import { PowertoolsMetricsAdapter } from './adapters/powertools-metrics';
import { readEnvironment } from './environment';
import { metrics } from './observability';

let shared: { context: ControllerContext; tenancy: TenancySettings | undefined; queues: readonly ObservedQueue[] } | undefined;

function environment() {
  if (!shared) {
    const { resources, config, tenancy, scheduleCycles } = readEnvironment();
    const clients = awsClients();
    const context = awsControllerContext(clients, resources, config, systemClock, new PowertoolsMetricsAdapter(metrics), scheduleCycles);
    shared = { context, tenancy, queues: awsObservedQueues(clients, resources, context.queues) };
  }
  return shared;
}

/** Built once per execution environment, on first use, and reused by later invocations. */
export function controllerContext(): ControllerContext {
  return environment().context;
}

/** Every queue of the system, for the queue status. */
export function observedQueues(): readonly ObservedQueue[] {
  return environment().queues;
}

/** The tenancy model the api function enforces; undefined when none is configured (every caller is an admin). */
export function tenancySettings(): TenancySettings | undefined {
  return environment().tenancy;
}

/** For tests and the local runtime, which point the functions at other resources. */
export function resetControllerContext(): void {
  shared = undefined;
}
