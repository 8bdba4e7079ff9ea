import { fileURLToPath } from 'node:url';
import type { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import type { Construct } from 'constructs';

import { BUNDLE_TARGET, EXTERNAL_MODULES, MAIN_FIELDS, REQUIRE_SHIM, type HandlerName } from './bundling';

export interface HandlerFunctionProps {
  readonly prefix: string;
  readonly handler: HandlerName;
  readonly environment: Record<string, string>;
  readonly timeout: Duration;
  readonly reservedConcurrentExecutions?: number;
  /** MB. Default 512. */
  readonly memorySize?: number;
  readonly removalPolicy: RemovalPolicy;
  /** Ship the source map and run with --enable-source-maps. */
  readonly sourceMaps: boolean;
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
    // BUNDLE_TARGET (bundling.ts) follows it.
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    memorySize: props.memorySize ?? 512,
    timeout: props.timeout,
    reservedConcurrentExecutions: props.reservedConcurrentExecutions,
    role,
    logGroup,
    // With source maps, stack traces point into the TypeScript sources.
    environment: props.sourceMaps ? { ...props.environment, NODE_OPTIONS: '--enable-source-maps' } : props.environment,
    bundling: {
      forceDockerBundling: false,
      logLevel: LogLevel.WARNING,
      format: OutputFormat.ESM,
      target: BUNDLE_TARGET,
      minify: true,
      keepNames: true,
      sourceMap: props.sourceMaps,
      mainFields: MAIN_FIELDS,
      banner: REQUIRE_SHIM,
      externalModules: EXTERNAL_MODULES,
    },
  });
  NagSuppressions.addResourceSuppressions(fn, [
    { id: 'AwsSolutions-L1', reason: 'nodejs22.x rather than the newest (nodejs24.x): the code is written for Node.js 20 and later and tested locally on 20, and one major release up is the smaller step' },
  ]);
  return fn;
}
