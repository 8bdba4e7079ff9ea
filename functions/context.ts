import { systemClock } from '../lib/ports/clock';
import type { ControllerContext } from '../lib/controllers/context';
import { awsClients, awsControllerContext } from './adapters/aws-context';
import { PowertoolsMetricsAdapter } from './adapters/powertools-metrics';
import { readEnvironment } from './environment';
import { metrics } from './observability';

let shared: ControllerContext | undefined;

/** Built once per execution environment, on first use, and reused by later invocations. */
export function controllerContext(): ControllerContext {
  if (!shared) {
    const { resources, config } = readEnvironment();
    shared = awsControllerContext(awsClients(), resources, config, systemClock, new PowertoolsMetricsAdapter(metrics));
  }
  return shared;
}

/** For tests and the local runtime, which point the functions at other resources. */
export function resetControllerContext(): void {
  shared = undefined;
}
