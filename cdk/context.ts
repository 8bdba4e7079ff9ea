import { RemovalPolicy } from 'aws-cdk-lib';
import type { Node } from 'constructs';
import type { OutrankSettingsWithTenancy } from '../functions/environment';
import type { OutrankStackProps } from './outrank-stack';

/** Context keys (cdk.json, or `-c key=value` on the command line) that set the stack's properties. */
export const CONTEXT = {
  stackName: 'outrank:stackName',
  prefix: 'outrank:prefix',
  settings: 'outrank:settings',
  scheduleCycleReservedConcurrency: 'outrank:scheduleCycleReservedConcurrency',
  removalPolicy: 'outrank:removalPolicy',
  lambdaEventSources: 'outrank:lambdaEventSources',
  sourceMaps: 'outrank:sourceMaps',
  watchFunctionUrl: 'outrank:watchFunctionUrl',
  apiMemorySize: 'outrank:apiMemorySize',
} as const;

const REMOVAL_POLICIES: Record<string, RemovalPolicy> = { retain: RemovalPolicy.RETAIN, destroy: RemovalPolicy.DESTROY };

/** A context value as JSON: `-c key=value` always gives a string, cdk.json gives JSON values. */
function read(node: Node, key: string): unknown {
  const value: unknown = node.tryGetContext(key);
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function invalid(key: string, expected: string, value: unknown): Error {
  return new Error(`context ${key} must be ${expected}, not ${JSON.stringify(value)}`);
}

export function stackNameFromContext(node: Node): string {
  return String(read(node, CONTEXT.stackName) ?? 'Outrank');
}

/** The stack's properties from context; anything unset keeps the stack's default. */
export function stackPropsFromContext(node: Node): OutrankStackProps {
  const prefix = read(node, CONTEXT.prefix);
  const settings = read(node, CONTEXT.settings);
  if (settings !== undefined && (typeof settings !== 'object' || settings === null)) throw invalid(CONTEXT.settings, 'a JSON object', settings);
  const reservedConcurrency = read(node, CONTEXT.scheduleCycleReservedConcurrency);
  if (reservedConcurrency !== undefined && typeof reservedConcurrency !== 'number') {
    throw invalid(CONTEXT.scheduleCycleReservedConcurrency, 'a number', reservedConcurrency);
  }
  const removalPolicy = read(node, CONTEXT.removalPolicy);
  if (removalPolicy !== undefined && !(String(removalPolicy) in REMOVAL_POLICIES)) {
    throw invalid(CONTEXT.removalPolicy, Object.keys(REMOVAL_POLICIES).join(' or '), removalPolicy);
  }
  const lambdaEventSources = read(node, CONTEXT.lambdaEventSources);
  if (lambdaEventSources !== undefined && typeof lambdaEventSources !== 'boolean') {
    throw invalid(CONTEXT.lambdaEventSources, 'true or false', lambdaEventSources);
  }
  const sourceMaps = read(node, CONTEXT.sourceMaps);
  if (sourceMaps !== undefined && typeof sourceMaps !== 'boolean') throw invalid(CONTEXT.sourceMaps, 'true or false', sourceMaps);
  const watchFunctionUrl = read(node, CONTEXT.watchFunctionUrl);
  if (watchFunctionUrl !== undefined && typeof watchFunctionUrl !== 'boolean') throw invalid(CONTEXT.watchFunctionUrl, 'true or false', watchFunctionUrl);
  const apiMemorySize = read(node, CONTEXT.apiMemorySize);
  if (apiMemorySize !== undefined && typeof apiMemorySize !== 'number') throw invalid(CONTEXT.apiMemorySize, 'a number of MB', apiMemorySize);
  return {
    prefix: prefix === undefined ? undefined : String(prefix),
    settings: settings as OutrankSettingsWithTenancy | undefined,
    scheduleCycleReservedConcurrency: reservedConcurrency,
    removalPolicy: removalPolicy === undefined ? undefined : REMOVAL_POLICIES[String(removalPolicy)],
    lambdaEventSources,
    sourceMaps,
    watchFunctionUrl,
    apiMemorySize,
  };
}
