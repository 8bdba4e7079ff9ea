import type { TestProject } from 'vitest/node';
import { startAwsEndpoint } from '../../functions/local/aws-endpoint';

declare module 'vitest' {
  export interface ProvidedContext {
    awsEndpointUrl: string;
  }
}

/** One local AWS endpoint for the whole run: AWS_ENDPOINT_URL if set, else a moto_server of our own. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const endpoint = await startAwsEndpoint();
  project.provide('awsEndpointUrl', endpoint.url);
  return () => endpoint.stop();
}
