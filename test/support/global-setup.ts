import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAwsEndpoint } from '../../functions/local/aws-endpoint';

declare module 'vitest' {
  export interface ProvidedContext {
    awsEndpointUrl: string;
  }
}

/**
 * One local AWS endpoint for the whole run: AWS_ENDPOINT_URL if set, else a moto_server of our own.
 * The run's temporary files (each synthesized CDK app's cdk.out, browser profiles, started processes'
 * scratch) go to a directory of its own, removed at the end.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratch = mkdtempSync(join(tmpdir(), 'outrank-test-'));
  const removeScratch = () => rmSync(scratch, { recursive: true, force: true });
  process.env.TMPDIR = scratch;
  try {
    const endpoint = await startAwsEndpoint();
    project.provide('awsEndpointUrl', endpoint.url);
    return async () => {
      await endpoint.stop();
      removeScratch();
    };
  } catch (error) {
    removeScratch();
    throw error;
  }
}
