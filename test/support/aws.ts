import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { DEFAULT_BANDS } from '../../lib/config';
import { awsClients, type AwsClients, type AwsResources } from '../../functions/adapters/aws-context';
import { resourceDefinitions, resourcesAt, type QueueRedelivery, type ResourceDefinitions } from '../../functions/adapters/definitions';
import { provision } from '../../functions/adapters/provision';
import { useEmulatorCredentials } from '../../functions/local/aws-endpoint';

export interface TestAws {
  readonly clients: AwsClients;
  readonly definitions: ResourceDefinitions;
  readonly resources: AwsResources;
}

/** Fresh tables and queues under a unique prefix on the shared local endpoint, so tests never share state. */
export async function provisionTestAws(redelivery: QueueRedelivery = {}): Promise<TestAws> {
  useEmulatorCredentials();
  process.env.AWS_ENDPOINT_URL = inject('awsEndpointUrl');
  const clients = awsClients();
  const definitions = resourceDefinitions(`t${randomBytes(4).toString('hex')}`, DEFAULT_BANDS, redelivery);
  const { urls } = await provision(clients.dynamodb, clients.sqs, definitions);
  return { clients, definitions, resources: resourcesAt(definitions, (name) => urls.get(name)!) };
}
