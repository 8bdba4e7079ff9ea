import { readFileSync } from 'node:fs';
import { App, Aspects } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { stackNameFromContext, stackPropsFromContext } from './context';
import { OutrankStack } from './outrank-stack';

/** The context cdk.json gives the CLI; synthesizing without the CLI (tests, deploy:local) starts from it too. */
export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
  return cdkJson.context ?? {};
}

/**
 * The CDK app: the outrank stack as context describes it, checked by cdk-nag's AWS Solutions rules
 * (a finding that is not suppressed with a reason is an error, which fails `cdk synth`).
 */
export function outrankApp(context: Record<string, unknown> = {}, outdir?: string): { app: App; stack: OutrankStack } {
  const app = new App({ context, outdir });
  const stack = new OutrankStack(app, stackNameFromContext(app.node), stackPropsFromContext(app.node));
  Aspects.of(app).add(new AwsSolutionsChecks({ verbose: true }));
  return { app, stack };
}
