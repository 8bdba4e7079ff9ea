import type { TenancySettings } from '../lib/auth/tenancy-settings';
import { systemClock } from '../lib/ports/clock';
import type { ControllerContext } from '../lib/controllers/context';
import { WhatIfSlots } from '../lib/http/what-if-slots';
import { awsClients, awsControllerContext } from './adapters/aws-context';
import { PowertoolsMetricsAdapter } from './adapters/powertools-metrics';
import { readEnvironment } from './environment';
import { metrics } from './observability';

let shared: { context: ControllerContext; tenancy: TenancySettings | undefined; whatIfSlots: WhatIfSlots } | undefined;

function environment() {
  if (!shared) {
    const { resources, config, tenancy, scheduleCycles, whatIfConcurrency } = readEnvironment();
    shared = {
      context: awsControllerContext(awsClients(), resources, config, systemClock, new PowertoolsMetricsAdapter(metrics), scheduleCycles),
      tenancy,
      whatIfSlots: new WhatIfSlots(whatIfConcurrency),
    };
  }
  return shared;
}

/** Built once per execution environment, on first use, and reused by later invocations. */
export function controllerContext(): ControllerContext {
  return environment().context;
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
