import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingEmulatorError, startAwsEndpoint } from '../functions/local/aws-endpoint';
import { stopOnSignals } from '../functions/local/stop-on-signals';
import { deployToEndpoint } from './deploy-to-endpoint';

/**
 * `npm run deploy:local`: bootstraps the local AWS endpoint and deploys the stack to it (without
 * event source mappings). AWS_ENDPOINT_URL names a running emulator; otherwise a moto_server is
 * started and kept running, with the deployment, until Ctrl-C. OUTRANK_STACK_NAME and
 * OUTRANK_PREFIX override cdk.json's stack name and resource prefix.
 */
async function main(): Promise<void> {
  const endpoint = await startAwsEndpoint();
  const outdir = await mkdtemp(join(tmpdir(), 'outrank-cdk-'));
  try {
    const deployment = await deployToEndpoint({
      endpointUrl: endpoint.url,
      outdir,
      stackName: process.env.OUTRANK_STACK_NAME,
      prefix: process.env.OUTRANK_PREFIX,
      log: (text) => process.stderr.write(text),
    });
    const width = Math.max(...Object.keys(deployment.outputs).map((key) => key.length));
    process.stdout.write(
      [
        `${deployment.stackName} is deployed on ${endpoint.url}`,
        ...Object.entries(deployment.outputs).map(([key, value]) => `  ${key.padEnd(width)}  ${value}`),
        '',
      ].join('\n'),
    );
  } catch (error) {
    await endpoint.stop();
    throw error;
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
  if (!endpoint.started) return;
  process.stdout.write(`moto_server keeps the deployment until Ctrl-C: AWS_ENDPOINT_URL=${endpoint.url}\n`);
  stopOnSignals(() => endpoint.stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof MissingEmulatorError ? '' : 'deploy:local failed: '}${(error as Error).message}\n`);
  process.exit(1);
});
