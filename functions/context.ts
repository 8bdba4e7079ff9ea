import type { TenancySettings } from '../lib/auth/tenancy-settings';
import { systemClock } from '../lib/ports/clock';
import type { ControllerContext } from '../lib/controllers/context';
import type { ObservedQueue } from '../lib/ports/message-queue';
import { WhatIfSlots } from '../lib/http/what-if-slots';
import { awsClients, awsControllerContext, awsObservedQueues } from './adapters/aws-context';
import { PowertoolsMetricsAdapter } from './adapters/powertools-metrics';
import { readEnvironment } from './environment';
import { metrics } from './observability';

let shared: { context: ControllerContext; tenancy: TenancySettings | undefined; whatIfSlots: WhatIfSlots; queues: readonly ObservedQueue[] } | undefined;

function environment() {
  if (!shared) {
    const { resources, config, tenancy, scheduleCycles, whatIfConcurrency } = readEnvironment();
    const clients = awsClients();
    const context = awsControllerContext(clients, resources, config, systemClock, new PowertoolsMetricsAdapter(metrics), scheduleCycles);
    shared = { context, tenancy, whatIfSlots: new WhatIfSlots(whatIfConcurrency), queues: awsObservedQueues(clients, resources, context.queues) };
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

/** The what-ifs this process runs, shared by every request it serves (the local runtime serves many at once). */
export function whatIfSlots(): WhatIfSlots {
  return environment().whatIfSlots;
}

/** For tests and the local runtime, which point the functions at other resources. */
export function resetControllerContext(): void {
  shared = undefined;
}
