import { fileURLToPath } from 'node:url';
import { Validations, type Duration, type RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

/** The handlers in functions/, each exporting `handler`. */
export type HandlerName = 'api' | 'policy-change' | 'binding-enqueue' | 'schedule-cycle' | 'reconcile';

export interface HandlerFunctionProps {
  readonly prefix: string;
  readonly handler: HandlerName;
  readonly environment: Record<string, string>;
  readonly timeout: Duration;
  readonly reservedConcurrentExecutions?: number;
  readonly removalPolicy: RemovalPolicy;
}

/**
 * A function running one of the handlers in functions/, bundled on this machine by esbuild (no
 * Docker). Its role starts empty but for writing its own log group: every other permission is a
 * grant the stack makes for what that handler does.
 */
export function handlerFunction(scope: Construct, id: string, props: HandlerFunctionProps): NodejsFunction {
  const functionName = `${props.prefix}-${props.handler}`;
  // No fixed name: a log group kept from an earlier deployment would block the next one.
  const logGroup = new logs.LogGroup(scope, `${id}Logs`, {
    retention: logs.RetentionDays.ONE_MONTH,
    removalPolicy: props.removalPolicy,
  });
  const role = new iam.Role(scope, `${id}Role`, {
    assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
    description: `Runs ${functionName}`,
  });
  logGroup.grantWrite(role);
  const fn = new NodejsFunction(scope, id, {
    functionName,
    entry: fileURLToPath(new URL(`../functions/${props.handler}.ts`, import.meta.url)),
    handler: 'handler',
    runtime: Runtime.NODEJS_20_X,
    architecture: Architecture.ARM_64,
    memorySize: 512,
    timeout: props.timeout,
    reservedConcurrentExecutions: props.reservedConcurrentExecutions,
    role,
    logGroup,
    // Stack traces point into the TypeScript sources through the bundled source maps.
    environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    bundling: {
      forceDockerBundling: false,
      logLevel: LogLevel.WARNING,
      format: OutputFormat.ESM,
      target: 'node20',
      minify: true,
      sourceMap: true,
      // Prefer the ESM builds of dependencies; the CommonJS ones left still find a require().
      mainFields: ['module', 'main'],
      banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
      // The Node.js runtime provides AWS SDK v3; leaving it out keeps each bundle under 500 KB and its cold start short.
      externalModules: ['@aws-sdk/*'],
    },
  });
  // Node 20 on purpose, until the whole project moves (AWS stops creating nodejs20.x functions on 2027-02-01).
  const node20 = 'the project, its local runtime and Middy 6 target Node 20 (Middy 7 needs Node 22); they move together';
  NagSuppressions.addResourceSuppressions(fn, [{ id: 'AwsSolutions-L1', reason: `Node 20 on purpose: ${node20}` }]);
  Validations.of(fn).acknowledge({ id: 'CloudFormation-Validate::W2531', reason: `nodejs20.x is deprecated, yet ${node20}` });
  return fn;
}
