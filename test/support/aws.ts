import { randomBytes } from 'node:crypto';
import type { AwsClients, AwsResources } from '../../functions/adapters/aws-context';
import type { QueueRedelivery, ResourceDefinitions } from '../../functions/adapters/definitions';
import { useEmulatorCredentials } from '../../functions/local/aws-endpoint';
import { provisionResources } from '../../functions/local/local-runtime';

export interface TestAws {
  readonly clients: AwsClients;
  readonly definitions: ResourceDefinitions;
  readonly resources: AwsResources;
}

/**
 * Fresh tables and queues under a unique prefix on the shared local endpoint, so tests never share state.
 * Vitest is loaded only here: the benchmarks provision their own endpoint and reuse the test harness.
 */
export async function provisionTestAws(redelivery: QueueRedelivery = {}): Promise<TestAws> {
  useEmulatorCredentials();
  const { inject } = await import('vitest');
  process.env.AWS_ENDPOINT_URL = inject('awsEndpointUrl');
  return provisionOn(redelivery);
}

/** Fresh tables and queues under a unique prefix on the endpoint AWS_ENDPOINT_URL names. */
export async function provisionOn(redelivery: QueueRedelivery = {}): Promise<TestAws> {
  return provisionResources(`t${randomBytes(4).toString('hex')}`, undefined, redelivery);
}
