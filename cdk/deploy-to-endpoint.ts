import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AwsResources } from '../functions/adapters/aws-context';
import type { ResolvedSettings } from './outrank-stack';
import { CONTEXT } from './context';
import { cdkJsonContext, outrankApp } from './outrank-app';
import { isQueueUrlOutput, resourcesFromOutputs } from './outputs';

export interface EndpointDeployOptions {
  /** The local AWS endpoint (moto server or LocalStack). */
  readonly endpointUrl: string;
  /** Cloud assembly folder; the stack is synthesized here, then deployed from it. */
  readonly outdir: string;
  /** Default: cdk.json's outrank:stackName. */
  readonly stackName?: string;
  /** Default: cdk.json's outrank:prefix. */
  readonly prefix?: string;
  /** Receives the CDK CLI's output as it comes. */
  readonly log?: (text: string) => void;
}

export interface EndpointDeployment {
  readonly stackName: string;
  /** The stack's outputs, with queue URLs reachable through the endpoint. */
  readonly outputs: Readonly<Record<string, string>>;
  readonly resources: AwsResources;
  readonly settings: ResolvedSettings;
}

const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Runs the project's CDK CLI against the endpoint; a failure carries what the CLI said. */
function runCdk(args: readonly string[], endpointUrl: string, log: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['cdk', ...args], {
      cwd: PROJECT_ROOT,
      // The CLI's AWS SDK calls (STS, S3, SSM, CloudFormation) all honour AWS_ENDPOINT_URL.
      env: { ...process.env, AWS_ENDPOINT_URL: endpointUrl, CDK_DISABLE_VERSION_CHECK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      log(chunk.toString());
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cdk ${args[0]} exited with code ${code}:\n${output.slice(-4_000)}`))));
  });
}

/**
 * The SDK sends a queue's requests to the host in its URL; queues created by the emulator's
 * CloudFormation carry AWS's host, so their path is put on the endpoint instead.
 */
function throughEndpoint(queueUrl: string, endpointUrl: string): string {
  return new URL(new URL(queueUrl).pathname, endpointUrl).toString();
}

/**
 * Synthesizes the stack without SQS event source mappings (the emulator cannot run Lambda) nor the
 * watch function's URL (moto's CloudFormation has no AWS::Lambda::Url), then
 * bootstraps the endpoint and deploys to it with the CDK CLI.
 */
export async function deployToEndpoint(options: EndpointDeployOptions): Promise<EndpointDeployment> {
  const log = options.log ?? (() => {});
  const { app, stack } = outrankApp(
    {
      ...cdkJsonContext(),
      ...(options.stackName ? { [CONTEXT.stackName]: options.stackName } : {}),
      ...(options.prefix ? { [CONTEXT.prefix]: options.prefix } : {}),
      [CONTEXT.lambdaEventSources]: false,
      [CONTEXT.watchFunctionUrl]: false,
      [CONTEXT.removalPolicy]: 'destroy',
    },
    options.outdir,
  );
  app.synth();

  await runCdk(['bootstrap', '--app', options.outdir], options.endpointUrl, log);
  const outputsFile = join(options.outdir, 'outputs.json');
  await runCdk(
    // Direct: moto's change sets create the stack without its outputs.
    ['deploy', stack.stackName, '--app', options.outdir, '--method=direct', '--require-approval=never', '--outputs-file', outputsFile],
    options.endpointUrl,
    log,
  );
  const deployed = (JSON.parse(await readFile(outputsFile, 'utf8')) as Record<string, Record<string, string>>)[stack.stackName] ?? {};
  const outputs = Object.fromEntries(
    Object.entries(deployed).map(([key, value]) => [key, isQueueUrlOutput(key) ? throughEndpoint(value, options.endpointUrl) : value]),
  );
  return { stackName: stack.stackName, outputs, settings: stack.settings, resources: resourcesFromOutputs(outputs, stack.settings.bands) };
}
